package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/runtime.md's virtual-thread snippet, as written: its code lines are this file's, and this test runs them
 * (Java 21+: the JDK 25 run of the build), then calls the example's service from the client it made.
 */
@Tag("jdk21")
class VirtualThreadsSnippetTest {

  @Test
  void theSnippetRunsAsWritten() throws Exception {
    List<String> mine = Files.readAllLines(
        Path.of("src/test/java/io/boltgen/example/VirtualThreadsSnippetTest.java"), StandardCharsets.UTF_8).stream()
        .map(line -> line.replaceAll("\\s*//.*$", "").strip()).toList();
    assertThat(mine).containsAll(ReadmeTest.codeLines(Path.of("..", "docs", "runtime.md"),
        "### Virtual threads (Java 21+)"));
    ExecutorService reservationWork = Executors.newSingleThreadExecutor();
    InventoryService service = new InventoryService(reservationWork, 1_500);
    String host = "127.0.0.1";
    int port = 0;
    try {
      BoltServer server = BoltServer.builder()
          .bind(host, port)
          .threads(0, 10_000, 1_000)
          .virtualThreads()
          .service(InventoryBolt.bind(service))
          .build()
          .start();
      try (server) {
        BoltClient client = BoltClient.builder().virtualThreads().callbackThreads(1_000).build();
        try (client) {
          Inventory inventory = InventoryBolt.newClient(client.channel("127.0.0.1:" + server.port()));
          assertThat(inventory.get(new SkuId("apple")).available()).isEqualTo(12);
        }
      }
    } finally {
      reservationWork.shutdownNow();
    }
  }
}
