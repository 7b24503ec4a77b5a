package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.sofarpc.it.hessian.GreetService;
import io.boltgen.sofarpc.it.hessian.GreetServiceBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceImpl;
import io.boltgen.sofarpc.it.proto.EchoReply;
import io.boltgen.sofarpc.it.proto.EchoRequest;
import io.boltgen.sofarpc.it.proto.EchoService;
import io.boltgen.sofarpc.it.proto.EchoServiceBolt;
import io.boltgen.sofarpc.it.proto.EchoServiceImpl;
import java.io.Closeable;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both ways through SOFARPC's ZooKeeper layout, on a ZooKeeper 3.9 server (Curator's, in process) and on the
 * 3.5.7 server SOFARPC 5.13 ships (in the SOFARPC peer's JVM): a SOFARPC consumer finds two boltgen providers,
 * each service registered with its own serialization, and spreads its calls by their weights; a boltgen client
 * finds two SOFARPC providers and spreads its calls by theirs.
 */
class SofaRpcRegistryInteropTest {

  private static final Pattern SPREAD = Pattern.compile("SPREAD (\\S+) (\\d+)");
  private static final int CALLS = 400;

  @ParameterizedTest(name = "ZooKeeper {0}")
  @ValueSource(strings = {"3.9", "3.5.7"})
  @Timeout(240)
  void sofaRpcConsumerFindsBoltProvidersAndSpreadsByWeight(String version, @TempDir Path data) throws Exception {
    try (ZooKeeper zk = ZooKeeper.start(version, data);
        ZooKeeperRegistry lightRegistry = sofaRpcLayout(zk);
        ZooKeeperRegistry heavyRegistry = sofaRpcLayout(zk)) {
      BoltServer light = boltProvider("bolt-light", 1, lightRegistry);
      BoltServer heavy = boltProvider("bolt-heavy", 3, heavyRegistry);
      try {
        // each service says its own serialization, whatever the server's metadata
        assertThat(providerUrls(zk, "com.example.sofa.hessian.GreetService")).hasSize(2)
            .allSatisfy(url -> assertThat(url).contains("&serialization=hessian2&"));
        assertThat(providerUrls(zk, "com.example.sofa.proto.EchoService")).hasSize(2)
            .allSatisfy(url -> assertThat(url).contains("&serialization=protobuf&"));
        for (String serializer : new String[] {"hessian2", "protobuf"}) {
          SofaRpcPeer.ConsumerRun run = SofaRpcPeer.runConsumer("--serializer", serializer,
              "--registry", "zookeeper://" + zk.getConnectString(), "--calls", "sync,spread");
          assertThat(run.done()).as(run.toString()).isEqualTo("DONE 2 0");
          Map<String, Integer> spread = spread(run);
          assertThat(spread).as(run.toString()).containsOnlyKeys("bolt-light", "bolt-heavy");
          assertThat(spread.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(CALLS);
          // weights 1:3 — the heavier instance takes clearly more (300 expected of 400)
          assertThat(spread.get("bolt-heavy")).as(run.toString()).isGreaterThan(spread.get("bolt-light") * 3 / 2);
        }
      } finally {
        light.close();
        heavy.close();
      }
    }
  }

  @ParameterizedTest(name = "ZooKeeper {0}")
  @ValueSource(strings = {"3.9", "3.5.7"})
  @Timeout(240)
  void boltClientFindsSofaRpcProvidersAndSpreadsByWeight(String version, @TempDir Path data) throws Exception {
    try (ZooKeeper zk = ZooKeeper.start(version, data)) {
      String registry = "zookeeper://" + zk.getConnectString();
      try (SofaRpcPeer light = SofaRpcPeer.providerOnFreePort("--id", "sofa-light", "--registry", registry,
              "--weight", "1");
          SofaRpcPeer heavy = SofaRpcPeer.providerOnFreePort("--id", "sofa-heavy", "--registry", registry,
              "--weight", "3");
          ZooKeeperRegistry resolver = sofaRpcLayout(zk);
          BoltClient client = BoltClient.builder().nameResolver(resolver)
              .balancingPolicy(BalancingPolicy.WEIGHTED_RANDOM).build()) {
        String greetTarget = "zookeeper:///com.example.sofa.hessian.GreetService:1.0";
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.instances(greetTarget).size() == 2);
        GreetService greet = GreetServiceBolt.newClient(client, greetTarget);
        Map<String, Integer> byHessian = new TreeMap<>();
        for (int i = 0; i < CALLS; i++) {
          byHessian.merge(greet.whoami(), 1, Integer::sum);
        }
        assertThat(byHessian).containsOnlyKeys("sofa-light", "sofa-heavy");
        assertThat(byHessian.get("sofa-heavy")).as("%s", byHessian).isGreaterThan(byHessian.get("sofa-light") * 3 / 2);

        String echoTarget = "zookeeper:///com.example.sofa.proto.EchoService:1.0";
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.instances(echoTarget).size() == 2);
        EchoService echo = EchoServiceBolt.newClient(client, echoTarget);
        Map<String, Integer> byProtobuf = new TreeMap<>();
        for (int i = 0; i < CALLS; i++) {
          EchoReply reply = echo.echo(new EchoRequest("w", 1));
          byProtobuf.merge(reply.server(), 1, Integer::sum);
        }
        assertThat(byProtobuf).containsOnlyKeys("sofa-light", "sofa-heavy");
        assertThat(byProtobuf.get("sofa-heavy")).as("%s", byProtobuf)
            .isGreaterThan(byProtobuf.get("sofa-light") * 3 / 2);
        assertThat(light.isAlive()).isTrue();
        assertThat(heavy.isAlive()).isTrue();
      }
    }
  }

  private static ZooKeeperRegistry sofaRpcLayout(ZooKeeper zk) {
    // a 3.5 server knows no persistent watch: watches set again after every event there
    return ZooKeeperRegistry.builder().connectString(zk.getConnectString())
        .layout(ZooKeeperRegistry.Layout.SOFARPC).persistentWatches(zk.persistentWatches()).build();
  }

  /** The provider URLs of {@code interfaceName} in SOFARPC's layout, decoded as a SOFARPC consumer decodes them. */
  private static List<String> providerUrls(ZooKeeper zk, String interfaceName) throws Exception {
    try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zk.getConnectString(),
        new RetryOneTime(100))) {
      curator.start();
      assertThat(curator.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
      List<String> urls = new ArrayList<>();
      for (String node : curator.getChildren().forPath("/sofa-rpc/" + interfaceName + "/providers")) {
        urls.add(URLDecoder.decode(node, StandardCharsets.UTF_8));
      }
      return urls;
    }
  }

  /** A ZooKeeper server of one version, started for one test. */
  private interface ZooKeeper extends Closeable {
    String getConnectString();

    /** Whether the server knows persistent watches (3.6+). */
    boolean persistentWatches();

    /** "3.9": Curator's in-process server (this class path's ZooKeeper); "3.5.7": SOFARPC's, in a peer JVM. */
    static ZooKeeper start(String version, Path data) throws Exception {
      if (version.equals("3.5.7")) {
        SofaRpcPeer peer = SofaRpcPeer.zookeeper(data);
        return new ZooKeeper() {
          @Override
          public String getConnectString() {
            return peer.address();
          }

          @Override
          public boolean persistentWatches() {
            return false;
          }

          @Override
          public void close() throws IOException {
            peer.close();
          }
        };
      }
      TestingServer server = new TestingServer(-1, data.toFile(), true);
      return new ZooKeeper() {
        @Override
        public String getConnectString() {
          return server.getConnectString();
        }

        @Override
        public boolean persistentWatches() {
          return true;
        }

        @Override
        public void close() throws IOException {
          server.close();
        }
      };
    }
  }

  private static BoltServer boltProvider(String id, int weight, ZooKeeperRegistry registry) {
    return BoltServer.builder().bind("127.0.0.1", 0).advertisedHost("127.0.0.1")
        .registry(registry).instance(weight, "", Map.of())
        .service(GreetServiceBolt.bind(new GreetServiceImpl(id)))
        .service(EchoServiceBolt.bind(new EchoServiceImpl(id)))
        .build().start();
  }

  private static Map<String, Integer> spread(SofaRpcPeer.ConsumerRun run) {
    Map<String, Integer> counts = new TreeMap<>();
    for (String line : run.lines()) {
      Matcher m = SPREAD.matcher(line);
      if (m.matches()) {
        counts.put(m.group(1), Integer.parseInt(m.group(2)));
      }
    }
    return counts;
  }
}
