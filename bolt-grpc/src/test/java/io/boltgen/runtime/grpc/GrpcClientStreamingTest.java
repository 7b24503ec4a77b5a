package io.boltgen.runtime.grpc;

import static io.boltgen.runtime.grpc.RawGrpc.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.Tallies;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's stock client streams its requests to the Bolt port: a client-streaming handler reads every message
 * as it asks and answers after the last, a bidirectional one answers each message as it reads it; a handler that
 * reads slowly holds its caller back by HTTP/2 flow control without holding up the connection's other calls; a
 * failure, the caller's cancellation, the deadline and a message over the limit end the call mid-stream with their
 * status; and the protocols that carry one request per call refuse such methods.
 */
class GrpcClientStreamingTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final int MIB_4 = 4 * 1024 * 1024;

  private final Tallies tallies = new Tallies();
  // what the server's interceptor was told of each call's end
  private final List<String> ends = new CopyOnWriteArrayList<>();
  private BoltServer server;
  private ManagedChannel grpc;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(tallies.definition()).http(true)
        .serverInterceptor(call -> (status, error, elapsedNanos) -> ends.add(call.method().methodName() + " " + status))
        .build().start();
    grpc = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext()
        .maxInboundMessageSize(5 * 1024 * 1024).build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.close();
  }

  /** A call as grpc-java's own stubs drive one: its messages as they come, its status once. */
  private final class Caller extends ClientCall.Listener<byte[]> {
    final LinkedBlockingQueue<byte[]> received = new LinkedBlockingQueue<>();
    final CompletableFuture<Status> closed = new CompletableFuture<>();
    final CompletableFuture<Metadata> trailers = new CompletableFuture<>();
    final ClientCall<byte[], byte[]> call;

    Caller(String method, MethodType type) {
      this(grpc, method, type);
    }

    Caller(ManagedChannel channel, String method, MethodType type) {
      call = channel.newCall(GrpcJava.method(Tallies.SERVICE, method, type),
          CallOptions.DEFAULT.withDeadlineAfter(BOUND.toMillis(), TimeUnit.MILLISECONDS));
      call.start(this, new Metadata());
      call.request(Integer.MAX_VALUE);
    }

    Caller send(int count, int size) {
      for (int i = 0; i < count; i++) {
        call.sendMessage(Tallies.message(i, size));
      }
      return this;
    }

    Status end() throws Exception {
      call.halfClose();
      return status();
    }

    Status status() throws Exception {
      return closed.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }

    long[] tally() throws Exception {
      assertThat(status().getCode()).isEqualTo(Status.Code.OK);
      assertThat(received).hasSize(1);
      return Tallies.counts(received.poll());
    }

    @Override
    public void onMessage(byte[] message) {
      received.add(message);
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      this.trailers.complete(trailers);
      closed.complete(status);
    }
  }

  private Caller clientStreaming(String method) {
    return new Caller(method, MethodType.CLIENT_STREAMING);
  }

  @Test
  void theHandlerReadsEveryMessageAndAnswersAfterTheLast() throws Exception {
    Caller sum = clientStreaming("sum").send(1000, 100);
    assertThat(sum.end().getCode()).isEqualTo(Status.Code.OK);
    assertThat(sum.tally()).containsExactly(1000, 100_000);
    await().atMost(BOUND).until(() -> ends.contains("sum SUCCESS"));
    assertThat(ends).containsExactly("sum SUCCESS");
  }

  @Test
  void anEmptyStreamAndFourMebibyteMessages() throws Exception {
    Caller empty = clientStreaming("sum");
    empty.end();
    assertThat(empty.tally()).containsExactly(0, 0);
    Caller large = clientStreaming("sum").send(3, MIB_4);
    large.end();
    assertThat(large.tally()).containsExactly(3, 3L * MIB_4);
  }

  @Test
  void aBidirectionalCallAnswersEachMessageBeforeTheNextIsSent() throws Exception {
    Caller echo = new Caller("echo", MethodType.BIDI_STREAMING);
    for (int i = 0; i < 100; i++) {
      echo.call.sendMessage(Tallies.message(i, 64));
      byte[] answer = echo.received.poll(BOUND.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(answer).as("the echo of message %d, while the request stream is open", i).isNotNull();
      assertThat(Tallies.counts(answer)[0]).isEqualTo(i);
    }
    assertThat(echo.end().getCode()).isEqualTo(Status.Code.OK);
    assertThat(echo.received).isEmpty();
  }

  @Test
  void aBidirectionalCallOfAThousandMessagesInOrder() throws Exception {
    Caller echo = new Caller("echo", MethodType.BIDI_STREAMING).send(1000, 1000);
    assertThat(echo.end().getCode()).isEqualTo(Status.Code.OK);
    assertThat(echo.received).hasSize(1000);
    int i = 0;
    for (byte[] answer : echo.received) {
      assertThat(answer).hasSize(1000);
      assertThat(Tallies.counts(answer)[0]).isEqualTo(i++);
    }
    await().atMost(BOUND).until(() -> ends.contains("echo SUCCESS"));
  }

  @Test
  void aHandlerThatReadsSlowlyHoldsItsCallerBackAndTheConnectionServesOn() throws Exception {
    Caller held = clientStreaming("hold").send(200, 8 * 1024); // 1.6 MiB, which grpc-java buffers as it waits
    await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
    Tallies.Tally tally = tallies.last;
    // another call on the same connection goes on: the held stream's window is closed, not the connection's
    Caller other = clientStreaming("sum").send(100, 8 * 1024);
    other.end();
    assertThat(other.tally()).containsExactly(100, 100 * 8 * 1024);
    // the held caller is still waiting for the server's window, which its handler has not opened by reading
    assertThat(held.call.isReady()).isFalse();
    assertThat(tally.received).hasValue(1);
    tally.resume();
    assertThat(held.end().getCode()).isEqualTo(Status.Code.OK);
    assertThat(held.tally()).containsExactly(200, 200 * 8 * 1024);
  }

  @Test
  void aCallerThatCancelsWhileItsHandlerReadsSlowlyIsSeenAtOnce() throws Exception {
    Caller held = clientStreaming("hold").send(200, 8 * 1024);
    await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
    Tallies.Tally tally = tallies.last;
    held.call.cancel("gave up", null);
    // the stream is not being read (its handler asked for nothing more), yet the reset reaches the call
    assertThat(tally.cancelled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.ended.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.error.get()).isInstanceOf(CancellationException.class);
    await().atMost(BOUND).until(() -> ends.contains("hold CONNECTION_CLOSED"));
  }

  @Test
  void aConnectionThatDropsWhileItsHandlerReadsSlowlyCancelsTheCall() throws Exception {
    try (RawGrpc raw = RawGrpc.connect(server.port())) {
      int stream = raw.newStream();
      raw.headers(stream, RawGrpc.request("x").path("/test.Tally/hold"), false);
      for (int i = 0; i < 20; i++) {
        raw.data(stream, message(0, Tallies.message(i, 1024)), false);
      }
      await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
    } // the connection drops: no reset, no end, and the stream is not being read
    Tallies.Tally tally = tallies.last;
    assertThat(tally.cancelled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.ended.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.error.get()).isInstanceOf(CancellationException.class);
    await().atMost(BOUND).until(() -> ends.contains("hold CONNECTION_CLOSED"));
  }

  @Test
  void aFailureMidStreamIsTheStatusWhileTheCallerStillSends() throws Exception {
    Caller broken = clientStreaming("sumThenFail").send(5, 100);
    Status status = broken.status();
    assertThat(status.getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(status.getDescription()).isEqualTo("the tally broke");
    Caller refused = clientStreaming("sumThenRefuse").send(5, 100);
    assertThat(refused.status().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(refused.status().getDescription()).isEqualTo("the tally is closed for the night");
    assertThat(refused.trailers.get().containsKey(
        Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER))).isTrue();
    await().atMost(BOUND).until(() -> ends.containsAll(
        List.of("sumThenFail SERVER_EXCEPTION", "sumThenRefuse SERVER_EXCEPTION")));
  }

  @Test
  void anAnswerBeforeTheLastMessageEndsTheCall() throws Exception {
    Caller first = clientStreaming("first").send(3, 16);
    assertThat(first.status().getCode()).isEqualTo(Status.Code.OK);
    assertThat(Tallies.counts(first.received.poll())[0]).isZero();
    await().atMost(BOUND).until(() -> ends.contains("first SUCCESS"));
    // the connection serves on
    Caller sum = clientStreaming("sum").send(2, 16);
    sum.end();
    assertThat(sum.tally()).containsExactly(2, 32);
  }

  @Test
  void theCallerCancelsMidStream() throws Exception {
    Caller sum = clientStreaming("sum").send(2, 100);
    await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 2);
    sum.call.cancel("enough", null);
    Tallies.Tally tally = tallies.last;
    assertThat(tally.cancelled.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.ended.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.error.get()).isInstanceOf(CancellationException.class);
    await().atMost(BOUND).until(() -> ends.contains("sum CONNECTION_CLOSED") && server.cancelledCalls() == 1);
  }

  @Test
  void theCallersDeadlineCoversTheWholeStream() throws Exception {
    try (RawGrpc raw = RawGrpc.connect(server.port())) {
      int stream = raw.newStream();
      raw.headers(stream, RawGrpc.request("x").path("/test.Tally/sum").set("grpc-timeout", "300m"), false)
          .data(stream, message(0, Tallies.message(0, 8)), false);
      RawGrpc.Answer answer = raw.answer(stream);
      // the server's own words: its deadline, the caller's 300 ms, ended the call while the caller still sent
      assertThat(answer.trailersOnly()).isTrue();
      assertThat(answer.grpcStatus()).isEqualTo("4");
      assertThat(answer.grpcMessage()).isEqualTo("/test.Tally/sum did not answer within 300 ms");
      assertThat(raw.nextOn(stream).errorCode()).as("RST_STREAM: stop sending").isEqualTo(RawGrpc.NO_ERROR);
    }
    Tallies.Tally tally = tallies.last;
    assertThat(tally.ended.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(tally.error.get()).isInstanceOf(CancellationException.class);
    assertThat(tally.received).hasValue(1);
    await().atMost(BOUND).until(() -> ends.contains("sum TIMEOUT"));
  }

  @Test
  void aMessageOverTheLimitMidStreamEndsTheCallAndTheConnectionServesOn() throws Exception {
    try (RawGrpc raw = RawGrpc.connect(server.port())) {
      int stream = raw.newStream();
      raw.headers(stream, RawGrpc.request("x").path("/test.Tally/sum"), false)
          .data(stream, message(0, Tallies.message(0, 8)), false);
      await().atMost(BOUND).until(() -> tallies.last != null && tallies.last.received.get() == 1);
      raw.data(stream, RawGrpc.prefix(0, 0xFFFF_FFFFL), false); // over any limit: its bytes never come
      RawGrpc.Answer answer = raw.answer(stream);
      assertThat(answer.grpcStatus()).isEqualTo("8"); // RESOURCE_EXHAUSTED
      assertThat(answer.grpcMessage()).contains("over the server's limit");
      Tallies.Tally tally = tallies.last;
      assertThat(tally.ended.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      assertThat(tally.error.get()).isInstanceOf(CancellationException.class);
      int next = raw.newStream();
      raw.headers(next, RawGrpc.request("x").path("/test.Tally/sum"), false)
          .data(next, message(0, Tallies.message(0, 8)), true);
      RawGrpc.Answer served = raw.answer(next);
      assertThat(served.grpcStatus()).isEqualTo("0");
      assertThat(Tallies.counts(served.messages().get(0))).containsExactly(1, 8);
    }
  }

  @Test
  void unaryConnectAndGrpcWebRefuseAStreamOfRequestsAndConnectBidiNeedsHttp2() throws Exception {
    HttpResponse<String> connect = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/test.Tally/sum"))
        .header("content-type", "application/proto")
        .POST(HttpRequest.BodyPublishers.ofByteArray(Tallies.message(0, 8))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(connect.body()).contains("\"code\":\"unimplemented\"")
        .contains("streams its requests, which this caller's protocol cannot carry: call it over gRPC, Connect's"
            + " streaming protocol, or Bolt with a boltgen client");
    HttpResponse<byte[]> connectStream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/test.Tally/echo"))
        .header("content-type", "application/connect+proto")
        .POST(HttpRequest.BodyPublishers.ofByteArray(message(0, Tallies.message(0, 8)))).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(connectStream.statusCode()).as("Connect's bidirectional streams need HTTP/2").isEqualTo(505);
    assertThat(new String(connectStream.body(), java.nio.charset.StandardCharsets.UTF_8))
        .contains("\"code\":\"unimplemented\"").contains("/test.Tally/echo is bidirectional");
    HttpResponse<byte[]> web = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/test.Tally/echo"))
        .header("content-type", "application/grpc-web+proto")
        .POST(HttpRequest.BodyPublishers.ofByteArray(message(0, Tallies.message(0, 8)))).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(new String(web.body(), java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("grpc-status:12").contains("gRPC-Web carries unary and server-streaming methods");
    assertThat(tallies.last).as("no handler ran").isNull();
    // a boltgen caller streams its requests over Bolt, on the same port
    try (BoltClient client = BoltClient.builder().build()) {
      byte[] answer = client.channel("127.0.0.1:" + server.port()).invokeClientStream(Tallies.SUM,
          io.boltgen.runtime.Publishers.of(List.of(Tallies.message(0, 8), Tallies.message(1, 8))),
          io.boltgen.runtime.CallOptions.DEFAULT).get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(Tallies.counts(answer)).containsExactly(2, 16);
    }
  }

  @Test
  void aQuietStreamKeepsItsConnectionPastTheIdleTimeout() throws Exception {
    try (BoltServer quick = BoltServer.builder().bind("127.0.0.1", 0).service(tallies.definition()).http(true)
        .idleTimeout(Duration.ofMillis(200)).build().start()) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", quick.port()).usePlaintext().build();
      try {
        Caller echo = new Caller(channel, "echo", MethodType.BIDI_STREAMING);
        echo.call.sendMessage(Tallies.message(1, 8));
        assertThat(echo.received.poll(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();
        // nothing read or written for three idle times: the open stream keeps the connection
        await().during(Duration.ofMillis(600)).atMost(BOUND).until(() -> quick.connections().size() == 1);
        echo.call.sendMessage(Tallies.message(2, 8));
        assertThat(echo.received.poll(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();
        assertThat(echo.end().getCode()).isEqualTo(Status.Code.OK);
        // with no stream open, the idle timeout closes it
        await().atMost(BOUND).until(() -> quick.connections().isEmpty());
      } finally {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aStreamResetInALoopLeavesNothingHeld() throws IOException {
    try (RawGrpc raw = RawGrpc.connect(server.port())) {
      for (int i = 0; i < 200; i++) {
        int stream = raw.newStream();
        raw.headers(stream, RawGrpc.request("x").path("/test.Tally/hold"), false)
            .data(stream, message(0, Tallies.message(i, 1024)) , false)
            .reset(stream, RawGrpc.CANCEL);
      }
      await().atMost(BOUND).until(() -> server.cancelledCalls() == 200);
      int stream = raw.newStream();
      raw.headers(stream, RawGrpc.request("x").path("/test.Tally/sum"), false)
          .data(stream, message(0, Tallies.message(0, 8)), true);
      assertThat(raw.answer(stream).grpcStatus()).isEqualTo("0");
    }
  }
}
