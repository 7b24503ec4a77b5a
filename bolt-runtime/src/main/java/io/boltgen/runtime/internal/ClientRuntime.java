package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.RuntimeProvider.ClientConfig;
import io.boltgen.runtime.RuntimeProvider.FrameLimits;
import io.boltgen.runtime.RuntimeProvider;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.service.BoltServices;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Ticker;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@code BoltClient} runs on: a {@link ConnectionPool} per remote address, made on first use, over
 * one {@link Endpoint} and the process's {@link SharedResources}.
 *
 * <p>Thread-safe: pools are created through a concurrent map; {@link #close()} runs once.
 */
final class ClientRuntime implements RuntimeProvider.Client {

  private static final Logger log = LoggerFactory.getLogger(ClientRuntime.class);

  private final ClientConfig config;
  private final SharedResources shared;
  private final ExecutorService ownedExecutor;
  private final CallEnvironment calls;
  private final ConnectionEvents events;
  private final Endpoint endpoint;
  private final Bootstrap bootstrap;
  private final ConcurrentHashMap<InetSocketAddress, ConnectionPool> pools = new ConcurrentHashMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  ClientRuntime(ClientConfig config) {
    this.config = config;
    ServiceRegistry.Builder registry = ServiceRegistry.builder();
    for (ServiceDefinition service : config.services()) {
      registry.add(service, null);
    }
    ServiceRegistry services = registry.build(); // checks the services before any thread starts
    Executor executor = config.callbackExecutor();
    if (executor == null) {
      ThreadPoolExecutor pool = new ThreadPoolExecutor(config.callbackThreads(), config.callbackThreads(), 60,
          TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new DefaultThreadFactory("boltgen-callback", true));
      pool.allowCoreThreadTimeOut(true);
      this.ownedExecutor = pool;
      executor = pool;
    } else {
      this.ownedExecutor = null;
    }
    this.shared = SharedResources.acquire();
    this.calls = new CallEnvironment(shared.timer(), Ticker.systemTicker(), executor, "client",
        config.interceptors().client(), config.interceptors().server());
    this.events = new ConnectionEvents(config.listeners(), "client");
    FrameLimits limits = config.limits();
    this.endpoint = new Endpoint(
        new EndpointSettings(true, config.protocol(), limits.maxFrameLength(), limits.peerMaxFrameLength(),
            limits.lowWaterMark(), limits.highWaterMark(), limits.maxQueuedBytes(), Integer.MAX_VALUE,
            limits.frameTimeoutMillis(), config.heartbeatIntervalMillis(), config.heartbeatTimeoutMillis(),
            config.heartbeatMaxMisses(), 0, config.connectTimeoutMillis(), Integer.MAX_VALUE),
        shared, calls, new RequestDispatcher(services, executor, null, calls.timer()), events);
    this.bootstrap = new Bootstrap()
        .group(shared.ioGroup())
        .channel(shared.socketChannelClass())
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMillis())
        .handler(endpoint.initializer());
    endpoint.applyOptions(bootstrap::option);
  }

  @Override
  public BoltChannel channel(InetSocketAddress address) {
    return pool(address).channel();
  }

  @Override
  public <T> T stub(Class<T> serviceInterface, InetSocketAddress address) {
    return BoltServices.of(serviceInterface).newClient(channel(address));
  }

  @Override
  public CompletableFuture<Void> connect(InetSocketAddress address) {
    return pool(address).connect();
  }

  @Override
  public List<Connection> connections(InetSocketAddress address) {
    ConnectionPool pool = pools.get(address);
    return pool == null ? List.of() : pool.connections();
  }

  @Override
  public List<Connection> connections() {
    return endpoint.connections();
  }

  private ConnectionPool pool(InetSocketAddress address) {
    Objects.requireNonNull(address, "address");
    if (closed.get()) {
      throw new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the client is closed");
    }
    ConnectionPool pool = pools.computeIfAbsent(address, a -> new ConnectionPool(a, config.connectionsPerAddress(),
        this::connectOnce, events, calls, config.reconnect(), config.minBackoffMillis(),
        config.maxBackoffMillis()));
    if (closed.get()) {
      pool.close(); // made while the client closed: close() may have missed it
      throw new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the client is closed");
    }
    return pool;
  }

  private CompletableFuture<BoltConnection> connectOnce(InetSocketAddress address) {
    CompletableFuture<BoltConnection> result = new CompletableFuture<>();
    ChannelFuture connect;
    try {
      connect = bootstrap.connect(address);
    } catch (RuntimeException e) {
      result.completeExceptionally(e); // e.g. the event loops are shutting down
      return result;
    }
    connect.addListener(f -> {
      if (f.isSuccess()) {
        result.complete(connect.channel().attr(BoltConnection.KEY).get());
      } else {
        result.completeExceptionally(f.cause());
      }
    });
    return result;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    SharedResources.runAwayFromSharedThreads("boltgen-client-close", this::shutDown);
  }

  private void shutDown() {
    calls.close();
    long timeout = config.shutdownTimeoutMillis();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
    List<PendingCall<?>> inFlight = new ArrayList<>();
    for (BoltConnection c : endpoint.openConnections()) {
      inFlight.addAll(c.pendingSnapshot());
    }
    for (PendingCall<?> call : inFlight) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      try {
        call.get(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (Exception ignored) {
        // it completed exceptionally, or the shutdown timeout passed
      }
    }
    for (ConnectionPool pool : pools.values()) {
      pool.close();
    }
    endpoint.closeConnections(timeout);
    if (ownedExecutor != null) {
      Shutdown.executor(ownedExecutor, timeout, log, "callbacks");
    }
    events.shutdown(timeout);
    shared.release();
    log.debug("boltgen client closed");
  }
}
