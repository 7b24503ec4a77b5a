package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.testing.Closer;
import io.boltgen.testing.RawFrames;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server's connection limit and frame timeout: what they close, and what the client is told. */
class ConnectionLimitsTest {

  private final Closer closer = new Closer();
  private final EchoService echo = new EchoService();

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  /**
   * Reads (and drops) whatever the server sends until it closes the connection; fails after 10 s. A close while
   * this side still writes may arrive as a reset rather than an end of stream (the server's stack resets a
   * connection closed with bytes unread): that is the peer closing too.
   */
  private static void assertClosedByPeer(Socket socket) throws Exception {
    socket.setSoTimeout(10_000);
    InputStream in = socket.getInputStream();
    byte[] sink = new byte[4096];
    try {
      while (in.read(sink) >= 0) {
        // an answer may come first
      }
    } catch (SocketException e) {
      assertThat(e).hasMessageContaining("Connection reset");
    }
  }

  @Test
  void aConnectionBeyondTheLimitIsRefusedAtOnceWithAClearError() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).maxConnections(3)
        .service(echo.definition()).build().start());
    String address = "127.0.0.1:" + server.port();
    List<BoltChannel> admitted = new ArrayList<>();
    List<BoltClient> clients = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      clients.add(closer.track(BoltClient.builder().build()));
      BoltChannel channel = clients.get(i).channel(address);
      assertThat(string(channel.invokeSync(ECHO, bytes("in " + i), CallOptions.DEFAULT))).isEqualTo("in " + i);
      admitted.add(channel);
    }

    BoltClient fourth = closer.track(BoltClient.builder().build());
    BoltChannel refused = fourth.channel(address);
    long start = System.nanoTime();
    assertThatThrownBy(() -> refused.invokeSync(ECHO, bytes("one too many"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY);
          assertThat(e.remoteMessage()).contains("refused the connection").contains("maxConnections")
              .contains("its limit (maxConnections) is 3");
        });
    long refusalMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.printf("measured: a connection beyond the limit was refused in %d ms%n", refusalMillis);
    assertThat(refusalMillis).as("refusal, ms").isLessThan(2_000);
    assertThat(server.connections()).hasSize(3);

    // a raw peer over the limit that sends nothing is closed within the linger time
    try (Socket silent = new Socket("127.0.0.1", server.port())) {
      assertClosedByPeer(silent);
    }

    // once a place is free, the refused client gets in (its pool reconnects within a second)
    clients.get(1).close();
    await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().size() == 2);
    await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
        assertThat(string(refused.invokeSync(ECHO, bytes("now"), CallOptions.DEFAULT))).isEqualTo("now"));
    for (BoltChannel channel : List.of(admitted.get(0), admitted.get(2))) {
      assertThat(string(channel.invokeSync(ECHO, bytes("still"), CallOptions.DEFAULT))).isEqualTo("still");
    }
  }

  @Test
  void aRequestFrameNotFinishedInTimeIsAnsweredAndItsConnectionClosed() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).frameTimeout(Duration.ofMillis(300))
        .service(echo.definition()).build().start());
    byte[] frame = RawFrames.request(ECHO.wireName(), 77, new byte[1000], 30_000);
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(Arrays.copyOf(frame, 100)); // the header and a little more, then nothing
      out.flush();
      socket.setSoTimeout(10_000);
      InputStream in = socket.getInputStream();
      byte[] answer = RawFrames.read(in);
      assertThat(answer).as("an answer to the unfinished request").isNotNull();
      assertThat(RawFrames.requestId(answer)).isEqualTo(77);
      assertThat(RawFrames.status(answer)).isEqualTo(ResponseStatus.SERVER_DESERIAL_EXCEPTION.code());
      assertThat(new String(answer, java.nio.charset.StandardCharsets.UTF_8)).contains("not finished within 300 ms");
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void aPeerTricklingBytesIsClosedAtTheFrameTimeoutThoughItIsNeverIdle() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).frameTimeout(Duration.ofMillis(300))
        .idleTimeout(Duration.ofMillis(200)).service(echo.definition()).build().start());
    byte[] frame = RawFrames.request(ECHO.wireName(), 5, new byte[1000], 30_000);
    ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
    closer.track(trickle::shutdownNow);
    AtomicInteger sent = new AtomicInteger();
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      OutputStream out = socket.getOutputStream();
      // one byte every 20 ms: never idle for the 200 ms idle timeout, never finishing the frame
      ScheduledFuture<?> trickling = trickle.scheduleAtFixedRate(() -> {
        try {
          out.write(frame[sent.getAndIncrement() % frame.length]);
          out.flush();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e); // closed: stop trickling
        }
      }, 0, 20, TimeUnit.MILLISECONDS);
      assertClosedByPeer(socket);
      trickling.cancel(false);
    }
    assertThat(sent.get()).as("bytes trickled before the close").isLessThan(frame.length);
    // the server still serves others
    try (BoltClient client = BoltClient.builder().build()) {
      assertThat(string(client.channel("127.0.0.1:" + server.port()).invokeSync(ECHO, bytes("ok"),
          CallOptions.DEFAULT))).isEqualTo("ok");
    }
  }
}
