package io.boltgen.runtime.grpc;

import static io.boltgen.runtime.grpc.RawGrpc.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.Numbers;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * gRPC-Web on the Bolt port, at the byte level, over HTTP/1.1 (chunked) and HTTP/2, binary and text: a unary call
 * and a server stream, each message length-prefixed, the trailers in the body (flag 0x80); a failure, a declared
 * exception's details, the caller's deadline; an unknown method, a bad body; and a reader that stops holds the
 * publisher back.
 */
class GrpcWebTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final String WEB = "application/grpc-web+proto";
  private static final String TEXT = "application/grpc-web-text";

  private final Numbers numbers = new Numbers();
  private final EchoService echo = new EchoService();
  private BoltServer server;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(numbers.definition()).service(echo.definition())
        .http(true).build().start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.close();
    numbers.close();
  }

  /** One answer over HTTP/1.1: its status, headers and de-chunked body. */
  private static final class Answer {
    private final int status;
    private final Map<String, String> headers;
    private final byte[] body;

    Answer(int status, Map<String, String> headers, byte[] body) {
      this.status = status;
      this.headers = headers;
      this.body = body;
    }

    int status() {
      return status;
    }

    Map<String, String> headers() {
      return headers;
    }

    byte[] body() {
      return body;
    }
  }

  /** A gRPC-Web POST over a new HTTP/1.1 connection, and its chunked answer. */
  private Answer post(String path, String contentType, byte[] body, String... headers) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", server.port()), (int) BOUND.toMillis());
      socket.setSoTimeout((int) BOUND.toMillis());
      StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Grpc-Web: 1\r\n"
          + "Content-Type: " + contentType + "\r\nContent-Length: " + body.length + "\r\n");
      for (String header : headers) {
        head.append(header).append("\r\n");
      }
      OutputStream out = socket.getOutputStream();
      out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      InputStream in = socket.getInputStream();
      String status = line(in);
      Map<String, String> fields = new LinkedHashMap<>();
      for (String l = line(in); !l.isEmpty(); l = line(in)) {
        fields.put(l.substring(0, l.indexOf(':')).trim().toLowerCase(Locale.ROOT), l.substring(l.indexOf(':') + 1).trim());
      }
      assertThat(fields).containsEntry("transfer-encoding", "chunked");
      ByteArrayOutputStream content = new ByteArrayOutputStream();
      for (int size = Integer.parseInt(line(in), 16); size > 0; size = Integer.parseInt(line(in), 16)) {
        content.write(in.readNBytes(size));
        assertThat(line(in)).isEmpty();
      }
      assertThat(line(in)).isEmpty();
      return new Answer(Integer.parseInt(status.substring(9, 12)), fields, content.toByteArray());
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      assertThat(b).as("a byte of a line").isNotNegative();
      line.write(b);
    }
    String text = line.toString(StandardCharsets.ISO_8859_1);
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  /** The frames of a gRPC-Web body: messages (flag 0), then the trailers (flag 0x80) as header lines. */
  private record Body(List<byte[]> messages, Map<String, String> trailers) {}

  private static Body body(byte[] bytes) {
    List<byte[]> messages = new ArrayList<>();
    Map<String, String> trailers = new LinkedHashMap<>();
    ByteBuffer in = ByteBuffer.wrap(bytes);
    while (in.hasRemaining()) {
      int flag = in.get() & 0xff;
      byte[] frame = new byte[in.getInt()];
      in.get(frame);
      if (flag == 0) {
        assertThat(trailers).as("a message after the trailers").isEmpty();
        messages.add(frame);
      } else {
        assertThat(flag).isEqualTo(0x80);
        for (String l : new String(frame, StandardCharsets.US_ASCII).split("\r\n")) {
          trailers.put(l.substring(0, l.indexOf(':')), l.substring(l.indexOf(':') + 1));
        }
      }
    }
    assertThat(trailers).as("the trailers frame").containsKey("grpc-status");
    return new Body(messages, trailers);
  }

  /** The text form's body: base64 parts, each padded on its own. */
  private static byte[] unbase64(byte[] text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String all = new String(text, StandardCharsets.US_ASCII);
    int start = 0;
    for (int i = 0; i < all.length(); i++) {
      if (all.charAt(i) == '=' && (i + 1 == all.length() || all.charAt(i + 1) != '=')) {
        out.writeBytes(Base64.getDecoder().decode(all.substring(start, i + 1)));
        start = i + 1;
      }
    }
    if (start < all.length()) {
      out.writeBytes(Base64.getDecoder().decode(all.substring(start)));
    }
    return out.toByteArray();
  }

  private static List<Integer> indexes(List<byte[]> messages) {
    List<Integer> got = new ArrayList<>();
    messages.forEach(m -> got.add(Numbers.index(m)));
    return got;
  }

  @Test
  void aUnaryCallAndAServerStreamOverHttp1() throws Exception {
    Answer unary = post("/test.Echo/echo", WEB, message(0, "hello".getBytes(StandardCharsets.UTF_8)));
    assertThat(unary.status()).isEqualTo(200);
    assertThat(unary.headers()).containsEntry("content-type", WEB);
    Body echoed = body(unary.body());
    assertThat(echoed.messages()).singleElement().satisfies(m ->
        assertThat(new String(m, StandardCharsets.UTF_8)).isEqualTo("hello"));
    assertThat(echoed.trailers()).containsEntry("grpc-status", "0");
    Body streamed = body(post("/test.Numbers/count", "application/grpc-web", message(0, Numbers.request(3, 8))).body());
    assertThat(indexes(streamed.messages())).containsExactly(0, 1, 2);
    assertThat(streamed.trailers()).containsEntry("grpc-status", "0");
  }

  @Test
  void theTextFormIsBase64BothWays() throws Exception {
    byte[] request = Base64.getEncoder().encode(message(0, Numbers.request(2, 8)));
    Answer answer = post("/test.Numbers/count", TEXT, request);
    assertThat(answer.headers()).containsEntry("content-type", "application/grpc-web-text+proto");
    Body body = body(unbase64(answer.body()));
    assertThat(indexes(body.messages())).containsExactly(0, 1);
    assertThat(body.trailers()).containsEntry("grpc-status", "0");
  }

  @Test
  void failuresAreTheTrailersAfterTheMessagesSent() throws Exception {
    Body failed = body(post("/test.Numbers/countThenFail", WEB, message(0, Numbers.request(2, 8))).body());
    assertThat(indexes(failed.messages())).containsExactly(0, 1);
    assertThat(failed.trailers()).containsEntry("grpc-status", "13").containsEntry("grpc-message", "the source ran dry");
    Body refused = body(post("/test.Numbers/countThenRefuse", WEB, message(0, Numbers.request(1, 8))).body());
    assertThat(refused.trailers()).containsEntry("grpc-status", "9").containsKey("grpc-status-details-bin");
    Body late = body(post("/test.Numbers/countThenStall", WEB, message(0, Numbers.request(1, 8)),
        "grpc-timeout: 300m").body());
    assertThat(indexes(late.messages())).containsExactly(0);
    assertThat(late.trailers()).containsEntry("grpc-status", "4").containsEntry("grpc-message",
        "/test.Numbers/countThenStall did not end its stream within 300 ms");
  }

  @Test
  void badRequestsAreAnsweredWithTheirStatusAlone() throws Exception {
    Body unknown = body(post("/test.Echo/nothing", WEB, message(0, new byte[1])).body());
    assertThat(unknown.messages()).isEmpty();
    assertThat(unknown.trailers()).containsEntry("grpc-status", "12")
        .containsEntry("grpc-message", "Method not found: test.Echo/nothing");
    Body truncated = body(post("/test.Echo/echo", WEB, RawGrpc.prefix(0, 10)).body());
    assertThat(truncated.trailers()).containsEntry("grpc-status", "13");
    Body compressed = body(post("/test.Echo/echo", WEB, message(1, new byte[3])).body());
    assertThat(compressed.trailers()).containsEntry("grpc-status", "13");
    Body notBase64 = body(unbase64(post("/test.Echo/echo", TEXT, "***".getBytes(StandardCharsets.US_ASCII)).body()));
    assertThat(notBase64.trailers()).containsEntry("grpc-status", "13");
    assertThat(echo.echoed.get()).as("no refused request reached a handler").isZero();
  }

  @Test
  void overHttp2TheTrailersAreInTheBodyToo() throws Exception {
    try (RawGrpc raw = RawGrpc.connect(server.port())) {
      Http2Headers headers = RawGrpc.request("x").path("/test.Numbers/count").set("content-type", WEB);
      headers.remove("te"); // gRPC-Web needs none: its trailers are in the body
      RawGrpc.Answer answer = raw.call(headers, message(0, Numbers.request(3, 8)));
      assertThat(answer.status()).isEqualTo("200");
      assertThat(answer.contentType()).isEqualTo(WEB);
      assertThat(answer.headerBlocks()).as("no HTTP/2 trailers: gRPC-Web's are in the body").hasSize(1);
      Body body = body(answer.data());
      assertThat(indexes(body.messages())).containsExactly(0, 1, 2);
      assertThat(body.trailers()).containsEntry("grpc-status", "0");
    }
  }

  @Test
  void aReaderThatStopsHoldsThePublisherBack() throws Exception {
    try (Socket socket = new Socket()) {
      socket.setReceiveBufferSize(16 * 1024);
      socket.connect(new InetSocketAddress("127.0.0.1", server.port()), (int) BOUND.toMillis());
      byte[] body = message(0, Numbers.request(-1, 16 * 1024));
      OutputStream out = socket.getOutputStream();
      out.write(("POST /test.Numbers/count HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + WEB
          + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      // nothing is read: the socket's buffers and the channel's fill, then the publisher is asked for no more
      await().atMost(BOUND).until(() -> numbers.last != null && numbers.last.emitted.get() > 0);
      long[] seen = {-1};
      await().atMost(BOUND).pollInterval(Duration.ofMillis(200)).until(() -> {
        long now = numbers.last.emitted.get();
        boolean still = now == seen[0];
        seen[0] = now;
        return still;
      });
      assertThat(numbers.last.emitted.get()).as("messages of 16 KiB sent to a reader that reads nothing")
          .isLessThan(1_000);
      assertThat(numbers.last.mostOutstanding.get()).isLessThanOrEqualTo(16);
    }
    await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
  }

  /** One request over a new HTTP/1.1 connection, and the head of its answer (its status line's code and headers). */
  private static Map<String, String> head(int port, String request) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), (int) BOUND.toMillis());
      socket.setSoTimeout((int) BOUND.toMillis());
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      InputStream in = socket.getInputStream();
      Map<String, String> fields = new LinkedHashMap<>();
      fields.put(":status", line(in).substring(9, 12));
      for (String l = line(in); !l.isEmpty(); l = line(in)) {
        fields.put(l.substring(0, l.indexOf(':')).trim().toLowerCase(Locale.ROOT), l.substring(l.indexOf(':') + 1).trim());
      }
      return fields;
    }
  }

  @Test
  void browserPagesOfAllowedOriginsMayCallAcrossOrigins() throws Exception {
    try (BoltServer cors = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true)
        .httpCors("https://app.example").build().start()) {
      String preflight = String.join("\r\n", "OPTIONS /test.Echo/echo HTTP/1.1", "Host: 127.0.0.1", "Origin: %s",
          "Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type,x-grpc-web", "", "");
      Map<String, String> allowed = head(cors.port(), preflight.formatted("https://app.example"));
      assertThat(allowed).containsEntry(":status", "204")
          .containsEntry("access-control-allow-origin", "https://app.example")
          .containsEntry("access-control-allow-methods", "POST, GET");
      assertThat(allowed.get("access-control-allow-headers")).contains("content-type", "x-grpc-web", "grpc-timeout",
          "connect-protocol-version");
      assertThat(head(cors.port(), preflight.formatted("https://elsewhere.example")))
          .containsEntry(":status", "403").doesNotContainKey("access-control-allow-origin");
      // the call itself: its answer says the page may read it, and its status headers
      byte[] body = message(0, "hi".getBytes(StandardCharsets.UTF_8));
      String call = "POST /test.Echo/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: %s\r\nContent-Type: " + WEB
          + "\r\nContent-Length: " + body.length + "\r\n\r\n" + new String(body, StandardCharsets.ISO_8859_1);
      assertThat(head(cors.port(), call.formatted("https://app.example")))
          .containsEntry(":status", "200").containsEntry("access-control-allow-origin", "https://app.example")
          .containsEntry("access-control-expose-headers", "grpc-status, grpc-message, grpc-status-details-bin")
          .containsEntry("vary", "origin");
      assertThat(head(cors.port(), call.formatted("https://elsewhere.example")))
          .containsEntry(":status", "200").doesNotContainKey("access-control-allow-origin");
      // Connect's calls alike
      String connect = String.join("\r\n", "POST /test.Echo/echo HTTP/1.1", "Host: 127.0.0.1",
          "Origin: https://app.example", "Content-Type: application/proto", "Content-Length: 2", "", "hi");
      assertThat(head(cors.port(), connect)).containsEntry("access-control-allow-origin", "https://app.example");
    }
    // a server without CORS marks no answer
    byte[] body = message(0, "hi".getBytes(StandardCharsets.UTF_8));
    assertThat(head(server.port(), "POST /test.Echo/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://app.example"
        + "\r\nContent-Type: " + WEB + "\r\nContent-Length: " + body.length + "\r\n\r\n"
        + new String(body, StandardCharsets.ISO_8859_1))).doesNotContainKey("access-control-allow-origin");
  }
}
