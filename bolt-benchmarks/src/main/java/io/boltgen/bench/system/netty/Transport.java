package io.boltgen.bench.system.netty;

import io.boltgen.bench.system.ServedSystem.EchoServer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Netty 4.2 event loops and channel classes: epoll where the native library loads, NIO otherwise. */
final class Transport {

  static final boolean EPOLL = Epoll.isAvailable();

  private Transport() {}

  static EventLoopGroup group(int threads, String name) {
    IoHandlerFactory factory = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
  }

  static Class<? extends ServerChannel> serverChannel() {
    return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  static Class<? extends SocketChannel> channel() {
    return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /**
   * A server bound to {@code host:port}: one boss thread and an IO thread per core ({@code <name>-boss},
   * {@code <name>-io}), TCP_NODELAY, and on each connection the pipeline {@code handlers} makes.
   */
  static EchoServer serve(String host, int port, String name, Supplier<ChannelHandler[]> handlers)
      throws InterruptedException {
    EventLoopGroup boss = group(1, name + "-boss");
    EventLoopGroup workers = group(0, name + "-io");
    Runnable stopGroups = () -> {
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    };
    Channel channel;
    try {
      channel = new ServerBootstrap()
          .group(boss, workers)
          .channel(serverChannel())
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(handlers.get());
            }
          })
          .bind(host, port).sync().channel();
    } catch (InterruptedException | RuntimeException e) {
      stopGroups.run();
      throw e;
    }
    return EchoServer.of(((InetSocketAddress) channel.localAddress()).getPort(), () -> {
      channel.close().awaitUninterruptibly();
      stopGroups.run();
    });
  }
}
