package io.boltgen.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.testing.Closer;
import io.boltgen.testing.PeakSampler;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that never reads its answers costs the server a bounded amount, on HTTP/1.1 (pipelining) and on
 * HTTP/2 (a flow-control window the client never opens), while Bolt and HTTP calls on the same port are
 * answered throughout; once the client reads, every request gets its answer.
 */
class HttpBackPressureTest {

  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final int ANSWER_BYTES = 1024;
  /** Answers with as many zero bytes as its argument's first four bytes say; counted. */
  private static final MethodDescriptor<byte[], byte[]> AMPLIFY =
      EchoService.method("test.Amp", "amplify", 1, MethodType.REQUEST_RESPONSE, 60_000, TextJson.FORMS);

  private final Closer closer = new Closer();
  /** The amplify calls the server's handler ran. */
  private final AtomicInteger handled = new AtomicInteger();
  private BoltServer server;

  @BeforeEach
  void start() {
    server = closer.track(BoltServer.builder().bind("127.0.0.1", 0)
        .service(new EchoService().definition(TextJson.FORMS))
        .service(ServiceDefinition.builder("test.Amp", "1.0")
            .method(AMPLIFY, (request, call) -> {
              handled.incrementAndGet();
              call.respond(new byte[ByteBuffer.wrap(request).getInt()]);
            })
            .build())
        .http(true)
        .build().start());
  }

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  @Test
  void http1PipeliningToAClientThatNeverReadsIsBounded() throws Exception {
    int requests = 100_000;
    byte[] one = RawHttp.postBytes("/test.Amp/amplify", "application/proto",
        ByteBuffer.allocate(4).putInt(ANSWER_BYTES).array());
    PeakSampler outboundPeak = closer.track(PeakSampler.start(this::mostQueuedBytes));
    int handledWhilePaused;
    try (RawHttp raw = RawHttp.connect(server.port(), 64 * 1024)) {
      ExecutorService writer = Executors.newSingleThreadExecutor();
      closer.track(writer::shutdownNow);
      Future<?> written = writer.submit(() -> {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 1; i <= requests; i++) {
          batch.write(one, 0, one.length);
          if (i % 100 == 0) {
            raw.send(batch.toByteArray());
            batch.reset();
          }
        }
        return null;
      });
      // the client reads nothing; the server must stop reading it once its answers cannot leave
      await().atMost(BOUND).pollInterval(Duration.ofMillis(5)).until(() -> handled.get() > 0
          && server.connections().stream().anyMatch(c -> !c.isWritable()));
      handledWhilePaused = handled.get();
      callsAreAnsweredAtOnce();
      assertThat(written).as("the writer, blocked by the server that stopped reading").isNotDone();
      // what the kernel's buffers and the 64 KiB mark can hold, and no more: far from all 100,000
      assertThat(handledWhilePaused).as("requests the server handled while the client read nothing")
          .isLessThan(requests / 5);
      assertThat(handled.get()).as("handled after the Bolt and HTTP calls").isLessThan(requests / 5);

      for (int i = 0; i < requests; i++) {
        RawHttp.Response answer = raw.read();
        assertThat(answer.status()).as("answer %d", i + 1).isEqualTo(200);
        assertThat(answer.body()).hasSize(ANSWER_BYTES);
      }
      written.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }
    System.out.printf("measured: while a client pipelined %,d requests and did not read, the server handled %,d of"
        + " them and held at most %,d outbound bytes for it%n", requests, handledWhilePaused, outboundPeak.peak());
    // the 64 KiB high water mark, plus the answer that crossed it and those of the 16 requests open then
    assertThat(outboundPeak.peak()).as("outbound bytes held for the client")
        .isLessThan(64 * 1024 + 17 * (ANSWER_BYTES + 256));
  }

  @Test
  void http2StreamsWhoseWindowNeverOpensAreBounded() throws Exception {
    int streams = 100; // HttpPipelines.MAX_CONCURRENT_STREAMS
    try (RawHttp2 h2 = RawHttp2.connect(server.port(), 0, 0)) {
      ExecutorService reader = Executors.newSingleThreadExecutor();
      closer.track(reader::shutdownNow);
      AtomicInteger refused = new AtomicInteger();
      Map<String, Integer> kinds = new ConcurrentHashMap<>();
      AtomicInteger answered = new AtomicInteger();
      Future<?> reading = reader.submit(() -> {
        for (RawHttp2.Frame f = h2.read(); f != null; f = h2.read()) {
          kinds.merge(f.type() + (f.type() == RawHttp2.RST_STREAM || f.type() == RawHttp2.GOAWAY
              ? "/" + f.errorCode() : ""), 1, Integer::sum);
          if (f.type() == RawHttp2.RST_STREAM && f.errorCode() == RawHttp2.REFUSED_STREAM) {
            refused.incrementAndGet();
          } else if (f.type() == RawHttp2.DATA && (f.flags() & RawHttp2.END_STREAM) != 0) {
            answered.incrementAndGet();
          } else if (f.type() == RawHttp2.SETTINGS && (f.flags() & RawHttp2.ACK) == 0) {
            synchronized (h2) {
              h2.frame(RawHttp2.SETTINGS, RawHttp2.ACK, 0, new byte[0]).flush();
            }
          }
        }
        return null;
      });
      // as many requests as the server allows streams (it announced 100), then as many again that it must refuse
      byte[] body = ByteBuffer.allocate(4).putInt(ANSWER_BYTES).array();
      synchronized (h2) {
        for (int i = 0; i < streams; i++) {
          h2.post(2 * i + 1, "/test.Amp/amplify", "application/proto", body);
        }
        h2.flush();
      }
      await().atMost(BOUND).until(() -> handled.get() >= streams);
      byte[] headersOnly = h2.postHeaders("/test.Amp/amplify", "application/proto");
      synchronized (h2) {
        for (int i = streams; i < 2 * streams; i++) {
          h2.frame(RawHttp2.HEADERS, RawHttp2.END_HEADERS | RawHttp2.END_STREAM, 2 * i + 1, headersOnly);
        }
        h2.flush();
      }
      try {
        await().atMost(BOUND).until(() -> refused.get() >= streams);
      } catch (ConditionTimeoutException e) {
        throw new AssertionError("refused " + refused + ", handled " + handled + ", answered " + answered
            + ", frames " + kinds, e);
      }
      assertThat(handled.get()).as("streams served while their answers could not leave").isEqualTo(streams);
      assertThat(answered).hasValue(0);
      callsAreAnsweredAtOnce();

      // the window opens: every served stream gets its answer
      synchronized (h2) {
        h2.frame(RawHttp2.SETTINGS, 0, 0, ByteBuffer.allocate(6).putShort((short) 0x4).putInt(1 << 20).array())
            .windowUpdate(0, 1 << 30).flush();
      }
      try {
        await().atMost(BOUND).until(() -> answered.get() == streams);
      } catch (ConditionTimeoutException e) {
        throw new AssertionError("answered " + answered + " of " + streams + ", frames " + kinds, e);
      }
      assertThat(reading).isNotDone();
    }
  }

  /** A Bolt call and an HTTP call on fresh connections to the same port are answered within seconds. */
  private void callsAreAnsweredAtOnce() throws Exception {
    try (BoltProbe bolt = BoltProbe.open(server)) {
      bolt.assertServes("beside a client that does not read");
    }
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<byte[]> answer = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/test.Amp/amplify"))
        .timeout(Duration.ofSeconds(5))
        .header("Content-Type", "application/proto")
        .POST(HttpRequest.BodyPublishers.ofByteArray(ByteBuffer.allocate(4).putInt(3).array())).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(answer.statusCode()).as("an HTTP call beside, body %s",
        new String(answer.body(), StandardCharsets.UTF_8)).isEqualTo(200);
  }

  private long mostQueuedBytes() {
    return server.connections().stream().mapToLong(Connection::queuedBytes).max().orElse(0);
  }
}
