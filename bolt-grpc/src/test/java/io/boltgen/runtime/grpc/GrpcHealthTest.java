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
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's own health client ({@code grpc.health.v1.Health}, from grpc-services) against a boltgen server: the
 * server and each service it serves are {@code SERVING}, another service is {@code NOT_FOUND} ({@code SERVICE_UNKNOWN}
 * to a watch), and a server that began to close reports {@code NOT_SERVING} while it drains (registered in a real
 * etcd, which it leaves first), to checks and to the watches it tells as the drain begins.
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
  void theServerAndItsServicesAreServingAndOthersAreNotFound() throws InterruptedException {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true).build().start();
    grpc = GrpcJava.plaintext(server.port());
    assertThat(check("")).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    assertThat(check("test.Echo")).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    StatusRuntimeException unknown = catchThrowableOfType(StatusRuntimeException.class, () -> check("test.Nope"));
    assertThat(unknown.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(unknown.getStatus().getDescription()).isEqualTo("unknown service test.Nope");
    // a watch of a service the server does not serve says so, and goes on
    Watch unknownWatch = watch("test.Nope");
    assertThat(unknownWatch.next()).isEqualTo(HealthCheckResponse.ServingStatus.SERVICE_UNKNOWN);
    unknownWatch.cancel();
  }

  @Test
  void aWatchEndsAtItsCallersDeadline() throws Exception {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true).build().start();
    try (RawGrpc raw = RawGrpc.connect(server.port())) {
      RawGrpc.Answer answer = raw.call(RawGrpc.request("x").path("/grpc.health.v1.Health/Watch")
          .set("grpc-timeout", "200m"), RawGrpc.message(0, new byte[0]));
      assertThat(answer.status()).isEqualTo("200");
      assertThat(answer.messages()).singleElement().isEqualTo(new byte[] {0x08, 0x01}); // SERVING
      assertThat(answer.grpcStatus()).isEqualTo("4");
      assertThat(answer.grpcMessage()).isEqualTo("/grpc.health.v1.Health/Watch did not end its stream within 200 ms");
    }
  }

  /** A watch through grpc-java's health client: the statuses as they arrive. */
  private Watch watch(String service) {
    Watch watch = new Watch();
    HealthGrpc.newStub(grpc).withDeadlineAfter(60, TimeUnit.SECONDS).watch(
        HealthCheckRequest.newBuilder().setService(service).build(), watch);
    return watch;
  }

  private static final class Watch implements ClientResponseObserver<HealthCheckRequest, HealthCheckResponse> {
    private final LinkedBlockingQueue<HealthCheckResponse.ServingStatus> statuses = new LinkedBlockingQueue<>();
    private final CompletableFuture<Status> end = new CompletableFuture<>();
    private volatile ClientCallStreamObserver<HealthCheckRequest> call;

    @Override
    public void beforeStart(ClientCallStreamObserver<HealthCheckRequest> requestStream) {
      call = requestStream;
    }

    @Override
    public void onNext(HealthCheckResponse value) {
      statuses.add(value.getStatus());
    }

    @Override
    public void onError(Throwable t) {
      end.complete(Status.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      end.complete(Status.OK);
    }

    HealthCheckResponse.ServingStatus next() throws InterruptedException {
      HealthCheckResponse.ServingStatus status = statuses.poll(10, TimeUnit.SECONDS);
      assertThat(status).as("a status within 10 s").isNotNull();
      return status;
    }

    void cancel() {
      call.cancel("done", null);
    }
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
    Watch watch = watch("test.Echo");
    assertThat(watch.next()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    // the drain waits for connected clients, this channel's connection among them
    CompletableFuture<Void> closed = CompletableFuture.runAsync(server::close);
    assertThat(watch.next()).as("told as the drain begins").isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);
    assertThat(check("test.Echo")).isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);
    assertThat(check("")).isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);
    Watch late = watch("");
    assertThat(late.next()).as("a watch begun during the drain").isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);
    grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    closed.get(20, TimeUnit.SECONDS);
    assertThat(closed).isDone();
  }
}
