package io.boltgen.runtime.grpc;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static io.boltgen.runtime.grpc.RawGrpc.message;
import static io.boltgen.runtime.grpc.RawGrpc.prefix;
import static io.boltgen.runtime.grpc.RawGrpc.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.support.RateLimitedLog;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.stub.ClientCalls;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a boltgen server answers to gRPC requests that break the protocol, sent frame by frame ({@link RawGrpc}):
 * each answer exactly (HTTP status, content type, {@code grpc-status}, {@code grpc-message}), trailers-only where
 * no call ran, and after each the port still serves a good gRPC call on the same connection, a grpc-java call and
 * a Bolt call. The server reads messages of up to 64 KiB.
 */
class GrpcBadInputTest {

  private static final int LIMIT = 64 * 1024;

  // gRPC's status codes, as grpc-status carries them
  private static final String OK = "0";
  private static final String DEADLINE_EXCEEDED = "4";
  private static final String RESOURCE_EXHAUSTED = "8";
  private static final String UNIMPLEMENTED = "12";
  private static final String INTERNAL = "13";

  private final EchoService echo = new EchoService();
  private BoltServer server;
  private RawGrpc raw;
  private ManagedChannel grpc;
  private BoltClient bolt;

  @BeforeEach
  void start() throws IOException {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true).maxFrameLength(LIMIT)
        .build().start();
    raw = RawGrpc.connect(server.port());
    grpc = GrpcJava.plaintext(server.port());
    bolt = BoltClient.builder().build();
  }

  @AfterEach
  void stop() throws Exception {
    echo.release.countDown();
    bolt.close();
    grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    raw.close();
    server.close();
  }

  /** The answer of a call refused before it ran: one HEADERS frame, ending the stream, with all of it. */
  private static void assertTrailersOnly(RawGrpc.Answer answer, int httpStatus, String grpcStatus, String message) {
    assertThat(answer.trailersOnly()).as("trailers-only (one HEADERS frame with END_STREAM): %s", answer.frames())
        .isTrue();
    assertThat(answer.status()).isEqualTo(Integer.toString(httpStatus));
    assertThat(answer.contentType()).isEqualTo("application/grpc");
    assertThat(answer.grpcStatus()).isEqualTo(grpcStatus);
    assertThat(answer.grpcMessage()).isEqualTo(message);
  }

  /** A good call on the same raw connection, a grpc-java call and a Bolt call, all answered. */
  private void assertPortStillServes() throws IOException {
    RawGrpc.Answer again = raw.call(request("echo"), message(0, bytes("again")));
    assertThat(again.status()).isEqualTo("200");
    assertThat(again.grpcStatus()).isEqualTo(OK);
    assertThat(again.messages()).singleElement().extracting(EchoService::string).isEqualTo("again");
    byte[] answer = ClientCalls.blockingUnaryCall(grpc, GrpcJava.unary("test.Echo", "echo"),
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), bytes("grpc-java"));
    assertThat(string(answer)).isEqualTo("grpc-java");
    BoltChannel channel = bolt.channel("127.0.0.1:" + server.port());
    assertThat(string(channel.invokeSync(ECHO, bytes("bolt"),
        io.boltgen.runtime.CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10))))).isEqualTo("bolt");
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }

  @Test
  void aGoodCallIsHeadersMessageTrailers() throws IOException {
    RawGrpc.Answer answer = raw.call(request("echo"), message(0, bytes("héllo")));
    assertThat(answer.frames()).extracting(RawGrpc.Frame::type)
        .containsExactly(RawGrpc.HEADERS, RawGrpc.DATA, RawGrpc.HEADERS);
    assertThat(answer.frames().get(0).endStream()).isFalse();
    assertThat(answer.frames().get(2).endStream()).isTrue();
    assertThat(answer.status()).isEqualTo("200");
    assertThat(answer.contentType()).isEqualTo("application/grpc");
    assertThat(answer.grpcStatus()).isEqualTo(OK);
    assertThat(answer.messages()).singleElement().extracting(EchoService::string).isEqualTo("héllo");
    assertPortStillServes();
  }

  @Test
  void aFailedOrUnroutedCallIsTrailersOnly() throws IOException {
    assertTrailersOnly(raw.call(request("fail"), message(0, bytes("x"))), 200, INTERNAL, "boom: x");
    assertTrailersOnly(raw.call(request("nope"), message(0, bytes("x"))), 200, UNIMPLEMENTED,
        "Method not found: test.Echo/nope");
    assertPortStillServes();
  }

  @Test
  void callsResetByTheirCallerAreCancelledWhetherQueuedOrRunning() throws IOException {
    echo.release = new CountDownLatch(1); // slow answers only when released (or after 10 s)
    try (BoltServer oneThread = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true)
            .threads(1, 1, 10).build().start();
        RawGrpc client = RawGrpc.connect(oneThread.port())) {
      int running = client.newStream();
      client.headers(running, request("slow"), false).data(running, message(0, bytes("x")), true);
      await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 1);
      int queued = client.newStream(); // behind slow on the one thread: started, and waiting in the queue
      client.headers(queued, request("echo"), false).data(queued, message(0, bytes("y")), true);
      client.reset(queued, RawGrpc.CANCEL).reset(running, RawGrpc.CANCEL);
      await().atMost(Duration.ofSeconds(10)).until(() -> oneThread.cancelledCalls() == 2);
      echo.release.countDown();
      RawGrpc.Answer answer = client.call(request("echo"), message(0, bytes("after")));
      assertThat(answer.grpcStatus()).isEqualTo(OK);
      assertThat(answer.messages()).singleElement().extracting(EchoService::string).isEqualTo("after");
      assertThat(echo.echoed.get()).as("the queued echo never ran").isEqualTo(1);
    }
    assertPortStillServes();
  }

  @Test
  void aLengthOverTheLimitIsRefusedAsSoonAsItsPrefixArrives() throws IOException {
    int stream = raw.newStream();
    raw.headers(stream, request("echo"), false);
    raw.data(stream, prefix(0, LIMIT + 1), false); // the prefix alone: the message's bytes never come
    RawGrpc.Answer answer = raw.answer(stream);
    assertTrailersOnly(answer, 200, RESOURCE_EXHAUSTED,
        "a message of " + (LIMIT + 1) + " bytes is over the server's limit of " + LIMIT + " bytes");
    RawGrpc.Frame reset = raw.nextOn(stream); // the caller has not finished: told to stop sending
    assertThat(reset.type()).isEqualTo(RawGrpc.RST_STREAM);
    assertThat(reset.errorCode()).isEqualTo(RawGrpc.NO_ERROR);
    assertPortStillServes();
  }

  @Test
  void bytesSentAfterARefusalDoNotUseUpTheConnectionsWindow() throws IOException {
    int stream = raw.newStream();
    raw.headers(stream, request("echo"), false);
    byte[] refused = new byte[60_000]; // the prefix of a message over the limit, then bytes the server drops
    System.arraycopy(prefix(0, LIMIT + 1), 0, refused, 0, 5);
    raw.data(stream, refused, false);
    assertTrailersOnly(raw.answer(stream), 200, RESOURCE_EXHAUSTED,
        "a message of " + (LIMIT + 1) + " bytes is over the server's limit of " + LIMIT + " bytes");
    // the connection's window (65,535 bytes) lets the next 60,000 go only as the server gives those back
    RawGrpc.Answer answer = raw.call(request("echo"), message(0, new byte[60_000 - 5]));
    assertThat(answer.grpcStatus()).isEqualTo(OK);
    assertThat(answer.messages()).singleElement().extracting(m -> m.length).isEqualTo(60_000 - 5);
    assertPortStillServes();
  }

  @Test
  void aRequestThatDoesNotArriveWholeInTheFrameTimeIsRefused() throws IOException {
    try (BoltServer slowToRead = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true)
        .frameTimeout(Duration.ofMillis(300)).build().start();
        RawGrpc client = RawGrpc.connect(slowToRead.port())) {
      int stream = client.newStream();
      client.headers(stream, request("echo"), false);
      client.data(stream, prefix(0, 10), false);
      client.data(stream, bytes("half"), false); // and the rest never comes
      RawGrpc.Answer answer = client.answer(stream);
      assertTrailersOnly(answer, 200, RESOURCE_EXHAUSTED,
          "the request did not arrive whole within the server's frame timeout of 300 ms");
      RawGrpc.Answer whole = client.call(request("echo"), message(0, bytes("whole")));
      assertThat(whole.grpcStatus()).isEqualTo(OK);
    }
  }

  @Test
  void theLargestLengthIsRefusedToo() throws IOException {
    int stream = raw.newStream();
    raw.headers(stream, request("echo"), false);
    raw.data(stream, prefix(0, 0xffff_ffffL), false);
    assertTrailersOnly(raw.answer(stream), 200, RESOURCE_EXHAUSTED,
        "a message of 4294967295 bytes is over the server's limit of " + LIMIT + " bytes");
    assertPortStillServes();
  }

  @Test
  void aMessageSplitAcrossFramesAnywhereIsReadWhole() throws IOException {
    int stream = raw.newStream();
    raw.headers(stream, request("echo"), false);
    for (byte b : message(0, bytes("one byte a frame"))) {
      raw.data(stream, new byte[] {b}, false);
    }
    raw.data(stream, new byte[0], true);
    RawGrpc.Answer answer = raw.answer(stream);
    assertThat(answer.grpcStatus()).isEqualTo(OK);
    assertThat(answer.messages()).singleElement().extracting(EchoService::string).isEqualTo("one byte a frame");
    assertPortStillServes();
  }

  @Test
  void requestTrailersEndTheRequest() throws IOException {
    int stream = raw.newStream();
    raw.headers(stream, request("echo"), false);
    raw.data(stream, message(0, bytes("then trailers")), false);
    raw.headers(stream, new DefaultHttp2Headers().set("x-request-trailer", "1"), true);
    RawGrpc.Answer answer = raw.answer(stream);
    assertThat(answer.grpcStatus()).isEqualTo(OK);
    assertThat(answer.messages()).singleElement().extracting(EchoService::string).isEqualTo("then trailers");
    assertPortStillServes();
  }

  @Test
  void aMessageCutShortIsInternal() throws IOException {
    byte[] cut = new byte[5 + 3];
    System.arraycopy(prefix(0, 10), 0, cut, 0, 5);
    assertTrailersOnly(raw.call(request("echo"), cut), 200, INTERNAL,
        "the request ended inside a message: its prefix says 10 bytes, 3 arrived");
    assertTrailersOnly(raw.call(request("echo"), new byte[] {0, 0, 0}), 200, INTERNAL,
        "the request ended inside a message's prefix, after 3 of its 5 bytes");
    assertPortStillServes();
  }

  @Test
  void theCompressedFlagWithoutAnEncodingIsInternal() throws IOException {
    assertTrailersOnly(raw.call(request("echo"), message(1, gzip(bytes("x")))), 200, INTERNAL,
        "a message is flagged compressed, but the request names no grpc-encoding to read it with");
    assertPortStillServes();
  }

  @Test
  void anUnknownEncodingIsUnimplementedNamingTheOnesAccepted() throws IOException {
    RawGrpc.Answer answer = raw.call(request("echo").set("grpc-encoding", "snappy"), message(1, bytes("x")));
    assertTrailersOnly(answer, 200, UNIMPLEMENTED,
        "grpc-encoding snappy is not supported: this server reads identity and gzip");
    assertThat(answer.headers().get("grpc-accept-encoding")).hasToString("gzip");
    assertPortStillServes();
  }

  @Test
  void noTeTrailersIsInternal() throws IOException {
    Http2Headers withoutTe = request("echo");
    withoutTe.remove("te");
    RawGrpc.Answer answer = raw.call(withoutTe, message(0, bytes("x")));
    assertTrailersOnly(answer, 200, INTERNAL, "the request has no \"te: trailers\" header, which gRPC requires (a"
        + " proxy between may have dropped it, and with it the trailers that carry every status)");
    assertPortStillServes();
  }

  @Test
  void getIs405() throws IOException {
    int stream = raw.newStream();
    raw.headers(stream, request("echo").method("GET"), true);
    assertTrailersOnly(raw.answer(stream), 405, INTERNAL, "HTTP method GET is not supported: gRPC calls are POST");
    assertPortStillServes();
  }

  @Test
  void anUnknownCodecIs415() throws IOException {
    RawGrpc.Answer answer = raw.call(request("echo").set("content-type", "application/grpc+xml"),
        message(0, bytes("<x/>")));
    assertTrailersOnly(answer, 415, INTERNAL, "content type application/grpc+xml is not supported: send"
        + " application/grpc, application/grpc+proto or application/grpc+json");
    assertPortStillServes();
  }

  @Test
  void twoMessagesOnAUnaryMethodAreInternal() throws IOException {
    ByteArrayOutputStream two = new ByteArrayOutputStream();
    two.writeBytes(message(0, bytes("one")));
    two.writeBytes(message(0, bytes("two")));
    assertTrailersOnly(raw.call(request("echo"), two.toByteArray()), 200, INTERNAL,
        "a second request message: the method takes one");
    assertThat(echo.echoed.get()).isZero();
    assertPortStillServes();
  }

  @Test
  void noMessageIsInternal() throws IOException {
    String why = "the request ended without a message: /test.Echo/echo takes one";
    int stream = raw.newStream();
    raw.headers(stream, request("echo"), true); // END_STREAM on the headers
    assertTrailersOnly(raw.answer(stream), 200, INTERNAL, why);
    assertTrailersOnly(raw.call(request("echo"), new byte[0]), 200, INTERNAL, why); // an empty DATA frame ends it
    assertThat(echo.echoed.get()).isZero();
    assertPortStillServes();
  }

  @Test
  void aMalformedTimeoutIsInternal() throws IOException {
    for (String timeout : new String[] {"abc", "123456789S", "100", "m", "-1S", "10s"}) {
      RawGrpc.Answer answer = raw.call(request("echo").set("grpc-timeout", timeout), message(0, bytes("x")));
      assertTrailersOnly(answer, 200, INTERNAL,
          "grpc-timeout must be 1 to 8 digits and a unit (H, M, S, m, u, n), not " + timeout);
    }
    assertThat(echo.echoed.get()).isZero();
    assertPortStillServes();
  }

  @Test
  void theCallersTimeoutIsTheServersDeadline() throws IOException {
    echo.release = new CountDownLatch(1); // slow answers only when released (or after 10 s)
    RawGrpc.Answer answer = raw.call(request("slow").set("grpc-timeout", "100m"), message(0, bytes("x")));
    // the server's words: its deadline was the caller's 100 ms, not the method's own 5 s
    assertTrailersOnly(answer, 200, DEADLINE_EXCEEDED, "/test.Echo/slow did not answer within 100 ms");
    assertThat(echo.slowStarted.get()).isEqualTo(1);
    echo.release.countDown();
    assertPortStillServes();
  }

  @Test
  void aFlagByteOfTwoIsInternal() throws IOException {
    assertTrailersOnly(raw.call(request("echo"), message(2, bytes("x"))), 200, INTERNAL,
        "a message's flag byte is 2: a request's are 0 and 1");
    assertPortStillServes();
  }

  @Test
  void aGzipMessageIsInflatedAndAnswered() throws IOException {
    RawGrpc.Answer answer = raw.call(request("echo").set("grpc-encoding", "gzip"),
        message(1, gzip(bytes("squeezed ".repeat(100)))));
    assertThat(answer.status()).isEqualTo("200");
    assertThat(answer.grpcStatus()).isEqualTo(OK);
    assertThat(answer.messages()).singleElement().extracting(EchoService::string)
        .isEqualTo("squeezed ".repeat(100));
    // and an uncompressed message under the same header (flag 0) is read as it is
    RawGrpc.Answer plain = raw.call(request("echo").set("grpc-encoding", "gzip"), message(0, bytes("plain")));
    assertThat(plain.grpcStatus()).isEqualTo(OK);
    assertThat(plain.messages()).singleElement().extracting(EchoService::string).isEqualTo("plain");
    assertPortStillServes();
  }

  @Test
  void aGzipBombIsResourceExhausted() throws IOException {
    byte[] bomb = gzip(new byte[16 * LIMIT]); // a megabyte of zeros: about a kilobyte compressed
    assertThat(bomb.length).isLessThan(RawGrpc.MAX_FRAME_PAYLOAD);
    RawGrpc.Answer answer = raw.call(request("echo").set("grpc-encoding", "gzip"), message(1, bomb));
    assertTrailersOnly(answer, 200, RESOURCE_EXHAUSTED,
        "a message inflates to more than the server's limit of " + LIMIT + " bytes");
    // just at the limit inflates and is answered
    RawGrpc.Answer atLimit = raw.call(request("amplify").set("grpc-encoding", "gzip"),
        message(1, gzip(ByteBuffer.allocate(LIMIT).putInt(4).array())));
    assertThat(atLimit.grpcStatus()).isEqualTo(OK);
    assertThat(atLimit.messages()).singleElement().extracting(m -> m.length).isEqualTo(4);
    assertThat(echo.echoed.get()).isZero();
    assertPortStillServes();
  }

  @Test
  void refusalsAreLoggedAFewLinesAMinuteNotOnePerStream() throws IOException {
    int refusals = 3 * RateLimitedLog.DEFAULT_LINES;
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8)); // where slf4j-simple writes
    try {
      for (int i = 0; i < refusals; i++) { // each refusal is logged before it is answered
        assertTrailersOnly(raw.call(request("echo"), message(2, bytes("x"))), 200, INTERNAL,
            "a message's flag byte is 2: a request's are 0 and 1");
      }
    } finally {
      System.setErr(err);
      err.print(captured.toString(StandardCharsets.UTF_8));
    }
    long lines = captured.toString(StandardCharsets.UTF_8).lines()
        .filter(line -> line.contains("gRPC INTERNAL for request id")).count();
    assertThat(lines).as("lines logged for %s refused streams of one connection", refusals)
        .isLessThanOrEqualTo(RateLimitedLog.DEFAULT_LINES);
    assertPortStillServes();
  }
}
