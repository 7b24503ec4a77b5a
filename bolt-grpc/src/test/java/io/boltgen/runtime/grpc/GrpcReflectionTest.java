package io.boltgen.runtime.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.ServiceDefinition;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * gRPC server reflection where it has little to describe, and as an attacker meets it: a hand-built service (no
 * descriptors) and one whose descriptors do not decode are not listed and are served all the same; a request that
 * does not decode fails its stream {@code INVALID_ARGUMENT}; and reflection is a call like any other, which the
 * server's interceptors see, message by message. The example's tests ask it about generated services.
 */
class GrpcReflectionTest {

  private final EchoService echo = new EchoService();
  private final List<String> seen = new CopyOnWriteArrayList<>();
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

  private void start() {
    ServiceDefinition corrupt = ServiceDefinition.builder("test.Corrupt", "1.0")
        .method(EchoService.method("test.Corrupt", "echo", 1, MethodType.REQUEST_RESPONSE, 5_000),
            (request, call) -> call.respond(request))
        .build();
    ServerInterceptor recording = call -> new ServerInterceptor.Listener() {
      @Override
      public void onMessageReceived() {
        seen.add(call.method() + " received");
      }

      @Override
      public void onMessageSent() {
        seen.add(call.method() + " sent");
      }

      @Override
      public void onComplete(ResponseStatus status, Throwable error, long elapsedNanos) {
        seen.add(call.method() + " " + status);
      }
    };
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition())
        .service(ServiceDefinition.of(corrupt.descriptor().withProtoDescriptors(GrpcReflectionTest.class,
            "reflection/corrupt.protoset"), corrupt.invoker()))
        .serverInterceptor(recording).http(true).build().start();
    grpc = GrpcJava.plaintext(server.port());
  }

  @Test
  void servicesWithoutReadableDescriptorsAreNotListedAndStillServed() throws Exception {
    start();
    LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
    StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(grpc)
        .withDeadlineAfter(10, TimeUnit.SECONDS).serverReflectionInfo(into(answers));
    requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
    requests.onNext(ServerReflectionRequest.newBuilder().setFileContainingSymbol("test.Echo").build());
    requests.onCompleted();
    ServerReflectionResponse list = (ServerReflectionResponse) answers.poll(10, TimeUnit.SECONDS);
    assertThat(list.getListServicesResponse().getServiceList()).isEmpty();
    ServerReflectionResponse symbol = (ServerReflectionResponse) answers.poll(10, TimeUnit.SECONDS);
    assertThat(symbol.getErrorResponse().getErrorCode()).isEqualTo(Status.Code.NOT_FOUND.value());
    assertThat(answers.poll(10, TimeUnit.SECONDS)).isEqualTo("completed");

    byte[] hello = {1, 2, 3};
    assertThat(ClientCalls.blockingUnaryCall(grpc, GrpcJava.unary("test.Echo", "echo"),
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), hello)).isEqualTo(hello);
    assertThat(ClientCalls.blockingUnaryCall(grpc, GrpcJava.unary("test.Corrupt", "echo"),
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), hello)).isEqualTo(hello);

    // the server's interceptors saw the reflection call: each message each way, and its end
    String info = "grpc.reflection.v1.ServerReflection:1.0/ServerReflectionInfo";
    assertThat(seen).startsWith(info + " received", info + " sent", info + " received", info + " sent");
    assertThat(seen).contains(info + " SUCCESS");
  }

  @Test
  void aRequestThatDoesNotDecodeFailsItsStream() throws Exception {
    start();
    LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
    StreamObserver<byte[]> requests = rawReflection(answers);
    requests.onNext(new byte[] {0x22, 0x7f, 'x'}); // file_containing_symbol, 127 bytes long, one there
    Object answer = answers.poll(10, TimeUnit.SECONDS);
    assertThat(answer).isInstanceOf(StatusRuntimeException.class);
    Status status = ((StatusRuntimeException) answer).getStatus();
    assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(status.getDescription()).contains("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo");
    requests.onCompleted(); // the call is over: nothing more happens

    // the port goes on
    assertThat(ClientCalls.blockingUnaryCall(grpc, GrpcJava.unary("test.Echo", "echo"),
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), new byte[] {7})).containsExactly(7);
  }

  /** A server built with reflection(false) serves none: reflection is unimplemented there, as on any other route. */
  @Test
  void aServerMayServeNoReflection() throws Exception {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true).reflection(false)
        .build().start();
    grpc = GrpcJava.plaintext(server.port());
    LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
    StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(grpc)
        .withDeadlineAfter(10, TimeUnit.SECONDS).serverReflectionInfo(into(answers));
    requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
    requests.onCompleted();
    Object answer = answers.poll(10, TimeUnit.SECONDS);
    assertThat(answer).isInstanceOfSatisfying(StatusRuntimeException.class,
        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
  }

  /** A service of the server's own at reflection's route and className is served; the module's is left out. */
  @Test
  void aServiceOfTheServersOwnAtReflectionsRouteIsServedInstead() throws Exception {
    io.boltgen.runtime.MethodDescriptor<byte[], byte[]> own = io.boltgen.runtime.MethodDescriptor
        .newBuilder(EchoService.RAW, EchoService.RAW)
        .serviceName("grpc.reflection.v1.ServerReflection").serviceVersion("1.0").methodName("ServerReflectionInfo")
        .type(MethodType.BIDI_STREAMING).protoService("grpc.reflection.v1.ServerReflection").build();
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition())
        .service(ServiceDefinition.builder("grpc.reflection.v1.ServerReflection", "1.0")
            .streamingMethod(own, (requests, call) -> call.respondStream(
                io.boltgen.runtime.Publishers.map(requests, request -> EchoService.bytes("mine"))))
            .build())
        .http(true).build().start();
    grpc = GrpcJava.plaintext(server.port());
    LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
    StreamObserver<byte[]> requests = rawReflection(answers);
    requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build().toByteArray());
    requests.onCompleted();
    assertThat((byte[]) answers.poll(10, TimeUnit.SECONDS)).isEqualTo(EchoService.bytes("mine"));
    assertThat(answers.poll(10, TimeUnit.SECONDS)).isEqualTo("completed");
    // the older package is not taken: the module still serves it
    LinkedBlockingQueue<Object> alpha = new LinkedBlockingQueue<>();
    StreamObserver<io.grpc.reflection.v1alpha.ServerReflectionRequest> asked =
        io.grpc.reflection.v1alpha.ServerReflectionGrpc.newStub(grpc).withDeadlineAfter(10, TimeUnit.SECONDS)
            .serverReflectionInfo(into(alpha));
    asked.onNext(io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder().setListServices("").build());
    asked.onCompleted();
    assertThat(alpha.poll(10, TimeUnit.SECONDS))
        .isInstanceOf(io.grpc.reflection.v1alpha.ServerReflectionResponse.class);
  }

  private static <T> StreamObserver<T> into(LinkedBlockingQueue<Object> answers) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        answers.add(value);
      }

      @Override
      public void onError(Throwable t) {
        answers.add(t);
      }

      @Override
      public void onCompleted() {
        answers.add("completed");
      }
    };
  }

  /** A reflection call (v1) of bytes as they go each way: its answers, and its end, into {@code answers}. */
  private StreamObserver<byte[]> rawReflection(LinkedBlockingQueue<Object> answers) {
    MethodDescriptor<byte[], byte[]> info = MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
        .setFullMethodName("grpc.reflection.v1.ServerReflection/ServerReflectionInfo")
        .setRequestMarshaller(GrpcJava.BYTES)
        .setResponseMarshaller(GrpcJava.BYTES)
        .build();
    return ClientCalls.asyncBidiStreamingCall(
        grpc.newCall(info, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS)), into(answers));
  }
}
