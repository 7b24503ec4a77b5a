package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.EtcdProcess;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** With etcd down or silent, registering fails clearly within the request timeout, and watches keep trying. */
class EtcdDownTest {

  private static final Duration TIMEOUT = Duration.ofMillis(500);
  /** Scheduling slack on a busy two-core machine. */
  private static final Duration SLACK = Duration.ofMillis(400);

  private static final ServiceInstance INSTANCE = ServiceInstance.of(new InetSocketAddress("127.0.0.1", 20001));

  @Test
  void registeringWithNothingListeningFailsAtOnceNamingTheEndpoints() {
    int port = EtcdProcess.freePort();
    int other = EtcdProcess.freePort();
    try (EtcdRegistry registry = EtcdRegistry.builder()
        .endpoints("http://127.0.0.1:" + port, "http://127.0.0.1:" + other).requestTimeout(TIMEOUT).build()) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> registry.register("down.Service", INSTANCE))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("could not register /boltgen/services/down.Service/127.0.0.1:20001")
          .hasMessageContaining("127.0.0.1:" + port)
          .hasMessageContaining("127.0.0.1:" + other)
          .hasMessageContaining("connection refused");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.plus(SLACK));
    }
  }

  @Test
  void registeringWithAnEtcdThatNeverAnswersFailsWithinTheRequestTimeout() throws Exception {
    // connections complete in the backlog, and nothing ever answers
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        EtcdRegistry registry = EtcdRegistry.builder().endpoints("http://127.0.0.1:" + silent.getLocalPort())
            .requestTimeout(TIMEOUT).build()) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> registry.register("silent.Service", INSTANCE))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("127.0.0.1:" + silent.getLocalPort());
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took).isGreaterThanOrEqualTo(TIMEOUT.minusMillis(50)).isLessThan(TIMEOUT.plus(SLACK));
    }
  }

  @Test
  void aWatchOfAnUnreachableEtcdReportsOnceAndKeepsTrying() {
    int port = EtcdProcess.freePort();
    try (EtcdRegistry registry = EtcdRegistry.builder().endpoints("http://127.0.0.1:" + port)
        .requestTimeout(TIMEOUT).build()) {
      Recorder seen = new Recorder();
      NameResolver.Watch watch = registry.watch("down.Watched", seen);
      await().atMost(Duration.ofSeconds(2)).until(() -> !seen.errors.isEmpty());
      // retries go on (100 ms doubling to 2 s) without telling the listener again
      await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> seen.errors.size() == 1);
      assertThat(seen.errors.get(0)).hasMessageContaining("127.0.0.1:" + port);
      assertThat(seen.updates).isEmpty();
      watch.close();
    }
  }

  @Test
  void aClosedRegistryRefusesWork() {
    EtcdRegistry registry = EtcdRegistry.connect("127.0.0.1:" + EtcdProcess.freePort());
    registry.close();
    registry.close();
    assertThatThrownBy(() -> registry.register("closed.Service", INSTANCE)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> registry.watch("closed.Service", instances -> { }))
        .isInstanceOf(IllegalStateException.class);
  }
}
