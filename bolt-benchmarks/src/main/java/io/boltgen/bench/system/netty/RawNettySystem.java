package io.boltgen.bench.system.netty;

import io.boltgen.bench.system.EchoSystem;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ceiling for any RPC on Netty 4.2.18: a frame of {@code int32 length | int64 request id | payload},
 * no serialization, no headers, no timeouts. The server handler runs on the IO thread, writes each
 * response as it decodes the request and flushes once per read batch; the client keeps a map of pending
 * calls by id, and a {@link FlushConsolidationHandler} batches the flushes of its writes (from any thread)
 * into few syscalls. Epoll where available.
 */
public final class RawNettySystem implements EchoSystem {

  static final int MAX_FRAME = 16 * 1024 * 1024;
  static final long TIMEOUT_MS = 3000;

  @Override
  public String id() {
    return "netty";
  }

  @Override
  public String family() {
    return "netty";
  }

  @Override
  public String description() {
    return "length-prefixed frame + request id; handler on the IO thread, one flush per read batch,"
        + " client flushes consolidated";
  }

  @Override
  public EchoServer startServer(String host, int port) throws InterruptedException {
    ServerHandler handler = new ServerHandler();
    return Transport.serve(host, port, "netty", () -> new ChannelHandler[] {new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4), handler});
  }

  @Override
  public EchoClient connect(String host, int port) throws InterruptedException {
    EventLoopGroup group = Transport.group(1, "netty-client-io");
    return connect(host, port, group, true);
  }

  /**
   * {@code n} channels on one client event-loop group of as many threads as cores (each channel stays on one
   * of them; with one channel this is {@link #connect}'s single thread).
   */
  @Override
  public ClientGroup connectMany(String host, int port, int n) throws InterruptedException {
    EventLoopGroup group = Transport.group(Runtime.getRuntime().availableProcessors(), "netty-client-io");
    Runnable closeGroup = () -> group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    List<EchoClient> clients = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        clients.add(connect(host, port, group, false));
      }
    } catch (InterruptedException | RuntimeException e) {
      new ClientGroup(clients, closeGroup).close();
      throw e;
    }
    return new ClientGroup(clients, closeGroup);
  }

  /** One channel on {@code group}, which closing the client shuts down if {@code ownsGroup}. */
  private EchoClient connect(String host, int port, EventLoopGroup group, boolean ownsGroup) throws InterruptedException {
    ClientHandler handler = new ClientHandler();
    Channel channel;
    try {
      channel = new Bootstrap()
          .group(group)
          .channel(Transport.channel())
          .option(ChannelOption.TCP_NODELAY, true)
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(
                  new FlushConsolidationHandler(256, true),
                  new LengthFieldBasedFrameDecoder(MAX_FRAME, 0, 4, 0, 4),
                  handler);
            }
          })
          .connect(host, port).sync().channel();
    } catch (InterruptedException | RuntimeException e) {
      if (ownsGroup) {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
      }
      throw e;
    }
    AtomicLong ids = new AtomicLong();
    return new EchoClient() {
      @Override
      public int call(byte[] payload) throws Exception {
        CompletableFuture<Integer> result = new CompletableFuture<>();
        call(payload, (length, error) -> {
          if (error != null) {
            result.completeExceptionally(error);
          } else {
            result.complete(length);
          }
        });
        return result.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
      }

      @Override
      // the void promise fires a failed write down the pipeline: exceptionCaught closes, channelInactive fails the calls
      @SuppressWarnings("FutureReturnValueIgnored")
      public void call(byte[] payload, Completion done) {
        long id = ids.incrementAndGet();
        handler.pending.put(id, done);
        if (!channel.isActive()) {
          if (handler.pending.remove(id) != null) {
            done.done(-1, new ClosedChannelException());
          }
          return;
        }
        ByteBuf frame = channel.alloc().ioBuffer(12 + payload.length);
        frame.writeInt(8 + payload.length).writeLong(id).writeBytes(payload);
        channel.writeAndFlush(frame, channel.voidPromise());
      }

      @Override
      public void close() {
        channel.close().awaitUninterruptibly();
        if (ownsGroup) {
          group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
      }
    };
  }

  /** Echoes each frame back on the IO thread; flushes once per read batch. */
  @ChannelHandler.Sharable
  static final class ServerHandler extends ChannelInboundHandlerAdapter {
    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // the void promise fires a failure down the pipeline, which closes
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf request = (ByteBuf) msg;
      try {
        int length = request.readableBytes();
        ByteBuf response = ctx.alloc().ioBuffer(4 + length);
        response.writeInt(length).writeBytes(request);
        ctx.write(response, ctx.voidPromise());
      } finally {
        request.release();
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }

    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // a close that fails still counts the channel closed
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  /** Completes pending calls by request id; fails them all when the connection closes. */
  static final class ClientHandler extends ChannelInboundHandlerAdapter {
    final Map<Long, Completion> pending = new ConcurrentHashMap<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf response = (ByteBuf) msg;
      long id;
      byte[] payload;
      try {
        id = response.readLong();
        payload = new byte[response.readableBytes()];
        response.readBytes(payload);
      } finally {
        response.release();
      }
      Completion done = pending.remove(id);
      if (done != null) {
        done.done(payload.length, null);
      }
    }

    @Override
    // a ConcurrentHashMap may be changed while iterated, and remove() says which thread completes the call
    @SuppressWarnings("ModifyCollectionInEnhancedForLoop")
    public void channelInactive(ChannelHandlerContext ctx) {
      IOException closed = new ClosedChannelException();
      for (Long id : pending.keySet()) {
        Completion done = pending.remove(id);
        if (done != null) {
          done.done(-1, closed);
        }
      }
      ctx.fireChannelInactive();
    }

    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // a close that fails still counts the channel closed
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
