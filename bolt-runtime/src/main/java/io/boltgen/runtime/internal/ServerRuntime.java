package io.boltgen.runtime.internal;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.RuntimeProvider.FrameLimits;
import io.boltgen.runtime.RuntimeProvider.Registration;
import io.boltgen.runtime.RuntimeProvider.ServerConfig;
import io.boltgen.runtime.RuntimeProvider;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.util.concurrent.Ticker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@code BoltServer} runs on: a listening channel, one {@link Endpoint} for the connections it
 * accepts, the handlers' executor and the process's {@link SharedResources}.
 *
 * <p>Thread-safe: {@link #start()} runs once before {@link #close()}, which runs once.
 */
final class ServerRuntime implements RuntimeProvider.Server {

  private static final Logger log = LoggerFactory.getLogger(ServerRuntime.class);

  private final ServerConfig config;
  private final SharedResources shared;
  private final ExecutorService ownedExecutor;
  private final Endpoint endpoint;
  private final CallEnvironment calls;
  private final ConnectionEvents events;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Channel serverChannel;

  ServerRuntime(ServerConfig config) {
    this.config = config;
    ServiceRegistry.Builder registry = ServiceRegistry.builder();
    for (Registration r : config.services()) {
      registry.add(r.service(), r.executor());
    }
    ServiceRegistry services = registry.build(); // checks the services before any thread starts
    Executor executor = config.executor();
    if (executor == null) {
      WorkerPool pool = WorkerPool.create("boltgen-worker", config.minThreads(), config.maxThreads(),
          config.queueSize());
      this.ownedExecutor = pool;
      executor = pool;
    } else {
      this.ownedExecutor = null;
    }
    this.shared = SharedResources.acquire();
    // measured now that the server's threads and their descriptors exist
    int maxConnections =
        config.maxConnections() > 0 ? config.maxConnections() : FileDescriptors.defaultMaxConnections();
    this.calls = new CallEnvironment(shared.timer(), Ticker.systemTicker(), executor, "server",
        config.interceptors().client(), config.interceptors().server());
    this.events = new ConnectionEvents(config.listeners(), "server");
    FrameLimits limits = config.limits();
    this.endpoint = new Endpoint(
        new EndpointSettings(false, config.protocol(), limits.maxFrameLength(), limits.peerMaxFrameLength(),
            limits.lowWaterMark(), limits.highWaterMark(), limits.maxQueuedBytes(),
            config.maxRequestsPerConnection(), limits.frameTimeoutMillis(), 0, 0, 0, config.idleTimeoutMillis(), 0,
            maxConnections),
        shared, calls, new RequestDispatcher(services, executor, config.selector(), calls.timer()), events);
  }

  @Override
  public void start() {
    if (serverChannel != null || closed.get()) {
      throw new IllegalStateException("start() may be called once, before close()");
    }
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(shared.bossGroup(), shared.ioGroup())
        .channel(shared.serverChannelClass())
        .option(ChannelOption.SO_BACKLOG, config.backlog())
        .option(ChannelOption.SO_REUSEADDR, true)
        .handler(endpoint.acceptErrors())
        .childHandler(endpoint.initializer());
    endpoint.applyOptions(bootstrap::childOption);
    ChannelFuture bind = bootstrap.bind(config.host(), config.port()).awaitUninterruptibly();
    if (!bind.isSuccess()) {
      close();
      Throwable cause = bind.cause();
      throw new UncheckedIOException("could not listen on " + config.host() + ":" + config.port() + ": " + cause,
          cause instanceof IOException ? (IOException) cause : new IOException(cause));
    }
    serverChannel = bind.channel();
    if (closed.get()) {
      bind.channel().close(); // closed while it was binding
      throw new IllegalStateException("the server was closed while it started");
    }
    log.info("boltgen server listening on {} ({})", serverChannel.localAddress(), shared.isEpoll() ? "epoll" : "nio");
  }

  @Override
  public InetSocketAddress localAddress() {
    Channel channel = serverChannel;
    if (channel == null) {
      throw new IllegalStateException("not started");
    }
    return (InetSocketAddress) channel.localAddress();
  }

  @Override
  public List<Connection> connections() {
    return endpoint.connections();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    SharedResources.runAwayFromSharedThreads("boltgen-server-close", this::shutDown);
  }

  private void shutDown() {
    calls.close();
    long timeout = config.shutdownTimeoutMillis();
    Channel channel = serverChannel;
    if (channel != null) {
      channel.close().awaitUninterruptibly(timeout);
    }
    if (ownedExecutor != null) {
      Shutdown.executor(ownedExecutor, timeout, log, "server handlers");
    }
    endpoint.closeConnections(timeout);
    events.shutdown(timeout);
    shared.release();
    if (channel != null) {
      log.info("boltgen server on {} stopped", channel.localAddress());
    }
  }
}
