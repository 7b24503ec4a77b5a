package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;

import demo.inventory.InventoryGrpc;
import demo.inventory.IoBoltgenExampleInventory.GetRequest;
import demo.inventory.IoBoltgenExampleInventory.GetResponse;
import demo.inventory.IoBoltgenExampleInventory.SkuId;
import io.boltgen.runtime.BoltServer;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * README's gRPC snippet, as written: its code lines are this file's, and this test runs them against the server
 * {@code serve} runs ({@link ExampleMain#startServer}), on a free port, and checks what it printed.
 */
class GrpcSnippetTest {

  @Test
  void theSnippetRunsAsWritten() throws Exception {
    List<String> mine = Files.readAllLines(
        Path.of("src/test/java/io/boltgen/example/GrpcSnippetTest.java"), StandardCharsets.UTF_8).stream()
        .map(line -> line.replaceAll("\\s*//.*$", "").strip()).toList();
    assertThat(mine).containsAll(ReadmeTest.codeLines(Path.of("..", "README.md"), "## Call it with gRPC"));
    ExecutorService reservationWork = Executors.newSingleThreadExecutor();
    BoltServer server = ExampleMain.startServer(0, reservationWork);
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    try {
      int port = server.port();
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
      InventoryGrpc.InventoryBlockingStub inventory = InventoryGrpc.newBlockingStub(channel);
      GetResponse stock = inventory.withDeadlineAfter(3, TimeUnit.SECONDS)
          .get(GetRequest.newBuilder().setSku(SkuId.newBuilder().setValue("apple")).build());
      System.out.println(stock.getValue().getAvailable()); // 12
      channel.shutdownNow();
      assertThat(channel.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      System.setOut(stdout);
      server.close();
      reservationWork.shutdownNow();
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo("12" + System.lineSeparator());
  }
}
