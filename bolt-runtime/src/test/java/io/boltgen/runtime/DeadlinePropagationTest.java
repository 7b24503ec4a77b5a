package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A served call's deadline flows into the calls its handler makes: a call made on the handler's thread
 * inherits what is left of it (over Bolt here, over Connect in bolt-http's subclass), a shorter timeout of its
 * own wins, a call made on
 * another thread inherits it when given the context's deadline and not otherwise, and a call whose deadline
 * already passed fails at once with TIMEOUT, sending nothing. The backend answers the timeout its request
 * carried on the wire, which is how much of the deadline reached it.
 */
class DeadlinePropagationTest {

  private static final Duration BOUND = Duration.ofSeconds(10);
  /** The backend method's own timeout: what a call that inherits nothing sends. */
  private static final int BACKEND_TIMEOUT_MILLIS = 30_000;

  private static final MethodDescriptor<byte[], byte[]> TIMEOUT_SEEN =
      EchoService.method("test.Backend", "timeoutSeen", 1, MethodType.REQUEST_RESPONSE, BACKEND_TIMEOUT_MILLIS);
  private final MethodDescriptor<byte[], byte[]> relayMethod =
      EchoService.method("test.Front", "relay", 1, MethodType.REQUEST_RESPONSE, 20_000, extensions());

  private final AtomicInteger backendCalls = new AtomicInteger();
  private final LinkedBlockingQueue<Throwable> frontFailures = new LinkedBlockingQueue<>();
  private final ExecutorService elsewhere = Executors.newSingleThreadExecutor();
  private BoltServer backend;
  BoltServer front;
  private BoltClient frontClient;
  private BoltClient client;

  @BeforeEach
  void start() {
    backend = BoltServer.builder().bind("127.0.0.1", 0)
        .service(ServiceDefinition.builder("test.Backend", "1.0").method(TIMEOUT_SEEN, (request, call) -> {
          backendCalls.incrementAndGet();
          call.respond(bytes(Integer.toString(call.context().clientTimeoutMillis())));
        }).build())
        .build().start();
    frontClient = BoltClient.builder().build();
    BoltChannel toBackend = frontClient.channel("127.0.0.1:" + backend.port());
    front = BoltServer.builder().bind("127.0.0.1", 0)
        .service(ServiceDefinition.builder("test.Front", "1.0").method(relayMethod, (request, call) -> {
          ServerContext context = call.context();
          switch (string(request)) {
            case "inherit" -> call.respond(toBackend.invokeSync(TIMEOUT_SEEN, bytes("x"), CallOptions.DEFAULT));
            case "shorter" -> call.respond(toBackend.invokeSync(TIMEOUT_SEEN, bytes("x"),
                CallOptions.DEFAULT.withTimeoutMillis(300)));
            case "passed on" -> {
              Deadline deadline = context.deadline();
              elsewhere.execute(() -> relay(call, () -> toBackend.invokeSync(TIMEOUT_SEEN, bytes("x"),
                  CallOptions.DEFAULT.withDeadline(deadline))));
            }
            case "not passed on" -> elsewhere.execute(() -> relay(call,
                () -> toBackend.invokeSync(TIMEOUT_SEEN, bytes("x"), CallOptions.DEFAULT)));
            case "after the deadline" -> {
              // waits until the served call's deadline passed (a condition, polled), then calls
              long end = System.nanoTime() + BOUND.toNanos();
              while (context.deadline().timeRemaining(TimeUnit.NANOSECONDS) > 0 && System.nanoTime() < end) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
              }
              relay(call, () -> toBackend.invokeSync(TIMEOUT_SEEN, bytes("x"), CallOptions.DEFAULT));
            }
            default -> throw new IllegalArgumentException(string(request));
          }
        }).build())
        .http(http())
        .build().start();
    client = BoltClient.builder().build();
  }

  private void relay(ServerCall call, java.util.concurrent.Callable<byte[]> backendCall) {
    try {
      call.respond(backendCall.call());
    } catch (Exception e) {
      frontFailures.add(e);
      call.fail(e);
    }
  }

  /** Whether the front server serves HTTP too (bolt-http's subclass calls it over Connect). */
  boolean http() {
    return false;
  }

  /** What the front's method is built with besides (bolt-http's subclass adds its JSON forms). */
  UnaryOperator<MethodDescriptor.Builder<byte[], byte[]>> extensions() {
    return UnaryOperator.identity();
  }

  @AfterEach
  void stop() {
    client.close();
    front.close();
    frontClient.close();
    backend.close();
    elsewhere.shutdownNow();
  }

  private int viaBolt(String mode, long timeoutMillis) {
    BoltChannel channel = client.channel("127.0.0.1:" + front.port());
    return Integer.parseInt(string(channel.invokeSync(relayMethod, bytes(mode),
        CallOptions.DEFAULT.withTimeoutMillis(timeoutMillis))));
  }

  @Test
  void aCallOnTheHandlersThreadInheritsWhatIsLeftOfTheDeadline() {
    assertThat(viaBolt("inherit", 2_000)).isBetween(1, 2_000);
    assertThat(viaBolt("inherit", 20_000)).isBetween(1, 20_000);
  }

  @Test
  void aShorterTimeoutOfItsOwnWins() {
    assertThat(viaBolt("shorter", 5_000)).isBetween(1, 300);
  }

  @Test
  void aCallOnAnotherThreadInheritsTheDeadlineOnlyWhenGivenIt() {
    assertThat(viaBolt("passed on", 2_000)).isBetween(1, 2_000);
    // the timeout field says what is left when the frame is encoded: the backend's own 30 s, less a little
    assertThat(viaBolt("not passed on", 2_000)).isBetween(BACKEND_TIMEOUT_MILLIS - 5_000, BACKEND_TIMEOUT_MILLIS);
  }

  @Test
  void aCallWhoseInheritedDeadlinePassedFailsAtOnceSendingNothing() throws Exception {
    BoltChannel channel = client.channel("127.0.0.1:" + front.port());
    assertThatThrownBy(() -> channel.invokeSync(relayMethod, bytes("after the deadline"),
        CallOptions.DEFAULT.withTimeoutMillis(100)))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
    Throwable failure = frontFailures.poll(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(failure).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT);
      assertThat(e.getMessage()).contains("test.Backend:1.0/timeoutSeen", "was not sent",
          "deadline of the call its handler serves");
    });
    assertThat(backendCalls).hasValue(0);
  }

  @Test
  void aCallWhoseOptionsDeadlinePassedFailsAtOnceSendingNothing() {
    BoltChannel channel = client.channel("127.0.0.1:" + backend.port());
    assertThatThrownBy(() -> channel.invokeSync(TIMEOUT_SEEN, bytes("x"),
        CallOptions.DEFAULT.withDeadline(Deadline.after(-1, TimeUnit.MILLISECONDS))))
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT);
          assertThat(e.getMessage()).contains("was not sent", "its deadline");
        });
    assertThatThrownBy(() -> channel.invokeFuture(TIMEOUT_SEEN, bytes("x"),
        CallOptions.DEFAULT.withDeadline(Deadline.after(0, TimeUnit.MILLISECONDS))).join())
        .hasCauseInstanceOf(BoltException.class);
    assertThat(backendCalls).hasValue(0);
    // with a timeout too, the earlier of the two wins
    assertThat(Integer.parseInt(string(channel.invokeSync(TIMEOUT_SEEN, bytes("x"),
        CallOptions.DEFAULT.withTimeoutMillis(400).withDeadline(Deadline.after(Duration.ofMinutes(5)))))))
        .isBetween(300, 400);
    // alone, it stands in for the method's timeout (30 s), later or not
    assertThat(Integer.parseInt(string(channel.invokeSync(TIMEOUT_SEEN, bytes("x"),
        CallOptions.DEFAULT.withDeadline(Deadline.after(Duration.ofMinutes(1)))))))
        .isBetween(55_000, 60_000);
  }
}
