package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.RAW;
import static io.boltgen.runtime.EchoService.SLOW;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.Closer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Channels to clusters: resolution, every balancing policy, instances joining and leaving, failover and what
 * is never sent twice, all against real servers on loopback and a registry kept in memory.
 */
class ClusterTest {

  private static final String SERVICE = "test.Echo:1.0";
  private static final String TARGET = "mem:///" + SERVICE;

  /** Drops its connection instead of answering, on the servers told to. */
  private static final MethodDescriptor<byte[], byte[]> DROP = drop("drop", false);
  private static final MethodDescriptor<byte[], byte[]> DROP_IDEMPOTENT = drop("dropIdempotent", true);
  /** A stream of requests whose first message drops the connection on the servers told to, else is counted. */
  private static final MethodDescriptor<byte[], byte[]> DROP_STREAM = MethodDescriptor.newBuilder(RAW, RAW)
      .serviceName("test.Drop").serviceVersion("1.0").methodName("dropStream").type(MethodType.CLIENT_STREAMING)
      .timeoutMillis(5_000).build();

  private final Closer closer = new Closer();
  private final InMemoryRegistry registry = new InMemoryRegistry("mem");
  private final List<Node> nodes = new ArrayList<>();

  /** One instance: a real server with its own counters. */
  private final class Node {
    final EchoService echo = new EchoService();
    final AtomicInteger dropCalls = new AtomicInteger();
    volatile boolean dropping;
    final BoltServer server;

    /** Requests its executor refused: each was answered SERVER_THREADPOOL_BUSY (see {@link #busyNode}). */
    final AtomicInteger refused = new AtomicInteger();

    Node(boolean register) {
      this(register, false);
    }

    Node(boolean register, boolean busy) {
      BoltServer.Builder builder = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition())
          .service(ServiceDefinition.builder("test.Drop", "1.0")
              .method(DROP, (request, call) -> dropOrAnswer(request, call))
              .method(DROP_IDEMPOTENT, (request, call) -> dropOrAnswer(request, call))
              .streamingMethod(DROP_STREAM, (requests, call) -> dropOrCount(requests, call))
              .build());
      if (register) {
        builder.registry(registry).drainTime(Duration.ofSeconds(5));
      }
      if (busy) {
        builder.executor(task -> {
          refused.incrementAndGet();
          throw new RejectedExecutionException("always busy");
        });
      }
      server = closer.track(builder.build().start());
    }

    private void dropOrAnswer(byte[] request, ServerCall call) {
      dropCalls.incrementAndGet();
      if (dropping) {
        ServerContext.current().connection().close();
      } else {
        call.respond(request);
      }
    }

    /** Reads the caller's stream: a dropping node closes the connection at its first message. */
    private void dropOrCount(java.util.concurrent.Flow.Publisher<byte[]> requests, ServerCall call) {
      dropCalls.incrementAndGet();
      Connection connection = call.context().connection();
      requests.subscribe(new java.util.concurrent.Flow.Subscriber<>() {
        private int count;

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription subscription) {
          subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(byte[] message) {
          count++;
          if (dropping) {
            connection.close();
          }
        }

        @Override
        public void onError(Throwable error) {
          call.fail(error);
        }

        @Override
        public void onComplete() {
          call.respond(bytes(Integer.toString(count)));
        }
      });
    }

    ServiceInstance instance() {
      return ServiceInstance.of(new InetSocketAddress("127.0.0.1", server.port()));
    }
  }

  private static MethodDescriptor<byte[], byte[]> drop(String name, boolean idempotent) {
    return MethodDescriptor.newBuilder(RAW, RAW).serviceName("test.Drop").serviceVersion("1.0").methodName(name)
        .timeoutMillis(5_000).idempotent(idempotent).build();
  }

  private Node node() {
    Node node = new Node(false);
    nodes.add(node);
    return node;
  }

  /** An instance whose executor refuses every request: each attempt is answered SERVER_THREADPOOL_BUSY. */
  private Node busyNode() {
    Node node = new Node(false, true);
    nodes.add(node);
    return node;
  }

  private void publish(String service, ServiceInstance... instances) {
    registry.set(service, List.of(instances));
  }

  private BoltClient client(BoltClient.Builder builder) {
    return closer.track(builder.nameResolver(registry).build());
  }

  @AfterEach
  void stop() throws Exception {
    for (Node n : nodes) {
      n.echo.release.countDown();
    }
    closer.close();
  }

  @Test
  void roundRobinSendsToEachInstanceInTurn() {
    Node a = node();
    Node b = node();
    Node c = node();
    publish(SERVICE, a.instance(), b.instance(), c.instance());
    BoltChannel channel = client(BoltClient.builder()).channel(TARGET, BalancingPolicy.ROUND_ROBIN);
    for (int i = 0; i < 300; i++) {
      assertThat(string(channel.invokeSync(ECHO, bytes("x" + i), CallOptions.DEFAULT))).isEqualTo("x" + i);
    }
    assertThat(List.of(a.echo.echoed.get(), b.echo.echoed.get(), c.echo.echoed.get())).containsOnly(100);
  }

  @Test
  void weightedRandomFollowsTheWeights() {
    Node a = node();
    Node b = node();
    Node c = node();
    Node idle = node();
    publish(SERVICE, a.instance().withWeight(100), b.instance().withWeight(200), c.instance().withWeight(700),
        idle.instance().withWeight(0));
    BoltChannel channel = client(BoltClient.builder().balancingPolicy(BalancingPolicy.WEIGHTED_RANDOM)).channel(TARGET);
    int calls = 4000;
    for (int i = 0; i < calls; i++) {
      channel.invokeSync(ECHO, bytes("w"), CallOptions.DEFAULT);
    }
    // each share is within 0.04 of its weight's share: over 5 standard deviations for 4,000 calls
    assertThat(a.echo.echoed.get() / (double) calls).isCloseTo(0.1, within(0.04));
    assertThat(b.echo.echoed.get() / (double) calls).isCloseTo(0.2, within(0.04));
    assertThat(c.echo.echoed.get() / (double) calls).isCloseTo(0.7, within(0.04));
    assertThat(idle.echo.echoed.get()).isZero();
  }

  @Test
  void leastPendingFollowsTheWeightsWhileNothingWaits() {
    Node a = node();
    Node b = node();
    Node idle = node();
    publish(SERVICE, a.instance().withWeight(100), b.instance().withWeight(300), idle.instance().withWeight(0));
    BoltChannel channel = client(BoltClient.builder()).channel(TARGET);
    int calls = 2000;
    for (int i = 0; i < calls; i++) {
      channel.invokeSync(ECHO, bytes("l"), CallOptions.DEFAULT);
    }
    assertThat(a.echo.echoed.get() / (double) calls).isCloseTo(0.25, within(0.05));
    assertThat(idle.echo.echoed.get()).isZero();
  }

  @Test
  void interceptorsSeeACallOnceWhateverItsAttempts() {
    Node a = node();
    int deadPort = deadPort();
    publish(SERVICE, ServiceInstance.of(new InetSocketAddress("127.0.0.1", deadPort)), a.instance());
    AtomicInteger seen = new AtomicInteger();
    List<ResponseStatus> outcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
    ClientInterceptor counting = call -> {
      seen.incrementAndGet();
      assertThat(call.remoteAddress().toString()).contains("test.Echo:1.0");
      return (status, error, nanos) -> outcomes.add(status);
    };
    BoltChannel channel = client(BoltClient.builder().clientInterceptor(counting))
        .channel(TARGET, BalancingPolicy.ROUND_ROBIN);
    for (int i = 0; i < 4; i++) {
      channel.invokeSync(ECHO, bytes("i"), CallOptions.DEFAULT);
    }
    assertThat(seen.get()).isEqualTo(4);
    await().atMost(Duration.ofSeconds(5)).until(() -> outcomes.size() == 4);
    assertThat(outcomes).containsOnly(ResponseStatus.SUCCESS);
    assertThat(a.echo.echoed.get()).isEqualTo(4);
  }

  private static int deadPort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void leastPendingStopsSendingToAnInstanceThatDoesNotAnswer() {
    Node stuck = node();
    Node b = node();
    Node c = node();
    stuck.echo.release = new CountDownLatch(1); // its SLOW calls wait until the test ends
    publish(SERVICE, stuck.instance(), b.instance(), c.instance());
    BoltChannel channel = client(BoltClient.builder()).channel(TARGET); // LEAST_PENDING is the default
    CallOptions patient = CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(30));
    List<CompletableFuture<byte[]>> toStuck = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      int before = stuck.echo.slowStarted.get();
      CompletableFuture<byte[]> call = channel.invokeFuture(SLOW, bytes("s" + i), patient);
      await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
          .until(() -> call.isDone() || stuck.echo.slowStarted.get() > before);
      if (!call.isDone()) {
        toStuck.add(call);
      }
    }
    // the stuck instance takes a call only while it has none waiting: once at most
    assertThat(stuck.echo.slowStarted.get()).isLessThanOrEqualTo(1);
    assertThat(b.echo.slowStarted.get() + c.echo.slowStarted.get()).isGreaterThanOrEqualTo(59);
    // round robin, by contrast, keeps sending it every third call
    BoltChannel roundRobin = client(BoltClient.builder()).channel(TARGET, BalancingPolicy.ROUND_ROBIN);
    int before = stuck.echo.slowStarted.get();
    List<CompletableFuture<byte[]>> more = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      more.add(roundRobin.invokeFuture(SLOW, bytes("r" + i), patient));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> stuck.echo.slowStarted.get() - before == 10);
    stuck.echo.release.countDown();
    CompletableFuture.allOf(more.toArray(new CompletableFuture<?>[0])).join();
    CompletableFuture.allOf(toStuck.toArray(new CompletableFuture<?>[0])).join();
  }

  @Test
  void anInstanceThatStopsAnsweringTakesOneProbeAtATimeWhateverThePolicy() {
    Node stuck = node();
    Node b = node();
    stuck.echo.release = new CountDownLatch(1); // its SLOW calls wait: a frozen process, its sockets still open
    publish(SERVICE, stuck.instance(), b.instance());
    BoltChannel channel = client(BoltClient.builder().stallTimeout(Duration.ofMillis(200)))
        .channel(TARGET, BalancingPolicy.ROUND_ROBIN);
    CallOptions brief = CallOptions.DEFAULT.withTimeout(Duration.ofMillis(100));
    long start = System.nanoTime();
    int timedOut = 0;
    for (int i = 0; i < 400; i++) {
      try {
        channel.invokeSync(SLOW, bytes("s" + i), brief);
      } catch (BoltException e) {
        assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT);
        timedOut++;
      }
    }
    long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
    // round robin would have sent it 200 of them; once it owes an answer for 200 ms it gets one per 200 ms
    assertThat(stuck.echo.slowStarted.get()).isEqualTo(timedOut).isLessThanOrEqualTo(3 + (int) (elapsedMillis / 200));
    assertThat(b.echo.slowStarted.get()).isEqualTo(400 - timedOut);

    stuck.echo.release.countDown(); // it resumes: its next probe is answered, and it takes its turn again
    int resumed = stuck.echo.slowStarted.get();
    await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).until(() -> {
      channel.invokeSync(SLOW, bytes("again"), CallOptions.DEFAULT);
      return stuck.echo.slowStarted.get() >= resumed + 5;
    });
  }

  @Test
  void aCallAbandonedAtItsTimeoutKeepsItsPlaceUntilTheInstanceAnswersIt() throws Exception {
    Node a = node();
    a.echo.release = new CountDownLatch(1); // its SLOW calls wait: they outlive their callers' timeouts
    publish(SERVICE, a.instance().withMetadata(java.util.Map.of(ServiceInstance.MAX_CONCURRENT_CALLS, "1")));
    BoltClient client = client(BoltClient.builder().capacityQueue(1).stallTimeout(Duration.ZERO));
    BoltChannel channel = client.channel(TARGET);

    assertThatThrownBy(() -> channel.invokeSync(SLOW, bytes("abandoned"), CallOptions.DEFAULT.withTimeoutMillis(100)))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
    await().atMost(Duration.ofSeconds(10)).until(() -> a.echo.slowStarted.get() == 1); // the instance still runs it
    CompletableFuture<byte[]> held = channel.invokeFuture(SLOW, bytes("held"),
        CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(20)));
    // the queue holds the one call it may: the next is refused at once, the place being still taken
    assertThatThrownBy(() -> channel.invokeSync(SLOW, bytes("refused"), CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(20))))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY);
          assertThat(e.getMessage()).contains("maxConcurrentCalls");
        });
    assertThat(held).isNotDone();
    assertThat(a.echo.slowStarted.get()).isEqualTo(1);

    a.echo.release.countDown(); // it answers the abandoned call late: the place is free, and the held call goes
    assertThat(string(held.get(20, TimeUnit.SECONDS))).isEqualTo("held");
    assertThat(a.echo.slowStarted.get()).isEqualTo(2);
  }

  @Test
  void aCallRefusedBusyIsSentElsewhereEvenIfNotIdempotent() {
    Node busy = busyNode();
    Node b = node();
    publish("test.Drop:1.0", busy.instance(), b.instance());
    BoltChannel channel = client(BoltClient.builder().ejection(1000, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .channel("mem:///test.Drop:1.0", BalancingPolicy.ROUND_ROBIN);
    for (int i = 0; i < 10; i++) { // the busy server answered before running anything: sending it again is safe
      assertThat(string(channel.invokeSync(DROP, bytes("n" + i), CallOptions.DEFAULT))).isEqualTo("n" + i);
    }
    assertThat(busy.refused.get()).isPositive();
    assertThat(b.dropCalls.get()).isEqualTo(10);
  }

  @Test
  void aCallMayChooseItsOwnPolicy() {
    Node a = node();
    Node b = node();
    publish(SERVICE, a.instance(), b.instance());
    BoltChannel channel = client(BoltClient.builder().balancingPolicy(BalancingPolicy.WEIGHTED_RANDOM)).channel(TARGET);
    CallOptions roundRobin = CallOptions.DEFAULT.withBalancingPolicy(BalancingPolicy.ROUND_ROBIN);
    for (int i = 0; i < 10; i++) {
      channel.invokeSync(ECHO, bytes("p"), roundRobin);
    }
    assertThat(a.echo.echoed.get()).isEqualTo(5);
    assertThat(b.echo.echoed.get()).isEqualTo(5);
  }

  @Test
  void instancesThatJoinTakeCallsAndThoseThatLeaveAreDisconnectedOnceIdle() {
    Node a = node();
    Node b = node();
    publish(SERVICE, a.instance());
    BoltClient client = client(BoltClient.builder());
    BoltChannel channel = client.channel(TARGET, BalancingPolicy.ROUND_ROBIN);
    channel.invokeSync(ECHO, bytes("1"), CallOptions.DEFAULT);
    assertThat(client.instances(TARGET)).containsExactly(a.instance());

    publish(SERVICE, a.instance(), b.instance());
    assertThat(client.instances(TARGET)).containsExactlyInAnyOrder(a.instance(), b.instance());
    for (int i = 0; i < 4; i++) {
      channel.invokeSync(ECHO, bytes("2"), CallOptions.DEFAULT);
    }
    assertThat(b.echo.echoed.get()).isEqualTo(2);

    publish(SERVICE, b.instance());
    await().atMost(Duration.ofSeconds(5)).until(() -> a.server.connections().isEmpty());
    for (int i = 0; i < 4; i++) {
      channel.invokeSync(ECHO, bytes("3"), CallOptions.DEFAULT);
    }
    assertThat(a.echo.echoed.get()).isEqualTo(3);
    assertThat(b.echo.echoed.get()).isEqualTo(6);
  }

  @Test
  void aCallInFlightOnAnInstanceThatLeavesIsStillAnswered() throws Exception {
    Node a = node();
    Node b = node();
    a.echo.release = new CountDownLatch(1);
    publish(SERVICE, a.instance());
    BoltChannel channel = client(BoltClient.builder()).channel(TARGET);
    CompletableFuture<byte[]> call = channel.invokeFuture(SLOW, bytes("late"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(5)).until(() -> a.echo.slowStarted.get() == 1);
    publish(SERVICE, b.instance());
    assertThat(a.server.connections()).hasSize(1); // kept while its call waits
    a.echo.release.countDown();
    assertThat(string(call.get(5, TimeUnit.SECONDS))).isEqualTo("late");
    await().atMost(Duration.ofSeconds(5)).until(() -> a.server.connections().isEmpty());
  }

  @Test
  void callsGoAroundAnInstanceThatIsDownWithoutFailing() throws Exception {
    Node a = node();
    Node b = node();
    int deadPort = deadPort();
    publish(SERVICE, a.instance(), b.instance(),
        ServiceInstance.of(new InetSocketAddress("127.0.0.1", deadPort)));
    BoltChannel channel = client(BoltClient.builder()).channel(TARGET, BalancingPolicy.ROUND_ROBIN);
    for (int i = 0; i < 100; i++) {
      assertThat(string(channel.invokeSync(ECHO, bytes("d" + i), CallOptions.DEFAULT))).isEqualTo("d" + i);
    }
    assertThat(a.echo.echoed.get() + b.echo.echoed.get()).isEqualTo(100);
  }

  @Test
  void aCallWhoseRequestWasWrittenIsNotSentAgainUnlessIdempotent() {
    Node dropping = node();
    Node healthy = node();
    dropping.dropping = true;
    publish("test.Drop:1.0", dropping.instance(), healthy.instance());
    BoltChannel channel = client(BoltClient.builder()).channel("mem:///test.Drop:1.0", BalancingPolicy.ROUND_ROBIN);

    int failed = 0;
    for (int i = 0; i < 10; i++) {
      try {
        channel.invokeSync(DROP, bytes("n"), CallOptions.DEFAULT);
      } catch (BoltException e) {
        assertThat(e.status()).isEqualTo(ResponseStatus.CONNECTION_CLOSED);
        failed++;
      }
    }
    assertThat(failed).isPositive().isEqualTo(dropping.dropCalls.get()); // each reached it once, none again
    int healthyBefore = healthy.dropCalls.get();
    assertThat(healthyBefore).isEqualTo(10 - failed);

    for (int i = 0; i < 10; i++) {
      assertThat(string(channel.invokeSync(DROP_IDEMPOTENT, bytes("i" + i), CallOptions.DEFAULT)))
          .isEqualTo("i" + i);
    }
    assertThat(healthy.dropCalls.get() - healthyBefore).isEqualTo(10);
  }

  /**
   * A stream of requests whose messages began to leave is never sent to another instance, idempotent or not: the
   * other would miss what the first was sent. Each call reached one instance once.
   */
  @Test
  void aStreamOfRequestsThatBeganToLeaveIsNeverSentAgain() throws Exception {
    Node dropping = node();
    Node healthy = node();
    dropping.dropping = true;
    publish("test.Drop:1.0", dropping.instance(), healthy.instance());
    BoltChannel channel = client(BoltClient.builder()).channel("mem:///test.Drop:1.0", BalancingPolicy.ROUND_ROBIN);

    int failed = 0;
    int answered = 0;
    for (int i = 0; i < 6; i++) {
      CompletableFuture<byte[]> sum = channel.invokeClientStream(DROP_STREAM,
          Publishers.of(List.of(bytes("a"), bytes("b"), bytes("c"))), CallOptions.DEFAULT.withIdempotent(true));
      try {
        assertThat(string(sum.get(10, TimeUnit.SECONDS))).isEqualTo("3");
        answered++;
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).isInstanceOfSatisfying(BoltException.class,
            b -> assertThat(b.status()).isEqualTo(ResponseStatus.CONNECTION_CLOSED));
        failed++;
      }
    }
    assertThat(failed).isPositive().isEqualTo(dropping.dropCalls.get()); // each reached it once, none again
    assertThat(answered).isPositive().isEqualTo(healthy.dropCalls.get());
  }

  @Test
  void retriesStopAtMaxAttemptsAndAtTheBudget() {
    // busy instances: every attempt reaches one and is answered SERVER_THREADPOOL_BUSY, an instance fault that
    // an idempotent call may be sent again after
    Node a = busyNode();
    Node b = busyNode();
    publish("test.Drop:1.0", a.instance(), b.instance());
    String target = "mem:///test.Drop:1.0";
    BoltChannel twoAttempts = client(BoltClient.builder().retries(2, 1000, 0)
        .ejection(1000, Duration.ofSeconds(1), Duration.ofSeconds(1))).channel(target, BalancingPolicy.ROUND_ROBIN);
    for (int i = 0; i < 5; i++) {
      assertThatThrownBy(() -> twoAttempts.invokeSync(DROP_IDEMPOTENT, bytes("x"), CallOptions.DEFAULT))
          .isInstanceOfSatisfying(BoltException.class,
              e -> assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY));
    }
    assertThat(a.refused.get() + b.refused.get()).isEqualTo(10);

    BoltChannel budgetOfThree = client(BoltClient.builder().retries(5, 3, 0)
        .ejection(1000, Duration.ofSeconds(1), Duration.ofSeconds(1))).channel(target, BalancingPolicy.ROUND_ROBIN);
    int before = a.refused.get() + b.refused.get();
    for (int i = 0; i < 5; i++) {
      assertThatThrownBy(() -> budgetOfThree.invokeSync(DROP_IDEMPOTENT, bytes("y"), CallOptions.DEFAULT))
          .isInstanceOf(BoltException.class);
    }
    assertThat(a.refused.get() + b.refused.get() - before).isEqualTo(5 + 3);
  }

  @Test
  void aCallsOwnAttemptLimitAndIdempotenceOverrideTheClientsAndTheMethods() {
    // busy instances answer every attempt SERVER_THREADPOOL_BUSY, unrun: any call may be sent again, up to its limit
    Node a = busyNode();
    Node b = busyNode();
    publish("test.Drop:1.0", a.instance(), b.instance());
    BoltChannel channel = client(BoltClient.builder().retries(2, 1000, 0)
        .ejection(1000, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .channel("mem:///test.Drop:1.0", BalancingPolicy.ROUND_ROBIN);
    assertThat(attempts(a, b, () -> channel.invokeSync(DROP_IDEMPOTENT, bytes("x"),
        CallOptions.DEFAULT.withMaxAttempts(4)))).as("four attempts instead of the client's two").isEqualTo(4);
    assertThat(attempts(a, b, () -> channel.invokeSync(DROP_IDEMPOTENT, bytes("x"),
        CallOptions.DEFAULT.withMaxAttempts(1)))).as("one attempt: failover off").isEqualTo(1);
    assertThat(attempts(a, b, () -> channel.invokeSync(DROP, bytes("x"), CallOptions.DEFAULT)))
        .as("refused unrun: sent again although the method is not idempotent").isEqualTo(2);

    // instances that drop the connection of the call they receive: it was written, and may have run
    Node c = node();
    Node d = node();
    c.dropping = true;
    d.dropping = true;
    publish("test.Drop:1.0", c.instance(), d.instance());
    assertThat(drops(c, d, CallOptions.DEFAULT.withIdempotent(false), DROP_IDEMPOTENT))
        .as("an @Idempotent method declared not idempotent").isEqualTo(1);
    assertThat(drops(c, d, CallOptions.DEFAULT, DROP)).as("a method that is not idempotent").isEqualTo(1);
    assertThat(drops(c, d, CallOptions.DEFAULT.withIdempotent(true), DROP)).as("declared idempotent for this call")
        .isEqualTo(2);
    assertThatThrownBy(() -> CallOptions.DEFAULT.withMaxAttempts(0)).isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * How many attempts of one call with {@code options}, which must fail with its connection, reached the two
   * dropping instances; each time from a client of its own, whose connections are all new.
   */
  private int drops(Node c, Node d, CallOptions options, MethodDescriptor<byte[], byte[]> method) {
    BoltChannel channel = client(BoltClient.builder().retries(2, 1000, 0)
        .ejection(1000, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .channel("mem:///test.Drop:1.0", BalancingPolicy.ROUND_ROBIN);
    int before = c.dropCalls.get() + d.dropCalls.get();
    assertThatThrownBy(() -> channel.invokeSync(method, bytes("x"), options)).isInstanceOfSatisfying(
        BoltException.class, e -> assertThat(e.status()).isEqualTo(ResponseStatus.CONNECTION_CLOSED));
    return c.dropCalls.get() + d.dropCalls.get() - before;
  }

  /** How many attempts of {@code call}, which must fail, reached the two busy instances. */
  private static int attempts(Node a, Node b, org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    int before = a.refused.get() + b.refused.get();
    assertThatThrownBy(call).isInstanceOfSatisfying(BoltException.class,
        e -> assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_THREADPOOL_BUSY));
    return a.refused.get() + b.refused.get() - before;
  }

  @Test
  void callsMadeBeforeTheFirstResolutionWaitForIt() throws Exception {
    Node a = node();
    registry.hold();
    BoltChannel channel = client(BoltClient.builder()).channel(TARGET);
    CompletableFuture<byte[]> early = channel.invokeFuture(ECHO, bytes("early"), CallOptions.DEFAULT);
    assertThat(early).isNotDone();
    publish(SERVICE, a.instance());
    registry.release();
    assertThat(string(early.get(5, TimeUnit.SECONDS))).isEqualTo("early");
  }

  @Test
  void aCallThatTimesOutBeforeTheFirstResolutionIsNeverSentLater() throws Exception {
    Node a = node();
    registry.hold();
    BoltChannel channel = client(BoltClient.builder()).channel(TARGET);
    CompletableFuture<byte[]> late = channel.invokeFuture(ECHO, bytes("late"),
        CallOptions.DEFAULT.withTimeout(Duration.ofMillis(50)));
    assertThatThrownBy(() -> late.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(BoltException.class)
        .cause().satisfies(e -> assertThat(((BoltException) e).status()).isEqualTo(ResponseStatus.TIMEOUT));
    publish(SERVICE, a.instance());
    registry.release();
    assertThat(string(channel.invokeSync(ECHO, bytes("now"), CallOptions.DEFAULT))).isEqualTo("now");
    assertThat(a.echo.echoed.get()).as("only the call made after the resolution").isEqualTo(1);
  }

  @Test
  void aServiceWithoutInstancesFailsAtOnceSayingSo() {
    publish(SERVICE);
    BoltChannel channel = client(BoltClient.builder()).channel(TARGET);
    assertThatThrownBy(() -> channel.invokeSync(ECHO, bytes("none"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.ERROR_COMM);
          assertThat(e.getMessage()).contains(TARGET, "lists none");
        });
  }

  @Test
  void targetsAreCheckedAndStaticOnesNeedNoResolver() {
    Node a = node();
    Node b = node();
    BoltClient client = closer.track(BoltClient.builder().build());
    assertThatThrownBy(() -> client.channel("etcd:///x:1.0")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no resolver for etcd");
    assertThatThrownBy(() -> client.channel("mem://host/x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("three slashes");
    assertThatThrownBy(() -> client.channel("static:///")).isInstanceOf(IllegalArgumentException.class);
    BoltChannel fixed = client.channel("static:///127.0.0.1:" + a.server.port() + ", 127.0.0.1:" + b.server.port(),
        BalancingPolicy.ROUND_ROBIN);
    for (int i = 0; i < 4; i++) {
      fixed.invokeSync(ECHO, bytes("s"), CallOptions.DEFAULT);
    }
    assertThat(a.echo.echoed.get()).isEqualTo(2);
    assertThat(b.echo.echoed.get()).isEqualTo(2);
  }

  @Test
  void aServerWithARegistryRegistersAndOnCloseLeavesWithoutFailingACall() throws Exception {
    for (int i = 0; i < 3; i++) {
      nodes.add(new Node(true));
    }
    BoltClient client = client(BoltClient.builder());
    BoltChannel channel = client.channel(TARGET);
    await().atMost(Duration.ofSeconds(5)).until(() -> client.instances(TARGET).size() == 3);
    assertThat(client.instances(TARGET)).allSatisfy(i -> assertThat(i.version()).isEqualTo("1.0"));

    Load load = new Load(channel, 4);
    try {
      // a rolling restart: each server closes gracefully once a replacement serves
      for (int round = 0; round < 3; round++) {
        Node old = nodes.get(round);
        nodes.add(new Node(true));
        load.awaitMore(200);
        old.server.close();
        assertThat(client.instances(TARGET)).doesNotContain(old.instance());
        load.awaitMore(200);
      }
    } finally {
      load.stop();
    }
    assertThat(load.failures).isEmpty();
    assertThat(load.ok.get()).isGreaterThanOrEqualTo(1200);
  }

  @Test
  void aClosingServerWaitsForItsClientsNoLongerThanItsDrainTime() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(new EchoService().definition())
        .registry(registry).drainTime(Duration.ofMillis(300)).build().start());
    // a client that never resolves the service: it does not move away when the server deregisters
    BoltClient plain = closer.track(BoltClient.builder().build());
    plain.channel("127.0.0.1:" + server.port()).invokeSync(ECHO, bytes("stay"), CallOptions.DEFAULT);
    assertThat(server.connections()).hasSize(1);

    CompletableFuture<Void> closed = CompletableFuture.runAsync(server::close);
    await().atMost(Duration.ofSeconds(5)).until(() -> registry.current(SERVICE).isEmpty()); // deregistered first
    closed.get(10, TimeUnit.SECONDS); // the drain ends at its time although the client stayed
    await().atMost(Duration.ofSeconds(5)).until(() -> plain.connections().isEmpty());
  }

  /** Callers that send echo calls back to back until stopped, keeping every failure. */
  private static final class Load {
    final AtomicInteger ok = new AtomicInteger();
    final List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    Load(BoltChannel channel, int callers) {
      for (int t = 0; t < callers; t++) {
        Thread thread = new Thread(() -> {
          while (running) {
            try {
              channel.invokeSync(ECHO, bytes("load"), CallOptions.DEFAULT);
              ok.incrementAndGet();
            } catch (RuntimeException e) {
              failures.add(e);
            }
          }
        }, "load-" + t);
        thread.start();
        threads.add(thread);
      }
    }

    void awaitMore(int calls) {
      int target = ok.get() + calls;
      await().atMost(Duration.ofSeconds(20)).until(() -> ok.get() >= target || !failures.isEmpty());
    }

    void stop() throws InterruptedException {
      running = false;
      for (Thread t : threads) {
        t.join(10_000);
      }
    }
  }
}
