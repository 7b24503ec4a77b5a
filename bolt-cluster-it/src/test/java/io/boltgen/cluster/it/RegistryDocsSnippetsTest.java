package io.boltgen.cluster.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.EtcdCluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * The Java snippets of docs/registry-etcd.md and docs/registry-zookeeper.md, as written: every code line of
 * them is a line of this file, which runs them against a real three-member etcd and ZooKeeper.
 */
class RegistryDocsSnippetsTest {

  private final List<List<ServiceInstance>> routed = new CopyOnWriteArrayList<>();

  private static List<String> codeLines(String doc) throws IOException {
    String text = Files.readString(Path.of("..", "docs", doc), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(text);
    List<String> lines = new ArrayList<>();
    while (m.find()) {
      for (String line : m.group(1).split("\n")) {
        String code = line.replaceAll("\\s*//.*$", "").strip();
        if (!code.isEmpty()) {
          lines.add(code);
        }
      }
    }
    assertThat(lines).as("java blocks in docs/%s", doc).isNotEmpty();
    return lines;
  }

  private static List<String> thisFile() throws IOException {
    return Files.readAllLines(Path.of("src", "test", "java", "io", "boltgen", "cluster", "it",
        "RegistryDocsSnippetsTest.java")).stream().map(l -> l.replaceAll("\\s*//.*$", "").strip()).toList();
  }

  private void route(List<ServiceInstance> instances) {
    routed.add(instances);
  }

  @Test
  @SuppressWarnings("try") // the probe's watch is never referenced: it only has to stay open while the snippet runs
  void theEtcdSnippetRunsAsWritten() throws Exception {
    assertThat(thisFile()).containsAll(codeLines("registry-etcd.md"));
    try (EtcdCluster cluster = EtcdCluster.start(3)) {
      String member1 = cluster.endpoints()[0];
      String member2 = cluster.endpoints()[1];
      String member3 = cluster.endpoints()[2];
      List<List<ServiceInstance>> seen = new CopyOnWriteArrayList<>();
      try (EtcdRegistry other = EtcdRegistry.builder().endpoints(member2).build();
          NameResolver.Watch probe = other.watch("demo.Inventory:1.0", seen::add)) {
        EtcdRegistry registry = EtcdRegistry.builder()
            .endpoints(member1, member2, member3)
            .prefix("/boltgen/services")
            .leaseTtl(Duration.ofSeconds(10))
            .requestTimeout(Duration.ofSeconds(2))
            .build();

        Registration registration = registry.register("demo.Inventory:1.0",
            ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200)).withZone("zone-b"));
        await().atMost(Duration.ofSeconds(5)).until(() -> !seen.isEmpty() && seen.get(seen.size() - 1).size() == 1);
        assertThat(seen.get(seen.size() - 1).get(0).zone()).isEqualTo("zone-b");
        NameResolver.Watch watch = registry.watch("demo.Inventory:1.0", instances -> System.out.println(instances));
        watch.close();
        registration.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> seen.get(seen.size() - 1).isEmpty());
        registry.close();
      }
    }
  }

  @Test
  void theZooKeeperSnippetRunsAsWritten() throws Exception {
    assertThat(thisFile()).containsAll(codeLines("registry-zookeeper.md"));
    try (TestingServer zookeeper = new TestingServer(true)) {
      String connectString = zookeeper.getConnectString();
      try (ZooKeeperRegistry registry = ZooKeeperRegistry.builder()
          .connectString(connectString)
          .root("/boltgen/services")
          .sessionTimeout(Duration.ofSeconds(10))
          .connectionTimeout(Duration.ofSeconds(2))
          .build()) {

        Registration registration = registry.register("demo.Inventory:1.0",
            ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200)).withZone("rack-3"));

        NameResolver.Watch watch = registry.watch("demo.Inventory:1.0", instances -> route(instances));
        await().atMost(Duration.ofSeconds(5)).until(() -> !routed.isEmpty() && routed.get(routed.size() - 1).size() == 1);
        assertThat(routed.get(routed.size() - 1).get(0).zone()).isEqualTo("rack-3");
        watch.close();
        registration.close();
      }
    }
  }
}
