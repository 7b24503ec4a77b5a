package io.boltgen.runtime.http;

import static io.boltgen.runtime.EchoService.RAW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.http.TextJson.TEXT_JSON;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.json.JsonFields;
import io.boltgen.json.JsonForms;
import io.boltgen.json.JsonMarshaller;
import io.boltgen.json.JsonReader;
import io.boltgen.json.JsonWriter;
import io.boltgen.json.ProtoJson;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ServiceDefinition;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every way a request can be bad, one test each, sent over a raw socket as an attacker would: each is answered
 * with its HTTP status and a Connect error naming what was wrong, a request HTTP could still frame leaves its
 * connection serving, one that broke the framing (or the limits) closes it, and in every case a Bolt client
 * connected before, and one connecting after, are answered at once on the same port.
 */
class ConnectRefusalTest {

  private static final int MAX_BODY = 4096;
  private static final String ECHO_PATH = "/test.Echo/echo";
  /** The echoes of the two Bolt probes of a refusal: one as each opens, one each after the refusal. */
  private static final int BOLT_PROBE_ECHOES = 4;

  private static final JsonFields NEST = JsonFields.of("test.Nest", "child");

  /** A recursive message, as protoc makes for {@code message Nest { Nest child = 1; }}: answers its depth. */
  static final JsonMarshaller<byte[]> NEST_JSON = new JsonMarshaller<>() {
    @Override
    public void write(byte[] value, JsonWriter out) {
      throw new UnsupportedOperationException("requests only");
    }

    @Override
    public byte[] read(JsonReader in) {
      return bytes(Integer.toString(depth(in)));
    }

    private int depth(JsonReader in) {
      int deepest = 1;
      for (int field = in.beginObject(NEST); field >= 0; field = in.nextField(NEST)) {
        deepest = Math.max(deepest, 1 + depth(in));
      }
      return deepest;
    }
  };

  static final MethodDescriptor<byte[], byte[]> DEPTH = MethodDescriptor.newBuilder(RAW, RAW)
      .serviceName("test.Nest")
      .serviceVersion("1.0")
      .methodName("depth")
      .methodCode(1)
      .type(MethodType.REQUEST_RESPONSE)
      .timeoutMillis(5_000)
      .protoService("test.Nest")
      .extension(JsonForms.class, JsonForms.of(NEST_JSON, TEXT_JSON))
      .build();

  /** A method without JSON forms, as a service compiled without bolt-json has. */
  static final MethodDescriptor<byte[], byte[]> PLAIN =
      EchoService.method("test.Plain", "echo", 1, MethodType.REQUEST_RESPONSE, 5_000);

  private final EchoService echo = new EchoService();
  private BoltServer server;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(echo.definition(TextJson.FORMS))
        .service(ServiceDefinition.builder("test.Nest", "1.0").method(DEPTH, (request, call) -> call.respond(request))
            .build())
        .service(ServiceDefinition.builder("test.Plain", "1.0").method(PLAIN, (request, call) -> call.respond(request))
            .build())
        .maxFrameLength(MAX_BODY)
        .http(true)
        .build().start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /**
   * Sends {@code request} with a Bolt client connected before it, and checks the answer's status and Connect
   * code, that the message contains each of {@code inMessage}, that the connection then still serves (a good
   * echo) or is closed ({@code connectionSurvives}), and that Bolt clients old and new are answered at once.
   */
  private RawHttp.Response refused(byte[] request, int status, String code, boolean connectionSurvives,
      String... inMessage) throws Exception {
    RawHttp.Response answer;
    try (BoltProbe before = BoltProbe.open(server); RawHttp http = RawHttp.connect(server.port())) {
      answer = http.send(request).read();
      assertThat(answer.status()).as("status of %s", answer.text()).isEqualTo(status);
      assertThat(answer.header("content-type")).isEqualTo("application/json");
      assertThat(answer.error()).containsEntry("code", code);
      assertThat(answer.error().get("message")).as("message").isNotBlank().contains(inMessage);
      if (connectionSurvives) {
        RawHttp.Response next = http.send(RawHttp.post(ECHO_PATH, "application/json", "{\"text\":\"still here\"}")).read();
        assertThat(next.status()).isEqualTo(200);
        assertThat(next.text()).isEqualTo("{\"text\":\"still here\"}");
      } else {
        assertThat(answer.header("connection")).isEqualToIgnoringCase("close");
        assertThat(http.closedWithin(Duration.ofSeconds(5))).as("the server closed the connection").isTrue();
      }
      before.assertServes("before");
    }
    try (BoltProbe after = BoltProbe.open(server)) {
      after.assertServes("after");
    }
    return answer;
  }

  private RawHttp.Response refusedJson(String body, int status, String code, String... inMessage) throws Exception {
    return refused(RawHttp.postBytes(ECHO_PATH, "application/json", bytes(body)), status, code, true, inMessage);
  }

  // 1. bodies that are not the method's JSON

  @Test
  void malformedJsonIsInvalidArgument() throws Exception {
    refusedJson("{\"text\": \"unterminated\"", 400, "invalid_argument", "malformed JSON", ECHO_PATH);
  }

  @Test
  void textAfterTheJsonValueIsInvalidArgument() throws Exception {
    refusedJson("{\"text\":\"a\"} {}", 400, "invalid_argument", "malformed JSON", "after the JSON value");
  }

  @Test
  void aFieldOfTheWrongJsonTypeIsInvalidArgument() throws Exception {
    refusedJson("{\"text\": 5}", 400, "invalid_argument", "\"text\"", "expected a string");
  }

  @Test
  void anArrayForAMessageIsInvalidArgument() throws Exception {
    refusedJson("[\"text\"]", 400, "invalid_argument", "expected an object");
  }

  @Test
  void anUnknownFieldIsInvalidArgumentAndNamed() throws Exception {
    refusedJson("{\"text\":\"a\",\"colour\":\"red\"}", 400, "invalid_argument", "unknown field", "\"colour\"");
  }

  @Test
  void anEmptyJsonBodyIsInvalidArgument() throws Exception {
    refusedJson("", 400, "invalid_argument", "no JSON value");
  }

  @Test
  void bytesThatAreNotUtf8InAJsonBodyAreInvalidArgument() throws Exception {
    byte[] start = bytes("{\"text\":\"");
    byte[] body = new byte[start.length + 4];
    System.arraycopy(start, 0, body, 0, start.length);
    body[start.length] = (byte) 0xff;
    body[start.length + 1] = (byte) 0xfe;
    body[start.length + 2] = '"';
    body[start.length + 3] = '}';
    RawHttp.Response answer = refused(RawHttp.postBytes(ECHO_PATH, "application/json", body), 400,
        "invalid_argument", true, "malformed JSON");
    assertThat(answer.error().get("message")).containsIgnoringCase("UTF-8");
  }

  @Test
  void nestingDeeperThanProtoJsonMaxDepthIsInvalidArgument() throws Exception {
    String deepest = "{\"child\":".repeat(ProtoJson.MAX_DEPTH - 1) + "{}" + "}".repeat(ProtoJson.MAX_DEPTH - 1);
    try (RawHttp http = RawHttp.connect(server.port())) {
      RawHttp.Response allowed = http.send(RawHttp.post("/test.Nest/depth", "application/json", deepest)).read();
      assertThat(allowed.status()).as("nesting of exactly MAX_DEPTH: %s", allowed.text()).isEqualTo(200);
      assertThat(allowed.text()).isEqualTo("{\"text\":\"" + ProtoJson.MAX_DEPTH + "\"}");
    }
    String tooDeep = "{\"child\":".repeat(ProtoJson.MAX_DEPTH) + "{}" + "}".repeat(ProtoJson.MAX_DEPTH);
    refused(RawHttp.postBytes("/test.Nest/depth", "application/json", bytes(tooDeep)), 400, "invalid_argument", true,
        "malformed JSON", "nesting depth", "(" + ProtoJson.MAX_DEPTH + ")");
  }

  // 2. headers that say the body is something this server does not read

  @Test
  void noContentTypeIs415WithAcceptPost() throws Exception {
    RawHttp.Response answer = refused(RawHttp.postBytes(ECHO_PATH, null, bytes("{}")), 415, "unimplemented", true,
        "no Content-Type", "application/json", "application/proto");
    assertThat(answer.header("accept-post")).contains("application/json").contains("application/proto");
  }

  @Test
  void textPlainIs415WithAcceptPost() throws Exception {
    RawHttp.Response answer = refused(RawHttp.postBytes(ECHO_PATH, "text/plain", bytes("hello")), 415,
        "unimplemented", true, "Content-Type text/plain is not supported");
    assertThat(answer.header("accept-post")).contains("application/json").contains("application/proto");
  }

  @Test
  void jsonInAnotherCharsetIs415() throws Exception {
    RawHttp.Response answer = refused(RawHttp.postBytes(ECHO_PATH, "application/json; charset=latin1",
        "{\"text\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1)), 415, "unimplemented", true,
        "charset=latin1", "not supported");
    assertThat(answer.header("accept-post")).contains("application/json");
  }

  @Test
  void jsonForAMethodWithoutJsonFormsIs415NamingTheModuleAndProtobufIsServed() throws Exception {
    refused(RawHttp.postBytes("/test.Plain/echo", "application/json", bytes("{\"text\":\"hi\"}")), 415,
        "unimplemented", true, "/test.Plain/echo has no JSON form", "io.boltgen:bolt-json", "application/proto");
    try (RawHttp http = RawHttp.connect(server.port())) {
      RawHttp.Response answer = http.send(RawHttp.postBytes("/test.Plain/echo", "application/proto", bytes("hi")))
          .read();
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.text()).isEqualTo("hi");
    }
  }

  @Test
  void protoWithParametersIs415() throws Exception {
    refused(RawHttp.postBytes(ECHO_PATH, "application/proto; foo=bar", bytes("raw")), 415, "unimplemented", true,
        "application/proto; foo=bar");
  }

  @Test
  void gzipContentEncodingIs501() throws Exception {
    RawHttp.Response answer = refused(RawHttp.postBytes(ECHO_PATH, "application/json", bytes("{}"),
        "Content-Encoding: gzip"), 501, "unimplemented", true, "Content-Encoding gzip is not supported");
    assertThat(answer.header("accept-encoding")).isEqualTo("identity");
  }

  @Test
  void connectProtocolVersion2Is400() throws Exception {
    refused(RawHttp.postBytes(ECHO_PATH, "application/json", bytes("{}"), "Connect-Protocol-Version: 2"), 400,
        "invalid_argument", true, "Connect-Protocol-Version 2", "version 1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "0", "12345678901", "-5", "1.5"})
  void aBadConnectTimeoutIs400(String timeout) throws Exception {
    refused(RawHttp.postBytes(ECHO_PATH, "application/json", bytes("{}"), "Connect-Timeout-Ms: " + timeout), 400,
        "invalid_argument", true, "Connect-Timeout-Ms", "not " + timeout);
  }

  @Test
  void aConnectTimeoutOfTenDigitsIsTaken() throws Exception {
    try (RawHttp http = RawHttp.connect(server.port())) {
      RawHttp.Response answer = http.send(RawHttp.post(ECHO_PATH, "application/json", "{\"text\":\"t\"}",
          "Connect-Timeout-Ms: 9999999999", "Connect-Protocol-Version: 1")).read();
      assertThat(answer.status()).as(answer.text()).isEqualTo(200);
      assertThat(answer.text()).isEqualTo("{\"text\":\"t\"}");
    }
  }

  // 3. routes and methods

  @Test
  void anUnknownRouteIs404NamingTheRoutes() throws Exception {
    refused(RawHttp.postBytes("/test.Echo/nope", "application/json", bytes("{}")), 404, "not_found", true,
        "/test.Echo/nope", "/test.Echo/echo", "/test.Echo/fail", "/test.Echo/slow", "/test.Echo/sink",
        "/test.Echo/amplify", "/test.Nest/depth");
  }

  @Test
  void getOnARealRouteIs405AllowingPost() throws Exception {
    RawHttp.Response answer = refused(bytes("GET /test.Echo/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), 405,
        "unimplemented", true, "/test.Echo/echo takes POST, not GET");
    assertThat(answer.header("allow")).isEqualTo("POST");
  }

  // 4. to 6. requests over the limits, or framed two ways: answered, then the connection closes

  @Test
  void aBodyOverTheLimitIs413AndTheConnectionClosesWithoutReadingTheRest() throws Exception {
    try (BoltProbe before = BoltProbe.open(server); RawHttp http = RawHttp.connect(server.port())) {
      http.send("POST /test.Echo/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/proto\r\n"
          + "Content-Length: 10000000\r\n\r\n" + "x".repeat(100));
      RawHttp.Response answer = http.read();
      assertThat(answer.status()).isEqualTo(413);
      assertThat(answer.error()).containsEntry("code", "resource_exhausted");
      assertThat(answer.error().get("message")).contains("request body", "limit of " + MAX_BODY + " bytes");
      assertThat(answer.header("connection")).isEqualToIgnoringCase("close");
      // nearly all of the promised body is still to come: the server does not wait for it
      assertThat(http.closedWithin(Duration.ofSeconds(5))).as("closed after the 413").isTrue();
      before.assertServes("before");
    }
    try (BoltProbe after = BoltProbe.open(server)) {
      after.assertServes("after");
    }
    assertThat(echo.echoed).as("only the Bolt probes' calls were served").hasValue(BOLT_PROBE_ECHOES);
  }

  @Test
  void a413BehindAPipelinedSlowCallComesAfterItsAnswer() throws Exception {
    echo.release = new java.util.concurrent.CountDownLatch(1);
    try (BoltProbe before = BoltProbe.open(server); RawHttp http = RawHttp.connect(server.port())) {
      http.send(RawHttp.post("/test.Echo/slow", "application/json", "{\"text\":\"first\"}")
          + "POST /test.Echo/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/proto\r\n"
          + "Content-Length: 10000000\r\n\r\n" + "x".repeat(100));
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> echo.slowStarted.get() == 1);
      echo.release.countDown();
      RawHttp.Response first = http.read();
      assertThat(first.status()).as("the first answer is the first request's: %s", first.text()).isEqualTo(200);
      assertThat(first.text()).isEqualTo("{\"text\":\"first\"}");
      RawHttp.Response second = http.read();
      assertThat(second.status()).isEqualTo(413);
      assertThat(second.error()).containsEntry("code", "resource_exhausted");
      assertThat(http.closedWithin(Duration.ofSeconds(5))).as("closed after the 413").isTrue();
      before.assertServes("before");
    } finally {
      echo.release.countDown();
    }
  }

  @Test
  void anOversizedBodyIsRefusedBeforeA100Continue() throws Exception {
    try (RawHttp http = RawHttp.connect(server.port())) {
      http.send(String.join("\r\n", "POST /test.Echo/echo HTTP/1.1", "Host: 127.0.0.1",
          "Content-Type: application/proto", "Expect: 100-continue", "Content-Length: 10000000", "", ""));
      RawHttp.Response answer = http.read();
      assertThat(answer.status()).as("no 100 Continue for a body that will be refused").isEqualTo(413);
      assertThat(answer.error()).containsEntry("code", "resource_exhausted");
      assertThat(http.closedWithin(Duration.ofSeconds(5))).as("closed after the 413").isTrue();
    }
  }

  @Test
  void aBodyWithinTheLimitGets100ContinueThenItsAnswer() throws Exception {
    try (RawHttp http = RawHttp.connect(server.port())) {
      http.send(String.join("\r\n", "POST /test.Echo/echo HTTP/1.1", "Host: 127.0.0.1",
          "Content-Type: application/proto", "Expect: 100-continue", "Content-Length: 5", "", ""));
      assertThat(http.read().status()).isEqualTo(100);
      RawHttp.Response answer = http.send("hello").read();
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.text()).isEqualTo("hello");
    }
  }

  @Test
  void aChunkedBodyThatGrowsOverTheLimitIs413AndClosed() throws Exception {
    String chunk = Integer.toHexString(1024) + "\r\n" + "x".repeat(1024) + "\r\n";
    byte[] request = bytes("POST /test.Echo/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/proto\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n" + chunk.repeat(5));
    refused(request, 413, "resource_exhausted", false, "limit of " + MAX_BODY + " bytes");
    assertThat(echo.echoed).as("only the Bolt probes' calls were served").hasValue(BOLT_PROBE_ECHOES);
  }

  @Test
  void aBodyOfExactlyTheLimitIsServed() throws Exception {
    try (RawHttp http = RawHttp.connect(server.port())) {
      byte[] body = new byte[MAX_BODY];
      java.util.Arrays.fill(body, (byte) 'b');
      RawHttp.Response answer = http.send(RawHttp.postBytes(ECHO_PATH, "application/proto", body)).read();
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo(body);
    }
  }

  @Test
  void aHeaderBlockOver16KibIs431AndClosed() throws Exception {
    byte[] request = RawHttp.postBytes(ECHO_PATH, "application/json", bytes("{}"), "X-Big: " + "h".repeat(17 * 1024));
    refused(request, 431, "resource_exhausted", false, "header block", "16384 bytes");
    assertThat(echo.echoed).as("only the Bolt probes' calls were served").hasValue(BOLT_PROBE_ECHOES);
  }

  @Test
  void manyHeadersTogetherOver16KibAre431AndClosed() throws Exception {
    String[] headers = new String[40];
    for (int i = 0; i < headers.length; i++) {
      headers[i] = "X-Part-" + i + ": " + "v".repeat(500);
    }
    refused(RawHttp.postBytes(ECHO_PATH, "application/json", bytes("{}"), headers), 431, "resource_exhausted", false,
        "header block");
  }

  @Test
  void aHeaderBlockJustUnder16KibIsServed() throws Exception {
    // Host, Content-Type and Content-Length take under 100 of the 16,384 bytes
    byte[] request = RawHttp.postBytes(ECHO_PATH, "application/json", bytes("{\"text\":\"h\"}"),
        "X-Big: " + "h".repeat(16 * 1024 - 100));
    try (RawHttp http = RawHttp.connect(server.port())) {
      RawHttp.Response answer = http.send(request).read();
      assertThat(answer.status()).as(answer.text()).isEqualTo(200);
      assertThat(answer.text()).isEqualTo("{\"text\":\"h\"}");
    }
  }

  @Test
  void aRequestLineOfExactly4096BytesIsServed() throws Exception {
    String start = "POST /test.Echo/echo?pad=";
    String end = " HTTP/1.1";
    String line = start + "p".repeat(4096 - start.length() - end.length()) + end;
    assertThat(line).hasSize(4096);
    byte[] request = RawHttp.postBytes(line.substring("POST ".length(), line.length() - end.length()),
        "application/json", bytes("{\"text\":\"l\"}"));
    try (RawHttp http = RawHttp.connect(server.port())) {
      RawHttp.Response answer = http.send(request).read();
      assertThat(answer.status()).as(answer.text()).isEqualTo(200);
      assertThat(answer.text()).isEqualTo("{\"text\":\"l\"}");
    }
  }

  @Test
  void aRequestLineOver4096BytesIs414AndClosed() throws Exception {
    byte[] request = RawHttp.postBytes("/test.Echo/echo?pad=" + "p".repeat(4200), "application/json", bytes("{}"));
    refused(request, 414, "resource_exhausted", false, "request line", "4096 bytes");
    assertThat(echo.echoed).as("only the Bolt probes' calls were served").hasValue(BOLT_PROBE_ECHOES);
  }

  @Test
  void contentLengthWithTransferEncodingChunkedIs400AndClosed() throws Exception {
    String smuggling = String.join("\r\n", "POST /test.Echo/echo HTTP/1.1", "Host: 127.0.0.1",
        "Content-Type: application/json", "Content-Length: 4", "Transfer-Encoding: chunked", "", "2", "{}", "0", "", "");
    byte[] request = bytes(smuggling + RawHttp.post(ECHO_PATH, "application/json", "{}"));
    refused(request, 400, "invalid_argument", false, "malformed HTTP request", "Content-Length",
        "Transfer-Encoding");
    assertThat(echo.echoed).as("neither the smuggled request nor the one after it was served")
        .hasValue(BOLT_PROBE_ECHOES);
  }

  @Test
  void aRequestThatIsNotHttpIs400AndClosed() throws Exception {
    refused(bytes("HELLO\r\n\r\n"), 400, "invalid_argument", false, "malformed HTTP request");
  }
}
