package io.boltgen.runtime.http;

import static io.boltgen.runtime.EchoService.RAW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.http.TextJson.TEXT_JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.json.JsonForms;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.ServiceDefinition;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How HTTP/1.1 requests are served over time on the Bolt port: pipelined answers in request order (also past
 * the pipelining limit), keep-alive, Connect-Timeout-Ms, the frame timeout against a peer that trickles a
 * request, interceptors and {@link ServerContext} over HTTP, a oneway method, and a connection closing with
 * answers still to come (which must not leak them).
 */
class ConnectExchangeTest {

  private static final Duration FRAME_TIMEOUT = Duration.ofMillis(300);
  private static final Duration BOUND = Duration.ofSeconds(10);

  /** What {@code test.Ctx/who} answers: its {@link ServerContext#current()} as text. */
  static final MethodDescriptor<byte[], byte[]> WHO = MethodDescriptor.newBuilder(RAW, RAW)
      .serviceName("test.Ctx")
      .serviceVersion("1.0")
      .methodName("who")
      .methodCode(1)
      .type(MethodType.REQUEST_RESPONSE)
      .timeoutMillis(5_000)
      .protoService("test.Ctx")
      .extension(JsonForms.class, JsonForms.of(TEXT_JSON, TEXT_JSON))
      .build();

  /** One call an interceptor saw, and how it was answered. */
  record Seen(String method, Map<String, String> headers, ResponseStatus status, Throwable error) {}

  private final EchoService echo = new EchoService();
  private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
  private BoltServer server;
  private HttpClient http;

  @BeforeEach
  void start() {
    ServerInterceptor recorder = call -> {
      String method = call.method().methodName();
      Map<String, String> headers = Map.copyOf(call.headers());
      if (headers.containsKey("x-deny")) {
        throw new BoltException(ResponseStatus.SERVER_EXCEPTION, "denied by the test interceptor");
      }
      return (status, error, elapsedNanos) -> seen.add(new Seen(method, headers, status, error));
    };
    server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(echo.definition(TextJson.FORMS))
        .service(ServiceDefinition.builder("test.Ctx", "1.0").method(WHO, (request, call) -> {
          ServerContext context = ServerContext.current();
          call.respond(bytes(context.method().methodName() + "|" + context.headers().get("traceparent") + "|"
              + (context.remainingMillis() > 0) + "|" + context.clientTimeoutMillis() + "|"
              + (context.remoteAddress() != null)));
        }).build())
        .serverInterceptor(recorder)
        .frameTimeout(FRAME_TIMEOUT)
        .http(true)
        .build().start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  }

  @AfterEach
  void stop() {
    echo.release.countDown();
    server.close();
  }

  private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(BOUND)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** The next call of {@code method} the interceptor saw answered (skipping others, such as Bolt probes'). */
  private Seen next(String method) throws InterruptedException {
    long end = System.nanoTime() + BOUND.toNanos();
    for (long left = BOUND.toNanos(); left > 0; left = end - System.nanoTime()) {
      Seen s = seen.poll(left, TimeUnit.NANOSECONDS);
      if (s != null && s.method().equals(method)) {
        return s;
      }
    }
    throw new AssertionError("no call of " + method + " was answered within " + BOUND);
  }

  private static String json(String text) {
    return "{\"text\":\"" + text + "\"}";
  }

  // 8. pipelining and keep-alive

  @Test
  void pipelinedAnswersArriveInRequestOrderBehindASlowOne() throws Exception {
    echo.release = new CountDownLatch(1);
    try (BoltProbe bolt = BoltProbe.open(server); RawHttp raw = RawHttp.connect(server.port())) {
      int boltEchoes = echo.echoed.get();
      raw.send(RawHttp.post("/test.Echo/slow", "application/json", json("first"))
          + RawHttp.post("/test.Echo/echo", "application/json", json("second"))
          + RawHttp.post("/test.Echo/echo", "application/json", json("third")));
      // the two echoes behind the slow call were served (their answers wait): then the slow one is let go
      await().atMost(BOUND).until(() -> echo.slowStarted.get() == 1 && echo.echoed.get() == boltEchoes + 2);
      bolt.assertServes("while an HTTP call waits");
      echo.release.countDown();
      assertThat(raw.read().text()).isEqualTo(json("first"));
      assertThat(raw.read().text()).isEqualTo(json("second"));
      assertThat(raw.read().text()).isEqualTo(json("third"));
    }
  }

  @Test
  void moreRequestsPipelinedThanTheLimitAreAllAnsweredInOrder() throws Exception {
    echo.release = new CountDownLatch(1);
    int count = 40;
    StringBuilder requests = new StringBuilder(RawHttp.post("/test.Echo/slow", "application/json", json("r0")));
    for (int i = 1; i < count; i++) {
      requests.append(RawHttp.post("/test.Echo/echo", "application/json", json("r" + i)));
    }
    try (BoltProbe bolt = BoltProbe.open(server); RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(requests.toString());
      await().atMost(BOUND).until(() -> echo.slowStarted.get() == 1);
      bolt.assertServes("while reading is paused");
      echo.release.countDown();
      for (int i = 0; i < count; i++) {
        RawHttp.Response answer = raw.read();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).isEqualTo(json("r" + i));
      }
    }
  }

  /**
   * The pipelining bound at its edge: of 40 requests sent in one write (one socket read holds them all), 16
   * run at once and the 17th waits until answers leave; then all are answered in order.
   */
  @Test
  void exactlySixteenPipelinedRequestsRunAtOnce() throws Exception {
    echo.release = new CountDownLatch(1);
    int count = 40;
    int bound = 16; // HttpExchanges.MAX_PIPELINED, as docs/http.md states it
    StringBuilder requests = new StringBuilder();
    for (int i = 0; i < count; i++) {
      requests.append(RawHttp.post("/test.Echo/slow", "application/json", json("s" + i)));
    }
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(requests.toString());
      await().atMost(BOUND).until(() -> echo.slowStarted.get() >= bound);
      // the server reads nothing more while 16 are open: the requests of that read wait, decoded, undispatched
      assertThat(echo.slowStarted.get()).as("requests running while 16 are open").isEqualTo(bound);
      echo.release.countDown();
      for (int i = 0; i < count; i++) {
        RawHttp.Response answer = raw.read();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).isEqualTo(json("s" + i));
      }
    }
    assertThat(echo.slowStarted).hasValue(count);
  }

  @Test
  void keepAliveServesSequentialRequestsOnOneConnection() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      for (int i = 0; i < 5; i++) {
        RawHttp.Response answer = raw.send(RawHttp.post("/test.Echo/echo", "application/json", json("k" + i))).read();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).isEqualTo(json("k" + i));
        assertThat(answer.header("connection")).as("no close").isNull();
        assertThat(server.connections()).hasSize(1);
      }
    }
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> answer = post("/test.Echo/echo", json("jdk" + i));
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo(json("jdk" + i));
    }
    await().atMost(BOUND).untilAsserted(() -> assertThat(server.connections())
        .as("the raw socket's connection closed; the JDK client's one connection stays for all five").hasSize(1));
  }

  @Test
  void connectionCloseIsAnsweredThenClosed() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      RawHttp.Response answer = raw.send(RawHttp.post("/test.Echo/echo", "application/json", json("bye"),
          "Connection: close")).read();
      assertThat(answer.text()).isEqualTo(json("bye"));
      assertThat(answer.header("connection")).isEqualToIgnoringCase("close");
      assertThat(raw.closedWithin(BOUND)).isTrue();
    }
  }

  /**
   * A connection that closes after one pipelined answer ({@code Connection: close}) while the client does not
   * read (so the close waits for the write): an answer that a later request gets meanwhile is released, not
   * leaked (the leak detector fails the class otherwise).
   */
  @Test
  void anAnswerArrivingAfterTheConnectionWasToldToCloseIsReleased() throws Exception {
    echo.release = new CountDownLatch(1);
    int big = 64 * 1024 * 1024; // far more than the socket buffers: the write of the first answer stays pending
    try (RawHttp raw = RawHttp.connect(server.port(), 64 * 1024)) {
      raw.send(new String(RawHttp.postBytes("/test.Echo/amplify", "application/proto",
          ByteBuffer.allocate(4).putInt(big).array(), "Connection: close"), StandardCharsets.ISO_8859_1)
          + RawHttp.post("/test.Echo/slow", "application/json", json("late")));
      await().atMost(BOUND).until(() -> echo.slowStarted.get() == 1);
      RawHttp.Response head = raw.readHead();
      assertThat(head.status()).isEqualTo(200);
      assertThat(head.header("content-length")).isEqualTo(Integer.toString(big));
      assertThat(head.header("connection")).isEqualToIgnoringCase("close");
      echo.release.countDown();
      await().atMost(BOUND).until(() -> seen.stream().anyMatch(s -> s.method().equals("slow")));
    }
    await().atMost(BOUND).untilAsserted(() -> assertThat(server.connections()).isEmpty());
  }

  // 9. Connect-Timeout-Ms

  @Test
  void connectTimeoutAnswersDeadlineExceededAndTheConnectionGoesOn() throws Exception {
    echo.release = new CountDownLatch(1);
    try (BoltProbe bolt = BoltProbe.open(server); RawHttp raw = RawHttp.connect(server.port())) {
      long start = System.nanoTime();
      RawHttp.Response answer = raw.send(RawHttp.post("/test.Echo/slow", "application/json", json("late"),
          "Connect-Timeout-Ms: 200", "Connect-Protocol-Version: 1")).read();
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(answer.status()).isEqualTo(504);
      assertThat(answer.error()).containsEntry("code", "deadline_exceeded");
      assertThat(answer.error().get("message")).contains("/test.Echo/slow", "200 ms");
      assertThat(tookMillis).as("answered by the deadline, not by the handler").isBetween(150L, 5_000L);
      echo.release.countDown();
      assertThat(next("slow").status()).isEqualTo(ResponseStatus.TIMEOUT);
      // the handler's late answer goes nowhere: the next answer on the connection is the next request's
      RawHttp.Response next = raw.send(RawHttp.post("/test.Echo/echo", "application/json", json("next"))).read();
      assertThat(next.text()).isEqualTo(json("next"));
      bolt.assertServes("after a deadline");
    }
  }

  // 7. the frame timeout against trickling peers

  @Test
  void aTrickledRequestLineIsClosedByTheFrameTimeout() throws Exception {
    try (BoltProbe bolt = BoltProbe.open(server); RawHttp raw = RawHttp.connect(server.port())) {
      long start = System.nanoTime();
      raw.send("POST /test.Ec");
      assertThat(raw.closedWithin(BOUND)).as("closed by the frame timeout").isTrue();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(FRAME_TIMEOUT.toMillis() - 50);
      bolt.assertServes("after a trickler");
    }
    try (BoltProbe after = BoltProbe.open(server)) {
      after.assertServes("after");
    }
  }

  @Test
  void trickledHeadersAreClosedByTheFrameTimeout() throws Exception {
    try (BoltProbe bolt = BoltProbe.open(server); RawHttp raw = RawHttp.connect(server.port())) {
      raw.send("POST /test.Echo/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty");
      assertThat(raw.closedWithin(BOUND)).as("closed by the frame timeout").isTrue();
      bolt.assertServes("after a trickler");
    }
  }

  @Test
  void aBodyThatNeverArrivesIsClosedByTheFrameTimeout() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send("POST /test.Echo/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: 20\r\n\r\n{\"te");
      assertThat(raw.closedWithin(BOUND)).as("closed by the frame timeout").isTrue();
    }
    assertThat(echo.echoed).hasValue(0);
  }

  @Test
  void aPartialHttp2PrefaceIsClosedByTheFrameTimeout() throws Exception {
    try (BoltProbe bolt = BoltProbe.open(server); RawHttp raw = RawHttp.connect(server.port())) {
      long start = System.nanoTime();
      raw.send("PRI * HTTP/2.0");
      assertThat(raw.closedWithin(BOUND)).as("closed by the frame timeout").isTrue();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(FRAME_TIMEOUT.toMillis() - 50);
      bolt.assertServes("after a trickler");
    }
  }

  @Test
  void aKeptAliveConnectionBetweenRequestsIsNotClosedByTheFrameTimeout() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      assertThat(raw.send(RawHttp.post("/test.Echo/echo", "application/json", json("one"))).read().status())
          .isEqualTo(200);
      assertThat(raw.closedWithin(FRAME_TIMEOUT.multipliedBy(3))).as("still open after three frame timeouts")
          .isFalse();
      assertThat(raw.send(RawHttp.post("/test.Echo/echo", "application/json", json("two"))).read().text())
          .isEqualTo(json("two"));
    }
  }

  // 11. interceptors and the server context

  @Test
  void anInterceptorSeesTheHttpHeadersAndTheOutcome() throws Exception {
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    HttpResponse<String> ok = post("/test.Echo/echo", json("hi"), "traceparent", traceparent, "X-Tenant", "Acme");
    assertThat(ok.statusCode()).isEqualTo(200);
    Seen echoed = next("echo");
    assertThat(echoed.method()).isEqualTo("echo");
    assertThat(echoed.headers()).containsEntry("traceparent", traceparent).containsEntry("x-tenant", "Acme")
        .containsEntry("content-type", "application/json");
    assertThat(echoed.headers().keySet()).allMatch(name -> name.equals(name.toLowerCase(Locale.ROOT)));
    assertThat(echoed.status()).isEqualTo(ResponseStatus.SUCCESS);
    assertThat(echoed.error()).isNull();

    HttpResponse<String> failed = post("/test.Echo/fail", json("x"), "traceparent", traceparent);
    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(RawHttp.errorFields(failed.body())).containsEntry("code", "internal").containsEntry("message", "boom: x");
    Seen failure = next("fail");
    assertThat(failure.method()).isEqualTo("fail");
    assertThat(failure.headers()).containsEntry("traceparent", traceparent);
    assertThat(failure.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
    assertThat(failure.error()).isInstanceOf(IllegalStateException.class).hasMessage("boom: x");
  }

  @Test
  void anInterceptorsRefusalIsTheAnswer() throws Exception {
    HttpResponse<String> denied = post("/test.Echo/echo", json("hi"), "X-Deny", "yes");
    assertThat(denied.statusCode()).isEqualTo(500);
    assertThat(RawHttp.errorFields(denied.body())).containsEntry("code", "internal")
        .containsEntry("message", "denied by the test interceptor");
    assertThat(echo.echoed).as("the handler did not run").hasValue(0);
  }

  @Test
  void serverContextCurrentWorksInAHandlerServedOverHttp() throws Exception {
    HttpResponse<String> who = post("/test.Ctx/who", "{}", "traceparent", "00-abc-def-01", "Connect-Timeout-Ms",
        "4000");
    assertThat(who.statusCode()).isEqualTo(200);
    assertThat(who.body()).isEqualTo(json("who|00-abc-def-01|true|4000|true"));
  }

  // 12. oneway

  @Test
  void aOnewayMethodAnswers200OnceItsHandlerRan() throws Exception {
    HttpResponse<String> json = post("/test.Echo/sink", json("dropped"));
    assertThat(json.statusCode()).isEqualTo(200);
    assertThat(json.headers().firstValue("content-type")).hasValue("application/json");
    assertThat(json.body()).isEqualTo("{}");
    assertThat(echo.sunk.poll()).as("the handler ran before the answer").isEqualTo("dropped");

    try (RawHttp raw = RawHttp.connect(server.port())) {
      RawHttp.Response proto = raw.send(RawHttp.postBytes("/test.Echo/sink", "application/proto", bytes("binary")))
          .read();
      assertThat(proto.status()).as(proto.text()).isEqualTo(200);
      assertThat(proto.header("content-type")).isEqualTo("application/proto");
      assertThat(proto.body()).as("the empty message").isEmpty();
      assertThat(echo.sunk.poll()).isEqualTo("binary");
    }
    assertThat(next("sink").status()).isEqualTo(ResponseStatus.SUCCESS);
    assertThat(next("sink").status()).isEqualTo(ResponseStatus.SUCCESS);
  }
}
