package io.boltgen.spring.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.spring.BoltServerLifecycle;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sample application started and closed by each test (real contexts, real ports): timeouts from
 * properties, health going DOWN, and a shutdown that drains a call in flight.
 */
class SampleLifecycleTest {

  private static final String SERVER = "--boltgen.server.port=0";
  private static final String LOOPBACK = "--boltgen.server.host=127.0.0.1";
  private static final String TARGET = "--boltgen.client.services[sample.Greeter].target=";
  private static final String SELF = TARGET + "127.0.0.1:${local.boltgen.server.port}";

  private final ExecutorService callers = Executors.newCachedThreadPool();
  private ConfigurableApplicationContext context;

  @AfterEach
  void stop() throws InterruptedException {
    if (context != null) {
      context.getBean(Gate.class).open();
      context.close();
    }
    callers.shutdown();
    assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  private ConfigurableApplicationContext run(String... args) {
    context = new SpringApplicationBuilder(SampleApplication.class).run(args);
    return context;
  }

  @Test
  void aTimeoutPropertyMakesASlowCallFailWithTheRuntimesTimeout() {
    run(SERVER, LOOPBACK, SELF, "--boltgen.client.services[sample.Greeter].timeout=150ms");
    Greeter greeter = context.getBean(Greeter.class);

    assertThatThrownBy(() -> greeter.greetSlowly(new Name("late")))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
    assertThat(greeter.greet(new Name("quick"))).isEqualTo(new Greeting("hello quick"));
  }

  @Test
  void aMethodsTimeoutPropertyWinsOverTheServicesWhichWinsOverTheAnnotations() {
    run(SERVER, LOOPBACK, SELF, "--boltgen.client.services[sample.Greeter].timeout=20s",
        "--boltgen.client.services[sample.Greeter].methods.greetSlowly.timeout=150ms");
    Greeter greeter = context.getBean(Greeter.class);

    long start = System.nanoTime();
    assertThatThrownBy(() -> greeter.greetSlowly(new Name("late")))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
    // the method's 150 ms, not the service's 20 s nor @BoltService's 5 s (an upper bound: a busy machine is slower)
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(greeter.greet(new Name("quick"))).isEqualTo(new Greeting("hello quick"));
  }

  @Test
  void closingTheContextDrainsACallInFlight() throws Exception {
    run(SERVER, LOOPBACK, SELF, "--boltgen.server.shutdown-timeout=20s");
    Greeter greeter = context.getBean(Greeter.class);
    Gate gate = context.getBean(Gate.class);
    BoltServerLifecycle lifecycle = context.getBean(BoltServerLifecycle.class);

    Future<Greeting> slow = callers.submit(() -> greeter.greetSlowly(new Name("draining")));
    gate.awaitArrival();
    CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close, callers);
    await().atMost(Duration.ofSeconds(10)).until(() -> !lifecycle.isRunning());
    assertThat(closed).isNotDone(); // the server waits for the handler that is still running
    gate.open();

    assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo(new Greeting("slowly, hello draining"));
    closed.get(10, TimeUnit.SECONDS);
    assertThat(context.isActive()).isFalse();
    context = null;
  }

  @Test
  void healthGoesDownWhenTheServerStops() {
    run(SERVER, LOOPBACK, SELF);
    HealthEndpoint health = context.getBean(HealthEndpoint.class);
    assertThat(context.getBean(Greeter.class).greet(new Name("up"))).isEqualTo(new Greeting("hello up"));
    assertThat(health.health().getStatus()).isEqualTo(Status.UP);

    context.getBean(BoltServerLifecycle.class).stop();

    assertThat(health.healthForPath("boltServer").getStatus()).isEqualTo(Status.DOWN);
    // the client's connection drops, and no new one can be made: its target is down too
    await().atMost(Duration.ofSeconds(10))
        .until(() -> health.healthForPath("boltClients").getStatus().equals(Status.DOWN));
    assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
  }

  @Test
  void aClientWhoseTargetIsDownIsDownAndItsCallsFail() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    run(TARGET + "127.0.0.1:" + closedPort);
    HealthEndpoint health = context.getBean(HealthEndpoint.class);

    assertThat(context.getBeansOfType(BoltServerLifecycle.class)).isEmpty();
    assertThat(health.healthForPath("boltClients").getStatus()).isEqualTo(Status.DOWN);
    assertThatThrownBy(() -> context.getBean(Greeter.class).greet(new Name("nobody")))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status()).isEqualTo(ResponseStatus.ERROR_COMM));
  }
}
