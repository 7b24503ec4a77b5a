package io.boltgen.micrometer;

import static io.boltgen.micrometer.TestService.ECHO;
import static io.boltgen.micrometer.TestService.SLOW;
import static io.boltgen.micrometer.TestService.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.testing.Closer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Gauges per remote from connection events: a client's per server ({@code host:port}), a server's per client
 * host; they read the connections of their remote, and go away with its last connection.
 */
class RemoteMetricsTest {

  private final Closer closer = new Closer();
  private final TestService service = new TestService();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @AfterEach
  void close() throws Exception {
    service.release.countDown();
    closer.close();
  }

  private double gauge(String name, String remote) {
    Gauge g = meters.find(name).tag("remote", remote).gauge();
    return g == null ? Double.NaN : g.value();
  }

  @Test
  void eachRemoteHasItsGaugesWhileItHasConnections() throws Exception {
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(service.definition())
        .connectionListener(BoltRemoteMetrics.server(meters, Tags.of("app", "test"))).build().start());
    BoltClient client = BoltClient.builder()
        .connectionListener(BoltRemoteMetrics.client(meters, Tags.of("app", "test"))).build();
    String target = "127.0.0.1:" + server.port();
    BoltChannel channel = client.channel(target);
    assertThat(channel.invokeSync(ECHO, bytes("a"), CallOptions.DEFAULT)).isEqualTo(bytes("a"));
    await().atMost(Duration.ofSeconds(5)).until(() -> gauge("boltgen.client.remote.connections", target) == 1
        && gauge("boltgen.server.remote.connections", "127.0.0.1") == 1);
    service.release = new CountDownLatch(1);
    CompletableFuture<byte[]> slow = channel.invokeFuture(SLOW, bytes("s"), CallOptions.DEFAULT);
    await().atMost(Duration.ofSeconds(5)).until(() -> gauge("boltgen.client.remote.pending.calls", target) == 1);
    assertThat(gauge("boltgen.client.remote.queued.bytes", target)).isZero();
    assertThat(meters.find("boltgen.client.remote.connections").tag("app", "test").gauges()).hasSize(1);
    service.release.countDown();
    assertThat(slow.get(5, TimeUnit.SECONDS)).isEqualTo(bytes("s"));
    client.close();
    await().atMost(Duration.ofSeconds(5)).until(() -> meters.find("boltgen.client.remote.connections").gauges()
        .isEmpty() && meters.find("boltgen.server.remote.connections").gauges().isEmpty());
  }
}
