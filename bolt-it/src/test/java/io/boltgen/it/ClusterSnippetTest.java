package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's "A cluster on loopback" shell snippet, run exactly as it is written there: etcd on 127.0.0.1:2379,
 * three example servers registering in it, the demo client resolving them, the gateway on port 8080 answering
 * curl from them, then everything stopped. It runs
 * in a temporary directory where {@code example-service/target/example-service.jar} is the freshly built jar.
 */
class ClusterSnippetTest {

  private static final String SECTION = "## A cluster on loopback";

  @Test
  void theReadmeClusterSnippetRunsAsWritten(@TempDir Path dir) throws Exception {
    String snippet = Snippets.bashBlock("README.md", SECTION);
    assertThat(snippet).contains("serve --port 0 --registry etcd://127.0.0.1:2379", "call --registry",
        "gateway --port 8080 --registry etcd://127.0.0.1:2379", "curl -s http://127.0.0.1:8080/");
    for (int port : List.of(2379, 2380, 8080)) {
      assertThat(Snippets.isFree(port)).as("port %d must be free: the snippet starts etcd and the gateway on it", port).isTrue();
    }
    Snippets.link(dir, "example-service/target/example-service.jar", "example.jar");
    Snippets.Run run = Snippets.run(dir, snippet, Duration.ofMinutes(2)); // etcd's data dir (mktemp -d) goes in dir
    String printed = run.printed();
    assertThat(run.finished()).as("the snippet ends within 2 minutes; it printed:\n%s", printed).isTrue();
    assertThat(run.exitValue()).as("its exit status; it printed:\n%s", printed).isZero();
    assertThat(printed).contains("client calling etcd:///demo.Inventory:1.0", "has 3 instances",
        "all calls behaved as expected");
    assertThat(printed).as("curl through the gateway").contains(
        "{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,\"level\":\"STOCK_LEVEL_IN_STOCK\"");
    assertThat(Files.readString(dir.resolve("gateway.out"))).contains("READY 8080");
    for (int i = 1; i <= 3; i++) {
      assertThat(Files.readString(dir.resolve("server-" + i + ".out"))).startsWith("READY ");
    }
  }
}
