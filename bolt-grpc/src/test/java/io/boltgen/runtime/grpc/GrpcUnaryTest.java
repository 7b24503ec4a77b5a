package io.boltgen.runtime.grpc;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.PeerNotAuthorizedException;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** grpc-java's stock client calls a boltgen server's unary methods over gRPC on the Bolt port, beside a Bolt client. */
class GrpcUnaryTest {

  private final EchoService echo = new EchoService();
  private BoltServer server;
  private ManagedChannel grpc;

  private final java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true)
        .serverInterceptor(call -> {
          String who = call.headers().get("x-caller");
          seen.add(call.method().httpPath() + " " + who);
          if ("mallory".equals(who)) {
            throw new PeerNotAuthorizedException("mallory may not call " + call.method().httpPath());
          }
          return null;
        })
        .build().start();
    grpc = GrpcJava.plaintext(server.port());
  }

  @AfterEach
  void stop() throws InterruptedException {
    grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.close();
  }

  private byte[] call(String method, byte[] request, CallOptions options) {
    return ClientCalls.blockingUnaryCall(grpc, GrpcJava.unary("test.Echo", method), options, request);
  }

  @Test
  void answersBesideABoltClient() {
    assertThat(string(call("echo", bytes("héllo 🌍"), CallOptions.DEFAULT))).isEqualTo("héllo 🌍");
    assertThat(call("echo", new byte[0], CallOptions.DEFAULT)).isEmpty();
    try (BoltClient client = BoltClient.builder().build()) {
      BoltChannel channel = client.channel("127.0.0.1:" + server.port());
      assertThat(string(channel.invokeSync(ECHO, bytes("bolt"), io.boltgen.runtime.CallOptions.DEFAULT)))
          .isEqualTo("bolt");
    }
    assertThat(echo.echoed.get()).isEqualTo(3);
  }

  @Test
  void aOnewayMethodIsAnsweredWithItsEmptyMessageOnceItsHandlerRan() {
    assertThat(call("sink", bytes("audit"), CallOptions.DEFAULT)).isEmpty();
    assertThat(echo.sunk).containsExactly("audit");
  }

  @Test
  void metadataAreTheCallsHeadersAndInterceptorsSeeTheCall() {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("x-caller", Metadata.ASCII_STRING_MARSHALLER), "alice");
    Channel withHeaders = ClientInterceptors.intercept(grpc, MetadataUtils.newAttachHeadersInterceptor(headers));
    byte[] answer = ClientCalls.blockingUnaryCall(withHeaders, GrpcJava.unary("test.Echo", "echo"), CallOptions.DEFAULT,
        bytes("hi"));
    assertThat(string(answer)).isEqualTo("hi");
    assertThat(seen).containsExactly("/test.Echo/echo alice");

    Metadata mallory = new Metadata();
    mallory.put(Metadata.Key.of("x-caller", Metadata.ASCII_STRING_MARSHALLER), "mallory");
    Channel refused = ClientInterceptors.intercept(grpc, MetadataUtils.newAttachHeadersInterceptor(mallory));
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class, () -> ClientCalls
        .blockingUnaryCall(refused, GrpcJava.unary("test.Echo", "echo"), CallOptions.DEFAULT, bytes("hi")));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(failed.getStatus().getDescription()).isEqualTo("mallory may not call /test.Echo/echo");
  }

  @Test
  void aFourMebibyteMessageEachWay() {
    byte[] request = ByteBuffer.allocate(4 * 1024 * 1024).putInt(4 * 1024 * 1024).array();
    byte[] answer = call("amplify", request, CallOptions.DEFAULT.withMaxInboundMessageSize(5 * 1024 * 1024));
    assertThat(answer).hasSize(4 * 1024 * 1024);
  }

  @Test
  void aHandlersExceptionIsInternalWithItsMessage() {
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> call("fail", bytes("x"), CallOptions.DEFAULT));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(failed.getStatus().getDescription()).isEqualTo("boom: x");
  }

  @Test
  void anUnknownMethodIsUnimplemented() {
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> call("nope", bytes("x"), CallOptions.DEFAULT));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
    assertThat(failed.getStatus().getDescription()).isEqualTo("Method not found: test.Echo/nope");
  }

  @Test
  void theDeadlineIsTheCallersAndEndsTheCall() {
    echo.release = new java.util.concurrent.CountDownLatch(1);
    try {
      StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
          () -> call("slow", bytes("x"), CallOptions.DEFAULT.withDeadlineAfter(200, TimeUnit.MILLISECONDS)));
      assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    } finally {
      echo.release.countDown();
    }
  }
}
