package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.DynamicMessage;
import demo.inventory.IoBoltgenExampleInventory;
import io.boltgen.runtime.BoltServer;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * gRPC server reflection on the example's server, asked by grpc-java's own reflection client (grpc-services) as
 * grpcurl and Postman ask it: the services are listed, each is described by its file and the files it imports,
 * those build with protobuf-java into what protoc makes of the emitted {@code .proto}, and the methods are then
 * called with dynamic messages only, no {@code .proto} or generated class at hand: unary, server, client and
 * bidirectional streams.
 */
class ExampleReflectionTest {

  private final ExecutorService reservationWork = Executors.newFixedThreadPool(2);
  private BoltServer server;
  private ManagedChannel channel;

  @BeforeEach
  void start() {
    server = ExampleMain.startServer(0, reservationWork);
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    try {
      channel.shutdownNow();
      assertThat(channel.awaitTermination(10, TimeUnit.SECONDS)).as("the gRPC channel terminated").isTrue();
    } finally {
      server.close();
      reservationWork.shutdownNow();
    }
  }

  /** One reflection stream: each request sent, its answer awaited. */
  private final class Reflection {
    private final LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
    private final StreamObserver<ServerReflectionRequest> requests;

    Reflection() {
      requests = ServerReflectionGrpc.newStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
          .serverReflectionInfo(new StreamObserver<>() {
            @Override
            public void onNext(ServerReflectionResponse value) {
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
          });
    }

    ServerReflectionResponse ask(ServerReflectionRequest request) throws InterruptedException {
      requests.onNext(request);
      Object answer = answers.poll(30, TimeUnit.SECONDS);
      assertThat(answer).as("the answer to " + request).isInstanceOf(ServerReflectionResponse.class);
      ServerReflectionResponse response = (ServerReflectionResponse) answer;
      assertThat(response.getOriginalRequest()).isEqualTo(request);
      return response;
    }

    /** Half-closes the stream; the server then ends it. */
    void end() throws InterruptedException {
      requests.onCompleted();
      assertThat(answers.poll(30, TimeUnit.SECONDS)).isEqualTo("completed");
    }
  }

  @Test
  void listsDescribesAndCallsEveryMethodWithoutProtoFiles() throws Exception {
    FileDescriptor file;
    Reflection reflection = new Reflection();
    {
      ServerReflectionResponse list = reflection.ask(ServerReflectionRequest.newBuilder().setHost("localhost")
          .setListServices("*").build());
      assertThat(list.getValidHost()).isEqualTo("localhost");
      assertThat(list.getListServicesResponse().getServiceList()).extracting(s -> s.getName())
          .containsExactly("demo.inventory.Inventory");

      ServerReflectionResponse described = reflection.ask(ServerReflectionRequest.newBuilder()
          .setFileContainingSymbol("demo.inventory.Inventory").build());
      file = build(described.getFileDescriptorResponse().getFileDescriptorProtoList());
      // a method and a message are found too, and their file is the same
      assertThat(reflection.ask(ServerReflectionRequest.newBuilder()
          .setFileContainingSymbol("demo.inventory.Inventory.tally").build()).getFileDescriptorResponse())
          .isEqualTo(described.getFileDescriptorResponse());
      assertThat(reflection.ask(ServerReflectionRequest.newBuilder()
          .setFileContainingSymbol("demo.inventory.Stock").build()).getFileDescriptorResponse())
          .isEqualTo(described.getFileDescriptorResponse());
      assertThat(reflection.ask(ServerReflectionRequest.newBuilder()
          .setFileByFilename(file.getName()).build()).getFileDescriptorResponse())
          .isEqualTo(described.getFileDescriptorResponse());
      assertThat(reflection.ask(ServerReflectionRequest.newBuilder()
          .setAllExtensionNumbersOfType("demo.inventory.Stock").build()).getAllExtensionNumbersResponse()
          .getExtensionNumberList()).isEmpty();
      reflection.end();
    }
    // what protoc compiled from the emitted .proto for this module's grpc-java stubs (which embed no JSON names)
    assertThat(withoutJsonNames(file.toProto()))
        .isEqualTo(withoutJsonNames(IoBoltgenExampleInventory.getDescriptor().toProto()));

    ServiceDescriptor inventory = file.findServiceByName("Inventory");
    assertThat(inventory.getMethods()).extracting(m -> m.getName() + (m.isClientStreaming() ? " client" : "")
        + (m.isServerStreaming() ? " server" : ""))
        .containsExactly("get", "reserve", "watch", "audit", "report", "browse server", "tally client",
            "lookup client server");

    MethodDescriptor get = inventory.findMethodByName("get");
    DynamicMessage stock = field(ClientCalls.blockingUnaryCall(channel, grpc(get), CallOptions.DEFAULT,
        request(get, "sku", sku(get.getInputType(), "apple"))), "value");
    assertThat(field(stock, "sku").getField(field(stock, "sku").getDescriptorForType().findFieldByName("value")))
        .isEqualTo("apple");

    MethodDescriptor browse = inventory.findMethodByName("browse");
    List<String> browsed = new ArrayList<>();
    Iterator<DynamicMessage> stream = ClientCalls.blockingServerStreamingCall(channel, grpc(browse),
        CallOptions.DEFAULT, request(browse, "includeEmpty", true));
    stream.forEachRemaining(message -> browsed.add(skuOf(field(message, "value"))));
    assertThat(browsed).containsExactly("apple", "pear", "plum");

    MethodDescriptor lookup = inventory.findMethodByName("lookup");
    LinkedBlockingQueue<Object> looked = new LinkedBlockingQueue<>();
    StreamObserver<DynamicMessage> skus = ClientCalls.asyncBidiStreamingCall(
        channel.newCall(grpc(lookup), CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS)),
        collector(looked));
    skus.onNext(request(lookup, "skus", sku(lookup.getInputType(), "pear")));
    skus.onNext(request(lookup, "skus", sku(lookup.getInputType(), "apple")));
    skus.onCompleted();
    assertThat(skuOf(field((DynamicMessage) looked.poll(30, TimeUnit.SECONDS), "value"))).isEqualTo("pear");
    assertThat(skuOf(field((DynamicMessage) looked.poll(30, TimeUnit.SECONDS), "value"))).isEqualTo("apple");
    assertThat(looked.poll(30, TimeUnit.SECONDS)).isEqualTo("completed");

    MethodDescriptor tally = inventory.findMethodByName("tally");
    LinkedBlockingQueue<Object> tallied = new LinkedBlockingQueue<>();
    StreamObserver<DynamicMessage> counted = ClientCalls.asyncClientStreamingCall(
        channel.newCall(grpc(tally), CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS)),
        collector(tallied));
    counted.onNext(request(tally, "skus", sku(tally.getInputType(), "apple")));
    counted.onCompleted();
    Object report = tallied.poll(30, TimeUnit.SECONDS);
    assertThat(report).isInstanceOf(DynamicMessage.class);
    assertThat(((DynamicMessage) report).hasField(tally.getOutputType().findFieldByName("value"))).isTrue();
    assertThat(tallied.poll(30, TimeUnit.SECONDS)).isEqualTo("completed");
  }

  @Test
  void anUnknownNameIsNotFoundAndTheStreamGoesOn() throws Exception {
    Reflection reflection = new Reflection();
    {
      ServerReflectionResponse symbol = reflection.ask(ServerReflectionRequest.newBuilder()
          .setFileContainingSymbol("demo.inventory.Nothing").build());
      assertThat(symbol.getErrorResponse().getErrorCode()).isEqualTo(io.grpc.Status.Code.NOT_FOUND.value());
      assertThat(symbol.getErrorResponse().getErrorMessage()).contains("demo.inventory.Nothing");
      ServerReflectionResponse file = reflection.ask(ServerReflectionRequest.newBuilder()
          .setFileByFilename("nothing.proto").build());
      assertThat(file.getErrorResponse().getErrorCode()).isEqualTo(io.grpc.Status.Code.NOT_FOUND.value());
      ServerReflectionResponse extension = reflection.ask(ServerReflectionRequest.newBuilder()
          .setFileContainingExtension(io.grpc.reflection.v1.ExtensionRequest.newBuilder()
              .setContainingType("demo.inventory.Stock").setExtensionNumber(100)).build());
      assertThat(extension.getErrorResponse().getErrorCode()).isEqualTo(io.grpc.Status.Code.NOT_FOUND.value());
      ServerReflectionResponse nothing = reflection.ask(ServerReflectionRequest.getDefaultInstance());
      assertThat(nothing.getErrorResponse().getErrorCode()).isEqualTo(io.grpc.Status.Code.UNIMPLEMENTED.value());
      // and the stream still answers
      assertThat(reflection.ask(ServerReflectionRequest.newBuilder().setListServices("").build())
          .getListServicesResponse().getServiceCount()).isEqualTo(1);
      reflection.end();
    }
  }

  /** The older package, which grpcurl and many tools still ask first, answers alike. */
  @Test
  void v1alphaAnswersAlike() throws Exception {
    LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
    StreamObserver<io.grpc.reflection.v1alpha.ServerReflectionRequest> requests =
        io.grpc.reflection.v1alpha.ServerReflectionGrpc.newStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
            .serverReflectionInfo(collector(answers));
    requests.onNext(io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder()
        .setFileContainingSymbol("demo.inventory.Inventory.browse").build());
    requests.onCompleted();
    io.grpc.reflection.v1alpha.ServerReflectionResponse response =
        (io.grpc.reflection.v1alpha.ServerReflectionResponse) answers.poll(30, TimeUnit.SECONDS);
    assertThat(build(response.getFileDescriptorResponse().getFileDescriptorProtoList())
        .findServiceByName("Inventory").findMethodByName("browse").isServerStreaming()).isTrue();
    assertThat(answers.poll(30, TimeUnit.SECONDS)).isEqualTo("completed");
  }

  /** The files of a reflection answer built as a reflection client builds them: the first, after its imports. */
  private static FileDescriptor build(List<ByteString> files) throws Exception {
    Map<String, FileDescriptorProto> byName = new HashMap<>();
    for (ByteString bytes : files) {
      FileDescriptorProto proto = FileDescriptorProto.parseFrom(bytes);
      byName.put(proto.getName(), proto);
    }
    return build(FileDescriptorProto.parseFrom(files.get(0)), byName, new HashMap<>());
  }

  private static FileDescriptor build(FileDescriptorProto file, Map<String, FileDescriptorProto> byName,
      Map<String, FileDescriptor> built) throws Exception {
    List<FileDescriptor> dependencies = new ArrayList<>();
    for (String dependency : file.getDependencyList()) {
      FileDescriptor done = built.get(dependency);
      dependencies.add(done != null ? done : build(byName.get(dependency), byName, built));
    }
    FileDescriptor descriptor = FileDescriptor.buildFrom(file, dependencies.toArray(new FileDescriptor[0]));
    built.put(file.getName(), descriptor);
    return descriptor;
  }

  private static FileDescriptorProto withoutJsonNames(FileDescriptorProto file) {
    FileDescriptorProto.Builder builder = file.toBuilder();
    builder.getMessageTypeBuilderList().forEach(ExampleReflectionTest::stripJsonNames);
    return builder.build();
  }

  private static void stripJsonNames(DescriptorProto.Builder message) {
    message.getFieldBuilderList().forEach(f -> f.clearJsonName());
    message.getNestedTypeBuilderList().forEach(ExampleReflectionTest::stripJsonNames);
  }

  private static io.grpc.MethodDescriptor<DynamicMessage, DynamicMessage> grpc(MethodDescriptor method) {
    io.grpc.MethodDescriptor.MethodType type = method.isClientStreaming()
        ? method.isServerStreaming() ? io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING
            : io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING
        : method.isServerStreaming() ? io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING
            : io.grpc.MethodDescriptor.MethodType.UNARY;
    return io.grpc.MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
        .setType(type)
        .setFullMethodName(io.grpc.MethodDescriptor.generateFullMethodName(method.getService().getFullName(),
            method.getName()))
        .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(method.getInputType())))
        .setResponseMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(method.getOutputType())))
        .build();
  }

  private static DynamicMessage request(MethodDescriptor method, String field, Object value) {
    Descriptor type = method.getInputType();
    return DynamicMessage.newBuilder(type).setField(type.findFieldByName(field), value).build();
  }

  /** A {@code SkuId} for the request type {@code request}'s SKU field. */
  private static DynamicMessage sku(Descriptor request, String value) {
    Descriptor skuType = request.getFields().get(0).getMessageType();
    return DynamicMessage.newBuilder(skuType).setField(skuType.findFieldByName("value"), value).build();
  }

  private static DynamicMessage field(DynamicMessage message, String name) {
    return (DynamicMessage) message.getField(message.getDescriptorForType().findFieldByName(name));
  }

  private static String skuOf(DynamicMessage stock) {
    DynamicMessage sku = field(stock, "sku");
    return (String) sku.getField(sku.getDescriptorForType().findFieldByName("value"));
  }

  private static <T> StreamObserver<T> collector(LinkedBlockingQueue<Object> into) {
    return new StreamObserver<>() {
      @Override
      public void onNext(T value) {
        into.add(value);
      }

      @Override
      public void onError(Throwable t) {
        into.add(t);
      }

      @Override
      public void onCompleted() {
        into.add("completed");
      }
    };
  }
}
