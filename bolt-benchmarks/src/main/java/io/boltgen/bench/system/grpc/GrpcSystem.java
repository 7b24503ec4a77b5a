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
 * same wire form as {@link EchoMessage}) over gRPC on its Bolt port.
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
  private final MethodDescriptor<EchoMessage, EchoMessage> method;

  public GrpcSystem(boolean direct, Target target) {
    this.direct = direct;
    this.target = target;
    this.method = target == Target.GRPC_JAVA ? EchoGrpc.getEchoMethod()
        : EchoGrpc.getEchoMethod().toBuilder().setFullMethodName("bench.echo.Echo/echo").build();
  }

  @Override
  public String id() {
    return target == Target.BOLTGEN ? "grpc-to-boltgen" : direct ? "grpc-direct" : "grpc";
  }

  @Override
  public String family() {
    return target == Target.BOLTGEN ? "boltgen" : "grpc";
  }

  @Override
  public String description() {
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
      ClientCalls.blockingUnaryCall(channel, method, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS),
          EchoMessage.getDefaultInstance());
    } catch (RuntimeException e) {
      channel.shutdownNow();
      throw e;
    }
    return new EchoClient() {
      @Override
      public int call(byte[] payload) {
        return ClientCalls.blockingUnaryCall(channel, method, deadline(), message(payload)).getPayload().size();
      }

      @Override
      public void call(byte[] payload, Completion done) {
        try {
          ClientCalls.asyncUnaryCall(channel.newCall(method, deadline()), message(payload), new StreamObserver<>() {
            private int length = -1;

            @Override
            public void onNext(EchoMessage value) {
              length = value.getPayload().size();
            }

            @Override
            public void onError(Throwable t) {
              done.done(-1, t);
            }

            @Override
            public void onCompleted() {
              done.done(length, null);
            }
          });
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

  private static CallOptions deadline() {
    return CallOptions.DEFAULT.withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS);
  }

  private static EchoMessage message(byte[] payload) {
    return EchoMessage.newBuilder().setPayload(UnsafeByteOperations.unsafeWrap(payload)).build();
  }

  /** Returns the request as the response. */
  static final class EchoImpl extends EchoGrpc.EchoImplBase {
    @Override
    public void echo(EchoMessage request, StreamObserver<EchoMessage> responseObserver) {
      responseObserver.onNext(request);
      responseObserver.onCompleted();
    }
  }
}
