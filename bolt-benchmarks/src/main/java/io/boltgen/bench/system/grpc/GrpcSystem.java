package io.boltgen.bench.system.grpc;

import com.google.protobuf.UnsafeByteOperations;
import io.boltgen.bench.grpc.proto.EchoGrpc;
import io.boltgen.bench.grpc.proto.EchoMessage;
import io.boltgen.bench.system.EchoSystem;
import io.boltgen.bench.service.EchoServiceBolt;
import io.boltgen.bench.service.EchoServiceImpl;
import io.boltgen.runtime.BoltServer;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;

/**
 * gRPC-java 1.85.1 (grpc-netty-shaded: its own Netty, epoll when the native library loads, which is
 * gRPC's default): a unary {@code Echo} method called blocking and async ({@link ClientCalls}, as the generated
 * stubs do), each call with a 3 s deadline as for every system. Both sides get a 4 MiB initial flow-control
 * window (BDP auto-tuning stays on), far above 256 calls of 1 KiB in flight. The request wraps the caller's
 * byte[] without a copy; the server returns the request message itself.
 *
 * <p>Configurations: {@code grpc} (default executors: a cached thread pool on each side),
 * {@code grpc-direct} ({@code directExecutor()} on both sides: server handlers and client callbacks on the
 * IO threads), and {@code grpc-to-boltgen}: the same client as {@code grpc}, against a boltgen server with
 * {@code http(true)} serving the boltgen echo service ({@code /bench.echo.Echo/echo}, whose messages have the
 * same wire form as {@link EchoMessage}) over gRPC on its Bolt port. {@code grpc-stream} and
 * {@code grpc-stream-to-boltgen} are the {@code grpc} client and those two servers with server streams: each call
 * is one {@code Stream} call answered with {@value EchoServiceImpl#STREAM_MESSAGES} messages, each the request's
 * payload (grpc-java's handler writes them in a loop, as its examples do; boltgen's is the echo service's
 * {@code stream}, a publisher asked for them as the caller reads), so that messages per second are
 * {@value EchoServiceImpl#STREAM_MESSAGES} times the calls per second.
 */
public final class GrpcSystem implements EchoSystem {

  static final int FLOW_CONTROL_WINDOW = 4 * 1024 * 1024;
  static final long DEADLINE_MS = 3000;

  /** Whose server the gRPC client calls. */
  public enum Target {
    GRPC_JAVA,
    BOLTGEN
  }

  private final boolean direct;
  private final Target target;
  private final boolean streams;
  private final MethodDescriptor<EchoMessage, EchoMessage> method;

  public GrpcSystem(boolean direct, Target target) {
    this(direct, target, false);
  }

  /** With {@code streams}, each call is a server stream of {@value EchoServiceImpl#STREAM_MESSAGES} messages. */
  public GrpcSystem(boolean direct, Target target, boolean streams) {
    this.direct = direct;
    this.target = target;
    this.streams = streams;
    MethodDescriptor<EchoMessage, EchoMessage> grpcJava = streams ? EchoGrpc.getStreamMethod() : EchoGrpc.getEchoMethod();
    this.method = target == Target.GRPC_JAVA ? grpcJava
        : grpcJava.toBuilder().setFullMethodName(streams ? "bench.echo.Echo/stream" : "bench.echo.Echo/echo").build();
  }

  @Override
  public String id() {
    String id = target == Target.BOLTGEN ? "grpc-to-boltgen" : direct ? "grpc-direct" : "grpc";
    return streams ? id.replace("grpc", "grpc-stream") : id;
  }

  @Override
  public String family() {
    return streams ? "stream" : target == Target.BOLTGEN ? "boltgen" : "grpc";
  }

  @Override
  public String description() {
    if (streams) {
      return "each call a server stream of " + EchoServiceImpl.STREAM_MESSAGES + " messages (messages/s = "
          + EchoServiceImpl.STREAM_MESSAGES + " × calls/s): the grpc client against "
          + (target == Target.BOLTGEN ? "a boltgen server with defaults and http(true)" : "grpc-java's server");
    }
    if (target == Target.BOLTGEN) {
      return "the grpc client (default executors; 4 MiB initial flow-control window) against a boltgen server with"
          + " defaults and http(true), over gRPC";
    }
    return direct
        ? "directExecutor() on client and server; 4 MiB initial flow-control window"
        : "default executors; 4 MiB initial flow-control window";
  }

  @Override
  public EchoServer startServer(String host, int port) throws Exception {
    if (target == Target.BOLTGEN) {
      BoltServer boltgen = BoltServer.builder().bind(host, port).http(true)
          .service(EchoServiceBolt.bind(new EchoServiceImpl())).build().start();
      return EchoServer.of(boltgen.port(), boltgen::close);
    }
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
        .addService(new EchoImpl())
        .initialFlowControlWindow(FLOW_CONTROL_WINDOW);
    if (direct) {
      builder.directExecutor();
    }
    Server server = builder.build().start();
    return EchoServer.of(server.getPort(), () -> {
      server.shutdown();
      try {
        if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
          server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        server.shutdownNow();
        Thread.currentThread().interrupt();
      }
    });
  }

  @Override
  public EchoClient connect(String host, int port) {
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress(host, port)
        .usePlaintext()
        .initialFlowControlWindow(FLOW_CONTROL_WINDOW);
    if (direct) {
      builder.directExecutor();
    }
    ManagedChannel channel = builder.build();
    try {
      CallOptions first = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
      if (streams) {
        ClientCalls.blockingServerStreamingCall(channel, method, first, EchoMessage.getDefaultInstance())
            .forEachRemaining(message -> { });
      } else {
        ClientCalls.blockingUnaryCall(channel, method, first, EchoMessage.getDefaultInstance());
      }
    } catch (RuntimeException e) {
      channel.shutdownNow();
      throw e;
    }
    return new EchoClient() {
      @Override
      public int call(byte[] payload) {
        if (streams) {
          int count = 0;
          int length = -1;
          for (Iterator<EchoMessage> answers = ClientCalls.blockingServerStreamingCall(channel, method, deadline(),
              message(payload)); answers.hasNext(); count++) {
            length = answers.next().getPayload().size();
          }
          return streamed(count, length);
        }
        return ClientCalls.blockingUnaryCall(channel, method, deadline(), message(payload)).getPayload().size();
      }

      @Override
      public void call(byte[] payload, Completion done) {
        try {
          StreamObserver<EchoMessage> answers = new StreamObserver<>() {
            private int length = -1;
            private int count;

            @Override
            public void onNext(EchoMessage value) {
              length = value.getPayload().size();
              count++;
            }

            @Override
            public void onError(Throwable t) {
              done.done(-1, t);
            }

            @Override
            public void onCompleted() {
              if (streams && count != EchoServiceImpl.STREAM_MESSAGES) {
                done.done(-1, new IllegalStateException(count + " messages in a stream of "
                    + EchoServiceImpl.STREAM_MESSAGES));
              } else {
                done.done(length, null);
              }
            }
          };
          if (streams) {
            ClientCalls.asyncServerStreamingCall(channel.newCall(method, deadline()), message(payload), answers);
          } else {
            ClientCalls.asyncUnaryCall(channel.newCall(method, deadline()), message(payload), answers);
          }
        } catch (Throwable t) {
          done.done(-1, t);
        }
      }

      @Override
      public void close() {
        channel.shutdown();
        try {
          if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
          }
        } catch (InterruptedException e) {
          channel.shutdownNow();
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  /** The length of a stream's last message, once it had all of them; else the stream failed. */
  private static int streamed(int count, int length) {
    if (count != EchoServiceImpl.STREAM_MESSAGES) {
      throw new IllegalStateException(count + " messages in a stream of " + EchoServiceImpl.STREAM_MESSAGES);
    }
    return length;
  }

  private static CallOptions deadline() {
    return CallOptions.DEFAULT.withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS);
  }

  private static EchoMessage message(byte[] payload) {
    return EchoMessage.newBuilder().setPayload(UnsafeByteOperations.unsafeWrap(payload)).build();
  }

  /** Returns the request as the response; streams it {@value EchoServiceImpl#STREAM_MESSAGES} times. */
  static final class EchoImpl extends EchoGrpc.EchoImplBase {
    @Override
    public void echo(EchoMessage request, StreamObserver<EchoMessage> responseObserver) {
      responseObserver.onNext(request);
      responseObserver.onCompleted();
    }

    @Override
    public void stream(EchoMessage request, StreamObserver<EchoMessage> responseObserver) {
      for (int i = 0; i < EchoServiceImpl.STREAM_MESSAGES; i++) {
        responseObserver.onNext(request);
      }
      responseObserver.onCompleted();
    }
  }
}
