package io.boltgen.runtime.internal.provider;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.RuntimeProvider.ClientConfig;
import io.boltgen.runtime.RuntimeProvider.FrameLimits;
import io.boltgen.runtime.RuntimeProvider;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.internal.BoltConnection;
import io.boltgen.runtime.internal.CallEnvironment;
import io.boltgen.runtime.internal.ConnectionEvents;
import io.boltgen.runtime.internal.ConnectionPool;
import io.boltgen.runtime.internal.Endpoint;
import io.boltgen.runtime.internal.EndpointSettings;
import io.boltgen.runtime.internal.PendingCall;
import io.boltgen.runtime.internal.SharedResources;
import io.boltgen.runtime.internal.Shutdown;
import io.boltgen.runtime.internal.TlsMaterial;
import io.boltgen.runtime.internal.cluster.ClusterMember;
import io.boltgen.runtime.internal.cluster.ClusterTarget;
import io.boltgen.runtime.internal.cluster.StaticResolver;
import io.boltgen.runtime.internal.cluster.Targets;
import io.boltgen.runtime.internal.server.VirtualThreadPool;
import io.boltgen.runtime.internal.server.MethodTable;
import io.boltgen.runtime.internal.server.RequestDispatcher;
import io.boltgen.runtime.service.GeneratedService;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Ticker;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@code BoltClient} runs on: a {@link ConnectionPool} per remote address and frame format (the client's,
 * or one a channel asked for), made on first use, over
 * one {@link Endpoint} and the process's {@link SharedResources}; and a {@link ClusterTarget} per cluster
 * target. A pool that a channel to its address asked for lives as long as the client; a pool only clusters
 * use is closed (once idle) when the last of them lets it go.
 *
 * <p>Thread-safe: pools are created and counted inside the concurrent map's atomic updates;
 * {@link #close()} runs once.
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
  private final List<EventLoop> ioLoops = new ArrayList<>(); // the IO threads, in order
  private final ConcurrentHashMap<PoolKey, PoolUse> pools = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<ClusterKey, ClusterTarget> clusters = new ConcurrentHashMap<>();
  private final Map<String, NameResolver> resolvers = new HashMap<>();
  private final ClusterTarget.Failover failover;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final TlsMaterial tls;

  /** The pool of the connections to {@code address} that send {@code protocol}'s frames. */
  private record PoolKey(InetSocketAddress address, WireProtocol protocol) {}

  /** The cluster of {@code target} whose connections send {@code protocol}'s frames. */
  private record ClusterKey(String target, WireProtocol protocol) {}

  /** A pool and who uses it: channels to its address (for the client's life) and clusters (counted). */
  private static final class PoolUse {
    final ConnectionPool pool;
    boolean pinned;
    int clusters;

    PoolUse(ConnectionPool pool) {
      this.pool = pool;
    }
  }

  ClientRuntime(ClientConfig config) {
    this.config = config;
    this.tls = config.tls() == null ? null : new TlsMaterial(config.tls(), false, false); // fails before any thread starts
    resolvers.put(StaticResolver.SCHEME, new StaticResolver());
    for (NameResolver resolver : config.balancing().resolvers()) {
      resolvers.put(Objects.requireNonNull(resolver.scheme(), "resolver scheme"), resolver);
    }
    RuntimeProvider.Balancing b = config.balancing();
    this.failover = new ClusterTarget.Failover(b.maxAttempts(), b.retryBudget(), b.retryRefill(),
        new ClusterMember.Ejection(b.failuresToEject(), TimeUnit.MILLISECONDS.toNanos(b.minEjectionMillis()),
            TimeUnit.MILLISECONDS.toNanos(b.maxEjectionMillis())),
        TimeUnit.MILLISECONDS.toNanos(b.stallMillis()), b.capacityQueue());
    MethodTable.check(config.services()); // before any thread starts
    Executor executor = config.callbackExecutor();
    if (executor == null) {
      this.ownedExecutor = config.virtualThreads()
          ? VirtualThreadPool.create("boltgen-callback-virtual", config.callbackThreads(), Integer.MAX_VALUE)
          : callbackPool(config.callbackThreads());
      executor = ownedExecutor;
    } else {
      this.ownedExecutor = null;
    }
    this.shared = SharedResources.acquire();
    this.calls = new CallEnvironment(shared.timer(), Ticker.systemTicker(), executor, "client",
        config.interceptors().client());
    ServerCalls served = ServerCalls.create(
        config.services().stream().map(service -> new RuntimeProvider.ServedService(service, null)).toList(),
        executor, null, shared.timer(), Ticker.systemTicker(), config.interceptors().server());
    this.events = new ConnectionEvents(config.listeners(), "client");
    FrameLimits limits = config.limits();
    this.endpoint = new Endpoint(
        new EndpointSettings(true, config.protocol(), limits.maxFrameLength(), limits.peerMaxFrameLength(),
            limits.lowWaterMark(), limits.highWaterMark(), limits.maxQueuedBytes(), Integer.MAX_VALUE,
            limits.frameTimeoutMillis(), config.heartbeatIntervalMillis(), config.heartbeatTimeoutMillis(),
            config.heartbeatMaxMisses(), 0, config.connectTimeoutMillis(), Integer.MAX_VALUE, false),
        shared, calls, new RequestDispatcher(served), events, tls);
    if (tls != null) {
      tls.watch(calls.timer());
    }
    this.bootstrap = new Bootstrap()
        .group(shared.ioGroup())
        .channel(shared.socketChannelClass())
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMillis())
        .handler(endpoint.initializer());
    endpoint.applyOptions(bootstrap::option);
    for (EventExecutor loop : shared.ioGroup()) {
      ioLoops.add((EventLoop) loop);
    }
  }

  /** The client's own callback pool: {@code threads} daemon threads that end after a minute without work. */
  private static ExecutorService callbackPool(int threads) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), new DefaultThreadFactory("boltgen-callback", true));
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  @Override
  public BoltChannel channel(InetSocketAddress address) {
    return pool(new PoolKey(address, config.protocol())).channel();
  }

  @Override
  public BoltChannel channel(String target, BalancingPolicy policy, WireProtocol protocol) {
    WireProtocol frames = protocol != null ? protocol : config.protocol();
    if (!Targets.isCluster(target)) {
      return pool(new PoolKey(Targets.address(target), frames)).channel();
    }
    return cluster(new ClusterKey(target, frames)).channel(policy != null ? policy
        : config.balancing().balancingPolicy());
  }

  @Override
  public List<ServiceInstance> instances(String target) {
    if (!Targets.isCluster(target)) {
      throw new IllegalArgumentException("not a cluster target (scheme:///service): " + target);
    }
    for (Map.Entry<ClusterKey, ClusterTarget> e : clusters.entrySet()) {
      if (e.getKey().target().equals(target)) {
        return e.getValue().instances(); // the same instances, whatever format its connections send
      }
    }
    return cluster(new ClusterKey(target, config.protocol())).instances();
  }

  @Override
  public <T> T stub(Class<T> serviceInterface, String target) {
    GeneratedService<T> service = GeneratedService.of(serviceInterface);
    return service.newClient(channel(target, null, service.descriptor().wireProtocol()));
  }

  private ClusterTarget cluster(ClusterKey key) {
    checkOpen();
    String target = key.target();
    Targets.Cluster parsed = Targets.cluster(target);
    NameResolver resolver = resolvers.get(parsed.scheme());
    if (resolver == null) {
      throw new IllegalArgumentException("no resolver for " + parsed.scheme() + ":// targets (" + target
          + "): give the client one with BoltClient.Builder.nameResolver, for example a registry");
    }
    ClusterTarget cluster = clusters.computeIfAbsent(key, k -> new ClusterTarget(target, resolver,
        parsed.service(), clusterPools(k.protocol()), calls, failover));
    if (closed.get()) {
      cluster.close(); // made while the client closed: close() may have missed it
      checkOpen();
    }
    return cluster;
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the client is closed");
    }
  }

  /** How clusters whose connections send {@code protocol}'s frames share this client's pools. */
  private ClusterTarget.Pools clusterPools(WireProtocol protocol) {
    return new ClusterTarget.Pools() {
      @Override
      public ConnectionPool acquire(InetSocketAddress address) {
        return pools.compute(new PoolKey(address, protocol), (k, use) -> {
          PoolUse u = use != null ? use : new PoolUse(newPool(k));
          u.clusters++;
          return u;
        }).pool;
      }

      @Override
      public void release(InetSocketAddress address) {
        ConnectionPool[] unused = new ConnectionPool[1];
        pools.computeIfPresent(new PoolKey(address, protocol), (k, use) -> {
          use.clusters--;
          if (use.clusters > 0 || use.pinned) {
            return use;
          }
          unused[0] = use.pool;
          return null;
        });
        if (unused[0] != null) {
          unused[0].closeWhenIdle();
        }
      }
    };
  }

  private ConnectionPool newPool(PoolKey key) {
    return new ConnectionPool(key.address(), config.connectionsPerAddress(),
        (address, slot) -> connectOnce(address, slot, key.protocol()), events, calls,
        config.reconnect(), config.minBackoffMillis(), config.maxBackoffMillis());
  }

  @Override
  public CompletableFuture<Void> connect(InetSocketAddress address) {
    return pool(new PoolKey(address, config.protocol())).connect();
  }

  @Override
  public List<Connection> connections(InetSocketAddress address) {
    List<Connection> open = new ArrayList<>();
    pools.forEach((key, use) -> {
      if (key.address().equals(address)) {
        open.addAll(use.pool.connections());
      }
    });
    return open;
  }

  @Override
  public List<Connection> connections() {
    return endpoint.connections();
  }

  private ConnectionPool pool(PoolKey key) {
    Objects.requireNonNull(key.address(), "address");
    checkOpen();
    ConnectionPool pool = pools.compute(key, (k, use) -> {
      PoolUse u = use != null ? use : new PoolUse(newPool(k));
      u.pinned = true;
      u.pool.pin();
      return u;
    }).pool;
    if (closed.get()) {
      pool.close(); // made while the client closed: close() may have missed it
      throw new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the client is closed");
    }
    return pool;
  }

  private CompletableFuture<BoltConnection> connectOnce(InetSocketAddress address, int slot, WireProtocol protocol) {
    CompletableFuture<BoltConnection> result = new CompletableFuture<>();
    ChannelFuture connect;
    try {
      // several connections per address: slot i on IO thread i (mod their number), so that every IO thread
      // has one of its own to send on (ConnectionPool.pick prefers it)
      boolean ownFormat = protocol != config.protocol();
      Bootstrap b = config.connectionsPerAddress() > 1 ? bootstrap.clone(ioLoops.get(slot % ioLoops.size()))
          : tls == null && !ownFormat ? bootstrap : bootstrap.clone();
      if (ownFormat) {
        b.attr(Endpoint.PROTOCOL, protocol);
      }
      connect = tls == null ? b.connect(address) : b.attr(Endpoint.TARGET, address).connect(address);
    } catch (RuntimeException e) {
      result.completeExceptionally(e); // e.g. the event loops are shutting down
      return result;
    }
    connect.addListener(f -> {
      if (!f.isSuccess()) {
        result.completeExceptionally(f.cause());
        return;
      }
      BoltConnection connection = connect.channel().attr(BoltConnection.KEY).get();
      SslHandler handshake = tls == null ? null : connect.channel().pipeline().get(SslHandler.class);
      if (handshake == null) {
        result.complete(connection);
        return;
      }
      // up once the handshake succeeded: a failed one is a failed connect, never a failed call
      handshake.handshakeFuture().addListener(h -> {
        if (h.isSuccess()) {
          connection.onHandshake(handshake.engine().getSession()); // before anyone sees the connection up
          result.complete(connection);
        } else {
          Throwable cause = h.cause();
          String why = cause instanceof java.nio.channels.ClosedChannelException
              ? "the connection closed during the handshake (does the server speak TLS?)"
              : cause.getMessage() != null ? cause.getMessage() : cause.toString();
          result.completeExceptionally(new SSLHandshakeException("TLS handshake with " + address + " failed: " + why));
        }
      });
    });
    return result;
  }

  @Override
  public void reloadTls() {
    if (tls == null) {
      throw new IllegalStateException("this client has no TLS");
    }
    tls.reload();
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
    for (ClusterTarget cluster : clusters.values()) {
      cluster.close();
    }
    for (PoolUse use : pools.values()) {
      use.pool.close();
    }
    endpoint.closeConnections(timeout);
    if (ownedExecutor != null) {
      Shutdown.executor(ownedExecutor, timeout, log, "callbacks");
    }
    events.shutdown(timeout);
    if (tls != null) {
      tls.close();
    }
    shared.release();
    log.debug("boltgen client closed");
  }
}
