package io.boltgen.micrometer;

import static io.boltgen.micrometer.TestService.ECHO;
import static io.boltgen.micrometer.TestService.FAIL;
import static io.boltgen.micrometer.TestService.REFUSE;
import static io.boltgen.micrometer.TestService.SLOW;
import static io.boltgen.micrometer.TestService.bytes;
import static io.boltgen.micrometer.TestService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.testing.Closer;
import io.boltgen.testing.RawFrames;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Timers and gauges after real loopback calls: every outcome (success, a handler's unchecked exception, a
 * handler's BoltException, a timeout) counted once on each side with its tags; the connection gauges; and
 * the scope a served call opens on its handler's thread, closed where it was opened.
 */
class ObservationMetricsTest {

  private final Closer closer = new Closer();
  private final TestService service = new TestService();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final ObservationRegistry observations = ObservationRegistry.create();

  ObservationMetricsTest() {
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
  }

  @AfterEach
  void close() throws Exception {
    service.release.countDown();
    closer.close();
  }

  private BoltServer server(ServiceDefinition definition) {
    return closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(definition)
        .serverInterceptor(BoltObservations.serverInterceptor(observations)).build().start());
  }

  private BoltChannel channel(BoltServer server) {
    BoltClient client = closer.track(BoltClient.builder()
        .clientInterceptor(BoltObservations.clientInterceptor(observations)).build());
    return client.channel("127.0.0.1:" + server.port());
  }

  private long count(String name, String method, ResponseStatus status, String error) {
    Timer timer = meters.find(name).tags("service", "test.Echo", "method", method, "status", status.name(),
        "side", name.contains("client") ? "client" : "server", "error", error).timer();
    return timer == null ? 0 : timer.count();
  }

  @Test
  void everyOutcomeIsTimedOnceOnEachSideWithItsTags() {
    BoltChannel channel = channel(server(service.definition()));
    assertThat(channel.invokeSync(ECHO, bytes("a"), CallOptions.DEFAULT)).isEqualTo(bytes("a"));
    assertThat(channel.invokeSync(ECHO, bytes("b"), CallOptions.DEFAULT)).isEqualTo(bytes("b"));
    assertThatThrownBy(() -> channel.invokeSync(FAIL, bytes("x"), CallOptions.DEFAULT))
        .isInstanceOf(BoltException.class).hasMessageContaining("boom: x");
    assertThatThrownBy(() -> channel.invokeSync(REFUSE, bytes("y"), CallOptions.DEFAULT))
        .isInstanceOf(BoltException.class).hasMessageContaining("refused: y");
    service.release = new CountDownLatch(1);
    assertThatThrownBy(() -> channel.invokeSync(SLOW, bytes("z"), CallOptions.DEFAULT.withTimeoutMillis(100)))
        .isInstanceOf(BoltException.class)
        .satisfies(e -> assertThat(((BoltException) e).status()).isEqualTo(ResponseStatus.TIMEOUT));
    service.release.countDown();

    String client = DefaultBoltClientObservationConvention.NAME;
    String server = DefaultBoltServerObservationConvention.NAME;
    await().atMost(Duration.ofSeconds(5)).until(() -> count(server, "slow", ResponseStatus.SUCCESS, "none") == 1);
    assertThat(count(client, "echo", ResponseStatus.SUCCESS, "none")).isEqualTo(2);
    assertThat(count(client, "fail", ResponseStatus.SERVER_EXCEPTION, "BoltException")).isEqualTo(1);
    assertThat(count(client, "refuse", ResponseStatus.SERVER_EXCEPTION, "BoltException")).isEqualTo(1);
    assertThat(count(client, "slow", ResponseStatus.TIMEOUT, "BoltException")).isEqualTo(1);
    assertThat(count(server, "echo", ResponseStatus.SUCCESS, "none")).isEqualTo(2);
    assertThat(count(server, "fail", ResponseStatus.SERVER_EXCEPTION, "IllegalStateException")).isEqualTo(1);
    assertThat(count(server, "refuse", ResponseStatus.SERVER_EXCEPTION, "BoltException")).isEqualTo(1);
    assertThat(meters.find(client).timers()).as("one timer per method and outcome").hasSize(4);
    assertThat(meters.find(server).timers()).hasSize(4);
    assertThat(meters.getMeters()).as("the remote address is never a tag")
        .allSatisfy(m -> assertThat(m.getId().getTag(BoltKeyValues.REMOTE_ADDRESS)).isNull());
    assertThat(meters.get(client + ".active").longTaskTimers()).as("nothing in flight any more")
        .allSatisfy(t -> assertThat(t.activeTasks()).isZero());
  }

  @Test
  void eachMessageOfAStreamIsAnEventCountedOnBothSides() throws Exception {
    BoltChannel channel = channel(server(service.definition()));
    List<byte[]> letters = new CopyOnWriteArrayList<>();
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    channel.invokeStream(TestService.SPELL, bytes("abc"), CallOptions.DEFAULT).subscribe(
        new java.util.concurrent.Flow.Subscriber<byte[]>() {
          @Override
          public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            s.request(Long.MAX_VALUE);
          }

          @Override
          public void onNext(byte[] item) {
            letters.add(item);
          }

          @Override
          public void onError(Throwable error) {
            ended.complete(error);
          }

          @Override
          public void onComplete() {
            ended.complete(null);
          }
        });
    assertThat(ended.get(5, java.util.concurrent.TimeUnit.SECONDS)).isNull();
    assertThat(letters).hasSize(3);
    byte[] counted = channel.invokeClientStream(TestService.COUNT,
        io.boltgen.runtime.Publishers.of(List.of(bytes("x"), bytes("y"), bytes("z"), bytes("w"))),
        CallOptions.DEFAULT).get(5, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(counted).isEqualTo(bytes("4"));
    String server = DefaultBoltServerObservationConvention.NAME;
    await().atMost(Duration.ofSeconds(5)).until(() -> count(server, "count", ResponseStatus.SUCCESS, "none") == 1
        && count(server, "spell", ResponseStatus.SUCCESS, "none") == 1);
    assertThat(meters.get(server + ".message.sent").tag("method", "spell").counter().count()).isEqualTo(3);
    assertThat(meters.get(server + ".message.received").tag("method", "count").counter().count()).isEqualTo(4);
    assertThat(meters.find(server + ".message.sent").tag("method", "count").counter())
        .as("a unary answer is not a message event").isNull();
    // and on the client: each message it read of the server's stream, each it sent of its own
    String client = DefaultBoltClientObservationConvention.NAME;
    await().atMost(Duration.ofSeconds(5)).until(() -> count(client, "count", ResponseStatus.SUCCESS, "none") == 1
        && count(client, "spell", ResponseStatus.SUCCESS, "none") == 1);
    assertThat(meters.get(client + ".message.received").tag("method", "spell").counter().count()).isEqualTo(3);
    assertThat(meters.get(client + ".message.sent").tag("method", "count").counter().count()).isEqualTo(4);
    assertThat(meters.find(client + ".message.sent").tag("method", "spell").counter())
        .as("a unary request is not a message event").isNull();
  }

  @Test
  void theRemoteAddressIsAHighCardinalityKeyValue() throws Exception {
    List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
    observations.observationConfig().observationHandler(new ObservationHandler<>() {
      @Override
      public void onStop(Observation.Context context) {
        stopped.add(context);
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
    BoltServer server = server(service.definition());
    channel(server).invokeSync(ECHO, bytes("a"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(5)).until(() -> stopped.size() == 2);
    Observation.Context sent = stopped.stream().filter(c -> c instanceof BoltClientObservationContext).findFirst()
        .orElseThrow();
    assertThat(sent.getHighCardinalityKeyValue(BoltKeyValues.REMOTE_ADDRESS).getValue())
        .isEqualTo("127.0.0.1:" + server.port());
    assertThat(sent.getContextualName()).isEqualTo("test.Echo/echo");
    Observation.Context served = stopped.stream().filter(c -> c instanceof BoltServerObservationContext)
        .findFirst().orElseThrow();
    assertThat(served.getHighCardinalityKeyValue(BoltKeyValues.REMOTE_ADDRESS).getValue())
        .startsWith("127.0.0.1:").isNotEqualTo("127.0.0.1:" + server.port());
  }

  @Test
  void gaugesCountConnectionsAndPendingCalls() throws Exception {
    BoltServer server = server(service.definition());
    BoltClient client = closer.track(BoltClient.builder()
        .clientInterceptor(BoltObservations.clientInterceptor(observations)).build());
    BoltConnectionMetrics.of(client, Tags.of("endpoint", "c")).bindTo(meters);
    BoltConnectionMetrics.of(server, Tags.of("endpoint", "s")).bindTo(meters);
    BoltChannel channel = client.channel("127.0.0.1:" + server.port());
    assertThat(meters.get("boltgen.client.connections").tag("endpoint", "c").gauge().value()).isZero();

    service.release = new CountDownLatch(1);
    CompletableFuture<byte[]> slow = channel.invokeFuture(SLOW, bytes("s"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(5)).until(() -> gauge("boltgen.client.pending.calls") == 1
        && meters.get(DefaultBoltServerObservationConvention.NAME + ".active").longTaskTimer().activeTasks() == 1);
    assertThat(gauge("boltgen.client.connections")).isEqualTo(1);
    assertThat(gauge("boltgen.server.connections")).isEqualTo(1);
    assertThat(gauge("boltgen.client.connections.unwritable")).isZero();
    assertThat(gauge("boltgen.server.pending.calls")).as("the server sent no call").isZero();
    assertThat(gauge("boltgen.client.queued.bytes")).as("the request left for the socket").isZero();
    service.release.countDown();
    assertThat(string(slow.get(5, TimeUnit.SECONDS))).isEqualTo("s");
    await().atMost(Duration.ofSeconds(5)).until(() -> gauge("boltgen.client.pending.calls") == 0);
  }

  @Test
  void aCallWhoseCallerWentAwayIsCountedCancelledNotAsATimeout() throws Exception {
    BoltServer server = server(service.definition());
    BoltConnectionMetrics.of(server, Tags.of("endpoint", "s")).bindTo(meters);
    service.release = new CountDownLatch(1);
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write(RawFrames.request(SLOW.wireName(), 1, bytes("s"), 60_000));
      await().atMost(Duration.ofSeconds(5))
          .until(() -> meters.get(DefaultBoltServerObservationConvention.NAME + ".active").longTaskTimer()
              .activeTasks() == 1);
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> server.connections().isEmpty());
    service.release.countDown(); // the handler answers after its caller went away: nothing is written
    await().atMost(Duration.ofSeconds(5)).until(() -> meters.get("boltgen.server.calls.cancelled")
        .tag("endpoint", "s").functionCounter().count() == 1);
    await().atMost(Duration.ofSeconds(5))
        .until(() -> count("boltgen.server.calls", "slow", ResponseStatus.CONNECTION_CLOSED, "CancellationException") == 1);
    assertThat(count("boltgen.server.calls", "slow", ResponseStatus.SUCCESS, "none")).isZero();
    assertThat(count("boltgen.server.calls", "slow", ResponseStatus.TIMEOUT, "none")).isZero();
  }

  private double gauge(String name) {
    return meters.get(name).gauge().value();
  }

  @Test
  void aHandlerRunsInItsCallsScopeUntilItReturns() throws Exception {
    MethodDescriptor<byte[], byte[]> probe = TestService.method("probe");
    List<String> seen = new CopyOnWriteArrayList<>();
    BoltServer server = server(ServiceDefinition.builder("test.Echo", "1.0").method(probe, (request, call) -> {
      seen.add("before " + describe(observations.getCurrentObservation()));
      call.respond(request);
      seen.add("after " + describe(observations.getCurrentObservation()));
    }).build());
    channel(server).invokeSync(probe, bytes("p"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 2);
    assertThat(seen).containsExactly("before served probe, no parent", "after served probe, no parent");
  }

  @Test
  void aHandlerThatAnswersFromAnotherThreadLeavesNoScopeOnItsThread() throws Exception {
    ExecutorService handlers = Executors.newSingleThreadExecutor();
    closer.track(handlers::shutdownNow);
    MethodDescriptor<byte[], byte[]> later = TestService.method("later");
    MethodDescriptor<byte[], byte[]> probe = TestService.method("probe");
    CompletableFuture<byte[]> answer = new CompletableFuture<>();
    CountDownLatch returned = new CountDownLatch(1);
    List<String> seen = new CopyOnWriteArrayList<>();
    ServiceDefinition definition = ServiceDefinition.builder("test.Echo", "1.0")
        .method(later, (request, call) -> {
          call.respondWith(answer);
          returned.countDown();
        })
        .method(probe, (request, call) -> {
          seen.add(describe(observations.getCurrentObservation()));
          call.respond(request);
        })
        .build();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(definition, handlers)
        .serverInterceptor(BoltObservations.serverInterceptor(observations)).build().start());
    BoltChannel channel = channel(server);
    CompletableFuture<byte[]> pending = channel.invokeFuture(later, bytes("l"), CallOptions.DEFAULT);
    assertThat(returned.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(handlers.submit(() -> describe(observations.getCurrentObservation())).get(5, TimeUnit.SECONDS))
        .as("closed when the handler returned, though its call is not answered yet").isEqualTo("none");
    Thread other = new Thread(() -> answer.complete(bytes("done")));
    other.start();
    other.join();
    assertThat(string(pending.get(5, TimeUnit.SECONDS))).isEqualTo("done");
    channel.invokeSync(probe, bytes("p"), CallOptions.DEFAULT);
    assertThat(seen).containsExactly("served probe, no parent");
    assertThat(handlers.submit(() -> describe(observations.getCurrentObservation())).get(5, TimeUnit.SECONDS))
        .as("closed once the probe's handler returned").isEqualTo("none");
  }

  private static String describe(Observation observation) {
    if (observation == null) {
      return "none";
    }
    Observation.Context context = observation.getContext();
    if (!(context instanceof BoltServerObservationContext served)) {
      return context.getName();
    }
    return "served " + served.getMethod().methodName() + ", "
        + (context.getParentObservation() == null ? "no parent" : "parent " + context.getParentObservation());
  }
}
