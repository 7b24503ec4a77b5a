package io.boltgen.runtime.http;

import static io.boltgen.runtime.http.RawHttp2.CANCEL;
import static io.boltgen.runtime.http.RawHttp2.END_HEADERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.testing.Closer;
import io.boltgen.testing.RawFrames;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A call whose caller goes away is cancelled: over HTTP/2 when its stream is reset, over HTTP/1.1 and Bolt
 * when its connection closes. Queued calls are dropped without running their handlers; a running handler
 * sees {@link ServerContext#isCancelled()} and its {@link ServerContext#onCancel} listener; nothing is
 * answered; the server counts the calls as cancelled and interceptors hear CONNECTION_CLOSED, never a timeout.
 */
class CancellationTest {

  private static final Duration BOUND = Duration.ofSeconds(20);
  private static final int HANDLER_THREADS = 4;

  /** Blocks until the test releases it (at most 10 s), then answers; a report that takes its time. */
  private static final MethodDescriptor<byte[], byte[]> REPORT =
      EchoService.method("test.Report", "report", 1, MethodType.REQUEST_RESPONSE, 60_000, TextJson.FORMS);

  private final Closer closer = new Closer();
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicInteger listenersRun = new AtomicInteger();
  private final AtomicInteger sawCancelled = new AtomicInteger();
  private final AtomicInteger finished = new AtomicInteger();
  private final Map<String, Integer> outcomes = new ConcurrentHashMap<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private BoltServer server;

  @BeforeEach
  void start() {
    ServerInterceptor outcome = call -> (status, error, elapsedNanos) ->
        outcomes.merge(status + (error instanceof CancellationException ? "/cancelled" : ""), 1, Integer::sum);
    server = closer.track(BoltServer.builder().bind("127.0.0.1", 0)
        .service(new EchoService().definition(TextJson.FORMS))
        .service(ServiceDefinition.builder("test.Report", "1.0").method(REPORT, (request, call) -> {
          started.incrementAndGet();
          ServerContext context = ServerContext.current();
          context.onCancel(listenersRun::incrementAndGet);
          try {
            release.await(10, TimeUnit.SECONDS);
            if (context.isCancelled()) {
              sawCancelled.incrementAndGet();
            }
            call.respond("done".getBytes(StandardCharsets.UTF_8));
          } finally {
            finished.incrementAndGet();
          }
        }).build())
        .threads(HANDLER_THREADS, HANDLER_THREADS, 1_000)
        .serverInterceptor(outcome)
        .http(true)
        .build().start());
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    closer.close();
  }

  @Test
  void resetHttp2StreamsAreDroppedFromTheQueueAndTheRunningOnesSeeTheirCancellation() throws Exception {
    int streams = 200;
    try (RawHttp2 h2 = RawHttp2.connect(server.port())) {
      ExecutorService reader = Executors.newSingleThreadExecutor();
      closer.track(reader::shutdownNow);
      AtomicInteger responses = new AtomicInteger();
      AtomicInteger goAways = new AtomicInteger();
      Future<?> reading = reader.submit(() -> {
        for (RawHttp2.Frame f = h2.read(); f != null; f = h2.read()) {
          if (f.type() == RawHttp2.HEADERS) {
            responses.incrementAndGet();
          } else if (f.type() == RawHttp2.GOAWAY) {
            goAways.incrementAndGet();
          }
        }
        return null;
      });
      // each stream is sent and reset at once (the rapid-reset pattern), never more than one open at a time
      byte[] headers = h2.postHeaders("/test.Report/report", "application/proto");
      for (int i = 0; i < streams; i++) {
        int stream = 2 * i + 1;
        h2.frame(RawHttp2.HEADERS, END_HEADERS, stream, headers)
            .frame(RawHttp2.DATA, RawHttp2.END_STREAM, stream, new byte[] {1})
            .reset(stream, CANCEL);
      }
      h2.flush();

      await().atMost(BOUND).until(() -> server.cancelledCalls() >= streams);
      assertThat(server.cancelledCalls()).isEqualTo(streams);
      assertThat(started.get()).as("handlers started").isLessThanOrEqualTo(HANDLER_THREADS);
      await().atMost(BOUND).until(() -> listenersRun.get() == started.get());

      release.countDown();
      await().atMost(BOUND).until(() -> finished.get() == started.get());
      assertThat(sawCancelled.get()).as("running handlers that saw their cancellation").isEqualTo(started.get());
      // the queue has drained when a new call, queued behind the dropped ones, is answered
      try (BoltProbe bolt = BoltProbe.open(server)) {
        bolt.assertServes("after the reset streams");
      }
      assertThat(started.get()).as("handlers started, the queue drained").isLessThanOrEqualTo(HANDLER_THREADS);
      assertThat(responses).as("answers to reset streams").hasValue(0);
      assertThat(goAways).as("GOAWAYs (200 resets are within Netty's limit)").hasValue(0);
      assertThat(reading).isNotDone();
      assertThat(outcomes).as("what interceptors heard").containsOnlyKeys("CONNECTION_CLOSED/cancelled", "SUCCESS");
      assertThat(outcomes.get("CONNECTION_CLOSED/cancelled")).isEqualTo(started.get());
    }
  }

  @Test
  void anHttp1ConnectionClosedWhileItsCallRunsCancelsIt() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      raw.send(RawHttp.postBytes("/test.Report/report", "application/proto", new byte[] {1}));
      await().atMost(BOUND).until(() -> started.get() == 1);
    }
    await().atMost(BOUND).until(() -> listenersRun.get() == 1 && server.cancelledCalls() == 1);
    release.countDown();
    await().atMost(BOUND).until(() -> finished.get() == 1);
    assertThat(sawCancelled).hasValue(1);
    assertThat(outcomes).containsOnlyKeys("CONNECTION_CLOSED/cancelled");
  }

  @Test
  void aRequestPipelinedBehindConnectionCloseIsCancelledWhenTheConnectionCloses() throws Exception {
    try (RawHttp raw = RawHttp.connect(server.port())) {
      // one write, so that the server reads the pipelined request before the answer that closes: sent apart, the
      // second could arrive after the close and never become a call
      raw.send(RawHttp.post("/test.Echo/echo", "application/json", "{\"text\":\"last\"}", "Connection: close")
          + new String(RawHttp.postBytes("/test.Report/report", "application/proto", new byte[] {1}),
              java.nio.charset.StandardCharsets.ISO_8859_1));
      assertThat(raw.read().status()).isEqualTo(200);
      assertThat(raw.closedWithin(BOUND)).as("closed after the answer that said Connection: close").isTrue();
    }
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
    release.countDown();
    await().atMost(BOUND).until(() -> finished.get() == started.get());
    assertThat(listenersRun.get()).as("listeners run (the report may not have started)").isEqualTo(started.get());
    assertThat(sawCancelled.get()).isEqualTo(started.get());
  }

  @Test
  void aBoltConnectionClosedWhileItsCallsRunAndWaitCancelsThem() throws Exception {
    int calls = HANDLER_THREADS + 6;
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      OutputStream out = socket.getOutputStream();
      for (int id = 1; id <= calls; id++) {
        out.write(RawFrames.request(REPORT.wireName(), id, new byte[] {1}, 60_000));
      }
      out.flush();
      await().atMost(BOUND).until(() -> started.get() == HANDLER_THREADS);
    }
    // the running calls' listeners run at the close; the queued ones are dropped when their turn comes
    await().atMost(BOUND).until(() -> listenersRun.get() == HANDLER_THREADS);
    release.countDown();
    await().atMost(BOUND).until(() -> server.cancelledCalls() == calls);
    assertThat(started).hasValue(HANDLER_THREADS);
    assertThat(sawCancelled).hasValue(HANDLER_THREADS);
    assertThat(outcomes).containsOnlyKeys("CONNECTION_CLOSED/cancelled");
  }
}
