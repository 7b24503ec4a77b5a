package io.boltgen.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;
import static io.boltgen.runtime.http.Envelopes.concat;
import static io.boltgen.runtime.http.Envelopes.envelope;
import static io.boltgen.runtime.http.Envelopes.envelopes;
import static io.boltgen.runtime.http.Envelopes.onlyEnd;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.Numbers;
import io.boltgen.runtime.http.Envelopes.Envelope;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Connect's streaming protocol on the Bolt port, at the byte level, over HTTP/1.1 (chunked) and HTTP/2: a
 * server-streaming method answers 200, each message in an envelope of its own, then the end-of-stream envelope
 * ({@code {}} or the error); a failure mid-stream, a declared exception, the caller's deadline; bad envelopes and
 * what the server cannot take end the stream at once with their code, and the connection serves on; a reader
 * that stops holds the publisher back, and a reset cancels it.
 */
class ConnectStreamingTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final String PROTO = "application/connect+proto";

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

  private static List<Integer> indexes(List<Envelope> messages) {
    List<Integer> got = new ArrayList<>();
    for (Envelope e : messages) {
      assertThat(e.flags()).isZero();
      got.add(Numbers.index(e.bytes()));
    }
    return got;
  }

  private static RawHttp.Response stream(RawHttp raw, String method, byte[] body, String... headers)
      throws Exception {
    raw.send(RawHttp.postBytes("/test.Numbers/" + method, PROTO, body, headers));
    return raw.readChunked();
  }

  @Test
  void eachMessageInAnEnvelopeThenTheEndOfTheStreamOverHttp1() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      RawHttp.Response answer = stream(raw, "count", envelope(0, Numbers.request(3, 8)));
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.header("content-type")).isEqualTo(PROTO);
      List<Envelope> envelopes = envelopes(answer.body());
      assertThat(envelopes).hasSize(4);
      assertThat(indexes(envelopes.subList(0, 3))).containsExactly(0, 1, 2);
      assertThat(envelopes.get(3).flags()).isEqualTo(2);
      assertThat(envelopes.get(3).text()).isEqualTo("{}");
      // respond() on a streaming method: a stream of one; and the connection (keep-alive) serves on
      List<Envelope> one = envelopes(stream(raw, "one", envelope(0, Numbers.request(7, 8))).body());
      assertThat(indexes(one.subList(0, 1))).containsExactly(7);
      assertThat(one.get(1).text()).isEqualTo("{}");
    }
  }

  @Test
  void failuresEndTheStreamWithTheirErrorAfterTheMessagesSent() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      List<Envelope> failed = envelopes(stream(raw, "countThenFail", envelope(0, Numbers.request(2, 8))).body());
      assertThat(indexes(failed.subList(0, 2))).containsExactly(0, 1);
      assertThat(failed.get(2).flags()).isEqualTo(2);
      assertThat(failed.get(2).text()).isEqualTo("{\"error\":{\"code\":\"internal\",\"message\":\"the source ran dry\"}}");
      List<Envelope> refused = envelopes(stream(raw, "countThenRefuse", envelope(0, Numbers.request(1, 8))).body());
      assertThat(refused.get(1).text()).startsWith("{\"error\":{\"code\":\"failed_precondition\",\"message\":\"the source"
          + " is closed for the night\",\"details\":[{\"type\":\"java.io.IOException\"");
      // the caller's deadline covers the whole stream
      List<Envelope> stalled = envelopes(stream(raw, "countThenStall", envelope(0, Numbers.request(2, 8)),
          "Connect-Timeout-Ms: 300").body());
      assertThat(indexes(stalled.subList(0, 2))).containsExactly(0, 1);
      assertThat(stalled.get(2).text()).isEqualTo("{\"error\":{\"code\":\"deadline_exceeded\",\"message\":"
          + "\"/test.Numbers/countThenStall did not end its stream within 300 ms\"}}");
      await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
    }
  }

  @Test
  void badRequestsEndTheStreamAtOnceAndTheConnectionServesOn() throws Exception {
    byte[] request = Numbers.request(1, 8);
    byte[] truncated = new byte[request.length + 4];
    System.arraycopy(envelope(0, request), 0, truncated, 0, truncated.length);
    byte[] longer = new byte[request.length + 5 + 3];
    System.arraycopy(envelope(0, request), 0, longer, 0, request.length + 5);
    try (RawHttp raw = RawHttp.connect(server.port())) {
      assertThat(onlyEnd(stream(raw, "count", truncated))).isEqualTo("{\"error\":{\"code\":\"invalid_argument\","
          + "\"message\":\"the request ended inside a message: its prefix says 8 bytes, 7 arrived\"}}");
      assertThat(onlyEnd(stream(raw, "count", longer))).contains(
          "the request ended inside a message's prefix, after 3 of its 5 bytes");
      assertThat(onlyEnd(stream(raw, "count", new byte[3]))).contains(
          "the request ended inside a message's prefix, after 3 of its 5 bytes");
      assertThat(onlyEnd(stream(raw, "count", new byte[0]))).contains(
          "the request ended without a message: /test.Numbers/count takes one");
      assertThat(onlyEnd(stream(raw, "count", concat(envelope(0, request), envelope(0, request))))).contains(
          "a second request message: the method takes one");
      assertThat(onlyEnd(stream(raw, "count", envelope(1, request)))).contains(
          "a message is flagged compressed, but the request names no Connect-Content-Encoding to read it with");
      assertThat(onlyEnd(stream(raw, "count", envelope(1, request), "Connect-Content-Encoding: gzip")))
          .startsWith("{\"error\":{\"code\":\"invalid_argument\",\"message\":\"a gzip message could not be inflated");
      assertThat(onlyEnd(stream(raw, "count", envelope(0, request), "Connect-Content-Encoding: br")))
          .startsWith("{\"error\":{\"code\":\"unimplemented\"");
      assertThat(onlyEnd(stream(raw, "count", envelope(0, request), "Connect-Timeout-Ms: soon")))
          .contains("Connect-Timeout-Ms must be a positive integer");
      // JSON for a method without a JSON form
      raw.send(RawHttp.postBytes("/test.Numbers/count", "application/connect+json", envelope(0, request)));
      RawHttp.Response json = raw.readChunked();
      assertThat(json.header("content-type")).isEqualTo("application/connect+json");
      assertThat(envelopes(json.body()).get(0).text()).startsWith("{\"error\":{\"code\":\"unimplemented\"");
      // a unary method does not take the streaming protocol
      raw.send(RawHttp.postBytes("/test.Echo/echo", PROTO, envelope(0, request)));
      RawHttp.Response unary = raw.read();
      assertThat(unary.status()).isEqualTo(415);
      assertThat(unary.error()).containsEntry("code", "unimplemented");
      // and the connection serves on
      assertThat(indexes(envelopes(stream(raw, "count", envelope(0, Numbers.request(2, 8))).body()).subList(0, 2)))
          .containsExactly(0, 1);
    }
    assertThat(numbers.last.count).isEqualTo(2); // no refused request reached a handler
  }

  @Test
  void aStreamHoldsThePipelinedRequestsAfterItUntilItEnds() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      byte[] streamed = RawHttp.postBytes("/test.Numbers/count", PROTO, envelope(0, Numbers.request(5, 8)));
      byte[] unary = RawHttp.postBytes("/test.Echo/echo", "application/proto", "after".getBytes(StandardCharsets.UTF_8));
      ByteArrayOutputStream both = new ByteArrayOutputStream();
      both.write(streamed);
      both.write(unary);
      raw.send(both.toByteArray());
      List<Envelope> first = envelopes(raw.readChunked().body());
      assertThat(indexes(first.subList(0, 5))).containsExactly(0, 1, 2, 3, 4);
      RawHttp.Response second = raw.read();
      assertThat(second.status()).isEqualTo(200);
      assertThat(new String(second.body(), StandardCharsets.UTF_8)).isEqualTo("after");
    }
  }

  @Test
  void overHttp2EachMessageIsDataThenTheEnd() throws Exception {
    try (RawHttp2 h2 = RawHttp2.connect(server.port())) {
      h2.post(1, "/test.Numbers/count", PROTO, envelope(0, Numbers.request(3, 8))).flush();
      Http2Headers head = null;
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(true);
      for (RawHttp2.Frame f = h2.read(); f != null; f = h2.read()) {
        if (f.stream() != 1) {
          continue;
        }
        if (f.type() == RawHttp2.HEADERS && head == null) {
          head = decoder.decodeHeaders(1, Unpooled.wrappedBuffer(f.payload()));
        } else if (f.type() == RawHttp2.DATA) {
          body.write(f.payload());
        }
        if ((f.flags() & RawHttp2.END_STREAM) != 0) {
          break;
        }
      }
      assertThat(head).isNotNull();
      assertThat(head.status().toString()).isEqualTo("200");
      assertThat(head.get("content-type").toString()).isEqualTo(PROTO);
      List<Envelope> envelopes = envelopes(body.toByteArray());
      assertThat(indexes(envelopes.subList(0, 3))).containsExactly(0, 1, 2);
      assertThat(envelopes.get(3).text()).isEqualTo("{}");
    }
  }

  @Test
  void aReaderThatStopsHoldsThePublisherBackAndAResetCancelsIt() throws Exception {
    // an HTTP/2 window of 64 KiB and messages of 16 KiB: the server sends 4, holds at most 64 KiB more, and asks
    // for at most 16 more messages
    try (RawHttp2 h2 = RawHttp2.connect(server.port(), 0, 64 * 1024)) {
      h2.post(1, "/test.Numbers/count", PROTO, envelope(0, Numbers.request(-1, 16 * 1024))).flush();
      await().atMost(BOUND).until(() -> numbers.last != null && numbers.last.emitted.get() >= 4);
      int bound = 4 + 5 + 16 + 1;
      await().atMost(BOUND).during(Duration.ofMillis(300)).until(() -> numbers.last.emitted.get() <= bound);
      h2.reset(1, RawHttp2.CANCEL).flush();
      await().atMost(BOUND).until(() -> numbers.last.cancelled.getCount() == 0);
      await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
      assertThat(numbers.last.mostOutstanding.get()).isLessThanOrEqualTo(16);
    }
  }
}
