package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.SINK;
import static io.boltgen.runtime.EchoService.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code @Oneway} promises when there is nobody to receive the frame, as docs/generated-code.md states
 * it: the call returns at once without an error, the loss costs one log line naming the method and the
 * address, and only a call the client can refuse at once (the client is closed) throws.
 */
class OnewayContractTest {

  @Test
  void aOnewayToAnUnreachableServerReturnsAndLeavesOneLogLine() throws Exception {
    int deadPort;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      deadPort = probe.getLocalPort();
    }
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    BoltChannel channel;
    try (BoltClient client = BoltClient.builder().build()) {
      channel = client.channel("127.0.0.1:" + deadPort);
      channel.invokeOneway(SINK, bytes("lost"), CallOptions.DEFAULT);
      String lost = "oneway test.Echo:1.0/sink not sent: could not connect to /127.0.0.1:" + deadPort;
      await().atMost(Duration.ofSeconds(10)).until(() -> captured.toString(StandardCharsets.UTF_8).contains(lost));
      List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
      assertThat(lines).filteredOn(l -> l.contains("oneway")).hasSize(1);
      assertThat(lines).as("no stack trace").noneMatch(l -> l.startsWith("\tat "));
    } finally {
      System.setErr(original);
    }
    assertThatThrownBy(() -> channel.invokeOneway(SINK, bytes("refused"), CallOptions.DEFAULT))
        .isInstanceOf(BoltException.class);
  }

  /**
   * A refused connect completes on an IO thread, sometimes before the caller has left {@code invokeOneway}: it is
   * logged whichever comes first, never thrown at the caller. Each port is a first connect of its own pool; five
   * of them, so that their lines stay within the log's budget of ten a minute that the other test counts on.
   */
  @Test
  void aConnectRefusedWhileTheCallerIsStillSendingIsNotThrown() throws Exception {
    try (BoltClient client = BoltClient.builder().build()) {
      for (int i = 0; i < 5; i++) {
        int deadPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
          deadPort = probe.getLocalPort();
        }
        BoltChannel channel = client.channel("127.0.0.1:" + deadPort);
        channel.invokeOneway(SINK, bytes("lost " + i), CallOptions.DEFAULT); // returns, whatever the timing
      }
    }
  }
}
