package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.PeerAllowList;
import io.boltgen.runtime.PeerNotAuthorizedException;
import io.boltgen.runtime.Tls;
import io.boltgen.testing.EtcdProcess;
import io.boltgen.testing.ReadyProcess;
import io.boltgen.testing.TestCertificates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's "What you write", "What you run" and "A cluster on loopback" stay true: every code line of the
 * first is a line of this module's sources, and the others are run here as written (their lines are lines of
 * this file); the cluster one against a real etcd.
 */
class ReadmeTest {

  private static final Path README = Path.of("..", "README.md");

  /** The code lines of the {@code java} block under {@code heading} in README: trimmed, without trailing comments. */
  private static List<String> codeLines(String heading) throws IOException {
    return codeLines(README, heading);
  }

  /** The same of the first {@code java} block under {@code heading} in {@code doc} (any Markdown file). */
  static List<String> codeLines(Path doc, String heading) throws IOException {
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    int section = text.indexOf(heading + "\n");
    assertThat(section).as("a section %s in %s", heading, doc).isNotNegative();
    int next = text.indexOf("\n## ", section + heading.length());
    Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL)
        .matcher(text.substring(section, next < 0 ? text.length() : next));
    assertThat(m.find()).as("a java block under %s in %s", heading, doc).isTrue();
    List<String> lines = new ArrayList<>();
    for (String line : m.group(1).split("\n")) {
      String code = line.replaceAll("\\s*//.*$", "").strip();
      if (!code.isEmpty()) {
        lines.add(code);
      }
    }
    return lines;
  }

  private static List<String> sourceLines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          lines.add(line.replaceAll("\\s*//.*$", "").strip());
        }
      }
    }
    return lines;
  }

  @Test
  void whatYouWriteIsTheExamplesCode() throws IOException {
    List<String> sources = sourceLines(Path.of("src", "main", "java"));
    assertThat(sources).containsAll(codeLines("## What you write"));
  }

  @Test
  void whatYouRunRunsAsWritten() throws Exception {
    assertThat(sourceLines(Path.of("src", "test", "java", "io", "boltgen", "example")))
        .containsAll(codeLines("## What you run"));
    ExecutorService reservationWork = Executors.newSingleThreadExecutor();
    int port = 0;
    try {
      // server
      InventoryService service = new InventoryService(reservationWork, 1_500);
      BoltServer server = BoltServer.builder()
          .bind("127.0.0.1", port)
          .service(InventoryBolt.bind(service))
          .build()
          .start();
      try (server) {
        port = server.port(); // the test binds port 0: any free port
        // client
        BoltClient client = BoltClient.builder().build();
        try (client) {
          Inventory inventory = InventoryBolt.newClient(client.channel("127.0.0.1:" + port));
          Stock apple = inventory.get(new SkuId("apple"));
          assertThat(apple.sku()).isEqualTo(new SkuId("apple"));
          assertThat(apple.available()).isEqualTo(12);
        }
      }
    } finally {
      reservationWork.shutdownNow();
    }
  }

  /** The text of the first {@code language} block under {@code heading}, without its fences. */
  private static String block(String heading, String language) throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int section = readme.indexOf(heading + "\n");
    assertThat(section).as("a section %s in README.md", heading).isNotNegative();
    int next = readme.indexOf("\n## ", section + heading.length());
    Matcher m = Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL)
        .matcher(readme.substring(section, next < 0 ? readme.length() : next));
    assertThat(m.find()).as("a %s block under %s in README.md", language, heading).isTrue();
    return m.group(1);
  }

  @Test
  void curlCallsTheRunningExampleAsWritten() throws Exception {
    List<String> lines = block("## Call it over HTTP", "bash").lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).isEqualTo("java -jar example-service/target/example-service.jar serve --port 8080 &");
    String answer = block("## Call it over HTTP", "json").strip();
    // the jar's serve mode, from this module's classes (the jar is built after the tests), on a free port
    try (ReadyProcess server = ServerProcess.start()) {
      String curl = lines.get(1).replace("127.0.0.1:8080/", "127.0.0.1:" + server.port() + "/");
      assertThat(curl).isNotEqualTo(lines.get(1));
      Process process = new ProcessBuilder("bash", "-c", curl).redirectErrorStream(true).start();
      try {
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("curl answered within 30 s").isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("curl's exit status; it printed: %s (install curl: apt-get install curl)",
            output).isZero();
        assertThat(output.strip()).isEqualTo(answer);
      } finally {
        process.destroyForcibly();
      }
    }
  }

  @Test
  void aClusterInCodeRunsAsWritten() throws Exception {
    assertThat(sourceLines(Path.of("src", "test", "java", "io", "boltgen", "example")))
        .containsAll(codeLines("## A cluster on loopback"));
    ExecutorService reservationWork = Executors.newSingleThreadExecutor();
    try (EtcdProcess etcdProcess = EtcdProcess.start()) {
      String etcdUrl = etcdProcess.clientUrl();
      InventoryService service = new InventoryService(reservationWork, 1_500);
      EtcdRegistry etcd = EtcdRegistry.builder().endpoints(etcdUrl).build();
      try (etcd) {
        BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(InventoryBolt.bind(service))
            .registry(etcd).build().start();
        try (server) {
          BoltClient client = BoltClient.builder().nameResolver(etcd).build();
          try (client) {
            Inventory inventory = InventoryBolt.newClient(client.channel("etcd:///demo.Inventory:1.0"));
            Stock apple = inventory.get(new SkuId("apple"));
            assertThat(apple.available()).isEqualTo(12);
            assertThat(client.instances("etcd:///demo.Inventory:1.0")).singleElement()
                .satisfies(i -> assertThat(i.address().getPort()).isEqualTo(server.port()));
          }
        }
      }
    } finally {
      reservationWork.shutdownNow();
    }
  }

  @Test
  void mutualTlsRunsAsWritten(@TempDir Path dir) throws Exception {
    assertThat(sourceLines(Path.of("src", "test", "java", "io", "boltgen", "example")))
        .containsAll(codeLines("## Mutual TLS"));
    TestCertificates certs = TestCertificates.create(dir);
    Path serverChain = certs.server().certificateChainPem();
    Path serverKey = certs.server().privateKeyPem();
    Path ordersChain = certs.client("orders").certificateChainPem();
    Path ordersKey = certs.client("orders").privateKeyPem();
    Path caPem = certs.caPem();
    ExecutorService reservationWork = Executors.newSingleThreadExecutor();
    try {
      InventoryService service = new InventoryService(reservationWork, 1_500);
      Tls serverTls = Tls.builder().keyPair(serverChain, serverKey).trust(caPem)
          .clientAuth(Tls.ClientAuth.REQUIRE).build();
      BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).tls(serverTls)
          .service(InventoryBolt.bind(service))
          .serverInterceptor(PeerAllowList.builder().allow("demo.Inventory", "CN=orders").build())
          .build().start();
      try (server) {
        Tls clientTls = Tls.builder().keyPair(ordersChain, ordersKey).trust(caPem).build();
        BoltClient client = BoltClient.builder().tls(clientTls).build();
        try (client) {
          Inventory inventory = InventoryBolt.newClient(client.channel("localhost:" + server.port()));
          Stock apple = inventory.get(new SkuId("apple"));
          assertThat(apple.available()).isEqualTo(12);
        }
        Tls billing = Tls.builder().keyPair(certs.client("billing").certificateChainPem(),
            certs.client("billing").privateKeyPem()).trust(caPem).build();
        try (BoltClient other = BoltClient.builder().tls(billing).build()) {
          Inventory refused = InventoryBolt.newClient(other.channel("localhost:" + server.port()));
          assertThatThrownBy(() -> refused.get(new SkuId("apple"))).isInstanceOf(PeerNotAuthorizedException.class);
        }
      }
    } finally {
      reservationWork.shutdownNow();
    }
  }
}
