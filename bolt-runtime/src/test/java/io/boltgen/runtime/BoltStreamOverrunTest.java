package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.internal.wire.FrameFormat;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A caller that breaks boltgen's stream of requests over Bolt, with frames written by hand: messages beyond the
 * credit its server granted close its connection (the server holds only what its handler asked for), and messages
 * and ends of a stream the server does not know are dropped while the connection serves on.
 */
class BoltStreamOverrunTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
  private static final FrameFormat FORMAT = FrameFormat.of(WireProtocol.V1);

  private final Tallies tallies = new Tallies();
  private BoltServer server;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(tallies.definition()).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static void write(OutputStream out, ByteBuf frame) throws Exception {
    try {
      byte[] bytes = new byte[frame.readableBytes()];
      frame.readBytes(bytes);
      out.write(bytes);
      out.flush();
    } finally {
      frame.release();
    }
  }

  private static ByteBuf opening(int requestId, String method) {
    return StreamFrames.opening(ALLOC, FORMAT, requestId, 5_000,
        Tallies.method(method, MethodType.CLIENT_STREAMING).wireName().getBytes(StandardCharsets.UTF_8),
        Map.of(StreamFrames.HEADER, "16"), Tallies.HOLD.requestMarshaller().codecId(), Integer.MAX_VALUE);
  }

  private static ByteBuf message(int requestId, int index) {
    return StreamFrames.requestMessage(ALLOC, FORMAT, requestId, Tallies.HOLD.requestMarshaller(),
        Tallies.message(index, 8), Integer.MAX_VALUE);
  }

  @Test
  void messagesBeyondTheGrantedCreditCloseTheConnection() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout((int) BOUND.toMillis());
      OutputStream out = socket.getOutputStream();
      try {
        write(out, opening(1, "hold")); // its handler asks for one message, and then for none
        for (int i = 0; i < 40; i++) {
          write(out, message(1, i));
        }
        InputStream in = socket.getInputStream();
        // the server's credit frame may come first; then the connection ends
        while (in.read() >= 0) {
          // read to the close (a read that waits past the socket's timeout fails the test)
        }
      } catch (SocketException e) {
        // the server closed it while this side still wrote: reset
      }
    }
    // its handler, if it ran before the connection closed, was told what it asked for and no more
    Tallies.Tally tally = tallies.last;
    assertThat(tally == null ? 0 : tally.received.get()).isLessThanOrEqualTo(1);
    await().atMost(BOUND).until(() -> server.connections().isEmpty());
  }

  @Test
  void messagesAndEndsOfAStreamTheServerDoesNotKnowAreDropped() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      OutputStream out = socket.getOutputStream();
      write(out, message(7, 0));
      write(out, StreamFrames.requestsEnd(ALLOC, FORMAT, 7));
    }
    // the connection served on until its caller closed it; another caller is served as before
    try (BoltClient client = BoltClient.builder().build()) {
      byte[] answer = client.channel("127.0.0.1:" + server.port()).invokeClientStream(Tallies.SUM,
          Publishers.of(java.util.List.of(Tallies.message(0, 8))), CallOptions.DEFAULT)
          .get(BOUND.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      assertThat(Tallies.counts(answer)).containsExactly(1, 8);
    }
  }
}
