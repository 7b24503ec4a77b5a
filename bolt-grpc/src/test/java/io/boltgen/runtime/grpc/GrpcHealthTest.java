package io.boltgen.runtime.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.testing.EtcdProcess;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's own health client ({@code grpc.health.v1.Health/Check}, from grpc-services) against a boltgen server:
 * the server and each service it serves are {@code SERVING}, another service is {@code NOT_FOUND}, and a server that
 * began to close reports {@code NOT_SERVING} while it drains (registered in a real etcd, which it leaves first).
 */
class GrpcHealthTest {

  private final EchoService echo = new EchoService();
  private BoltServer server;
  private ManagedChannel grpc;

  @AfterEach
  void stop() throws InterruptedException {
    if (grpc != null) {
      grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
  }

  private HealthCheckResponse.ServingStatus check(String service) {
    return HealthGrpc.newBlockingStub(grpc).withDeadlineAfter(10, TimeUnit.SECONDS)
        .check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
  }

  @Test
  void theServerAndItsServicesAreServingAndOthersAreNotFound() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true).build().start();
    grpc = GrpcJava.plaintext(server.port());
    assertThat(check("")).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    assertThat(check("test.Echo")).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    StatusRuntimeException unknown = catchThrowableOfType(StatusRuntimeException.class, () -> check("test.Nope"));
    assertThat(unknown.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(unknown.getStatus().getDescription()).isEqualTo("unknown service test.Nope");
    StatusRuntimeException watch = catchThrowableOfType(StatusRuntimeException.class, () -> HealthGrpc
        .newBlockingStub(grpc).withDeadlineAfter(10, TimeUnit.SECONDS).watch(HealthCheckRequest.getDefaultInstance())
        .hasNext());
    assertThat(watch.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
  }

  @Test
  void aClosingServerIsNotServingWhileItDrains() throws Exception {
    try (EtcdProcess etcd = EtcdProcess.start();
        EtcdRegistry registry = EtcdRegistry.builder().endpoints(etcd.clientUrl()).build()) {
      drain(registry);
    }
  }

  private void drain(EtcdRegistry registry) throws Exception {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true)
        .registry(registry).drainTime(Duration.ofSeconds(30)).build().start();
    grpc = GrpcJava.plaintext(server.port());
    assertThat(check("test.Echo")).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    // the drain waits for connected clients, this channel's connection among them
    CompletableFuture<Void> closed = CompletableFuture.runAsync(server::close);
    await().atMost(Duration.ofSeconds(10))
        .until(() -> check("test.Echo") == HealthCheckResponse.ServingStatus.NOT_SERVING);
    assertThat(check("")).isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);
    grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    closed.get(20, TimeUnit.SECONDS);
    assertThat(closed).isDone();
  }
}
