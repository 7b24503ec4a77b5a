package io.boltgen.runtime.grpc;

import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.google.common.util.concurrent.ListenableFuture;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's stock client in the cases the raw tests ({@link GrpcBadInputTest}) take apart frame by frame:
 * a gzip request, a call cancelled while its handler runs, a message over the server's limit (64 KiB here).
 */
class GrpcJavaCasesTest {

  private static final int LIMIT = 64 * 1024;
  private static final Duration BOUND = Duration.ofSeconds(10);

  private final EchoService echo = new EchoService();
  // the request headers of every call the server ran
  private final ConcurrentLinkedQueue<Map<String, String>> served = new ConcurrentLinkedQueue<>();
  private BoltServer server;
  private ManagedChannel grpc;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true).maxFrameLength(LIMIT)
        .serverInterceptor(call -> {
          served.add(Map.copyOf(call.headers()));
          return null;
        })
        .build().start();
    grpc = GrpcJava.plaintext(server.port());
  }

  @AfterEach
  void stop() throws InterruptedException {
    echo.release.countDown();
    grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.close();
  }

  private byte[] call(String method, byte[] request, CallOptions options) {
    return ClientCalls.blockingUnaryCall(grpc, GrpcJava.unary("test.Echo", method),
        options.withDeadlineAfter(BOUND.toMillis(), TimeUnit.MILLISECONDS), request);
  }

  @Test
  void aGzipRequestIsAnswered() {
    String text = "squeezed ".repeat(1000);
    assertThat(string(call("echo", bytes(text), CallOptions.DEFAULT.withCompression("gzip")))).isEqualTo(text);
    assertThat(served).singleElement().extracting(headers -> headers.get("grpc-encoding")).isEqualTo("gzip");
    // gzip inflates up to the limit: a message that is small compressed but over the limit inflated is refused
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> call("echo", new byte[LIMIT + 1], CallOptions.DEFAULT.withCompression("gzip")));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(failed.getStatus().getDescription())
        .isEqualTo("a message inflates to more than the server's limit of " + LIMIT + " bytes");
    assertThat(string(call("echo", bytes("after"), CallOptions.DEFAULT))).isEqualTo("after");
  }

  @Test
  void aCallCancelledByItsCallerIsCancelledOnTheServer() throws Exception {
    echo.release = new CountDownLatch(1); // slow answers only when released (or after 10 s)
    ListenableFuture<byte[]> slow = ClientCalls.futureUnaryCall(
        grpc.newCall(GrpcJava.unary("test.Echo", "slow"), CallOptions.DEFAULT), bytes("x"));
    await().atMost(BOUND).until(() -> echo.slowStarted.get() == 1);
    assertThat(server.cancelledCalls()).isZero();
    assertThat(slow.cancel(true)).isTrue();
    await().atMost(BOUND).until(() -> server.cancelledCalls() == 1);
    echo.release.countDown();
    assertThat(string(call("echo", bytes("after"), CallOptions.DEFAULT))).isEqualTo("after");
    assertThat(server.cancelledCalls()).isEqualTo(1);
  }

  @Test
  void aMessageOverTheLimitIsResourceExhausted() {
    byte[] big = new byte[LIMIT + 1];
    Arrays.fill(big, (byte) 'x');
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> call("echo", big, CallOptions.DEFAULT));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(failed.getStatus().getDescription())
        .isEqualTo("a message of " + (LIMIT + 1) + " bytes is over the server's limit of " + LIMIT + " bytes");
    assertThat(echo.echoed.get()).isZero();
    // one at the limit is answered, on the same channel
    assertThat(call("echo", Arrays.copyOf(big, LIMIT), CallOptions.DEFAULT)).hasSize(LIMIT);
  }
}
