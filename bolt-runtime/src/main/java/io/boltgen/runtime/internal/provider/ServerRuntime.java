package io.boltgen.runtime.internal.provider;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.RuntimeProvider.FrameLimits;
import io.boltgen.runtime.RuntimeProvider.ServedService;
import io.boltgen.runtime.RuntimeProvider.ServerConfig;
import io.boltgen.runtime.RuntimeProvider;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.internal.BoltConnection;
import io.boltgen.runtime.internal.CallEnvironment;
import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.internal.ConnectionEvents;
import io.boltgen.runtime.internal.Endpoint;
import io.boltgen.runtime.internal.EndpointSettings;
import io.boltgen.runtime.internal.FileDescriptors;
import io.boltgen.runtime.internal.PortProtocol;
import io.boltgen.runtime.internal.SharedResources;
import io.boltgen.runtime.internal.Shutdown;
import io.boltgen.runtime.internal.TlsMaterial;
import io.boltgen.runtime.internal.server.MethodTable;
import io.boltgen.runtime.internal.server.RequestDispatcher;
import io.boltgen.runtime.internal.server.VirtualThreadPool;
import io.boltgen.runtime.internal.server.WorkerPool;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.util.concurrent.Ticker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
  private final ServerCalls served;
  private final ConnectionEvents events;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final TlsMaterial tls;
  private final List<io.boltgen.runtime.cluster.Registration> registrations = new CopyOnWriteArrayList<>();
  private volatile Channel serverChannel;

  ServerRuntime(ServerConfig config) {
    this.config = config;
    this.tls = config.tls() == null ? null : new TlsMaterial(config.tls(), true, config.http()); // fails before any thread starts
    MethodTable.check(config.services().stream().map(ServedService::service).toList()); // before any thread starts
    PortProtocol.Factory http = config.http() ? portProtocol() : null; // likewise: a missing module fails here
    Executor executor = config.executor();
    if (executor == null) {
      ExecutorService pool = config.virtualThreads()
          ? VirtualThreadPool.create("boltgen-worker-virtual", config.maxThreads(), config.queueSize())
          : WorkerPool.create("boltgen-worker", config.minThreads(), config.maxThreads(), config.queueSize());
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
        config.interceptors().client());
    List<ServiceDescriptor> descriptors = config.services().stream().map(s -> s.service().descriptor()).toList();
    List<ServedService> services = new ArrayList<>(config.services());
    if (http != null && config.reflection()) { // the protocol's own services (gRPC's reflection), after the server's
      http.services(descriptors).stream().filter(service -> !taken(service, descriptors))
          .forEach(service -> services.add(new ServedService(service, null)));
    }
    this.served = ServerCalls.create(services, executor, config.selector(), shared.timer(),
        Ticker.systemTicker(), config.interceptors().server());
    this.events = new ConnectionEvents(config.listeners(), "server");
    FrameLimits limits = config.limits();
    this.endpoint = new Endpoint(
        new EndpointSettings(false, config.protocol(), limits.maxFrameLength(), limits.peerMaxFrameLength(),
            limits.lowWaterMark(), limits.highWaterMark(), limits.maxQueuedBytes(),
            config.maxRequestsPerConnection(), limits.frameTimeoutMillis(), 0, 0, 0, config.idleTimeoutMillis(), 0,
            maxConnections, config.http()),
        shared, calls, new RequestDispatcher(served), events, tls,
        http != null ? http.create(served, descriptors, config.console(), limits.maxFrameLength(),
            limits.frameTimeoutMillis(), config.corsOrigins()) : null);
    if (tls != null) {
      tls.watch(calls.timer());
    }
  }

  /**
   * Whether one of the server's own {@code services} serves a method of a protocol's {@code service} already (its
   * className or its HTTP route): then the server's is served, and the protocol's is not.
   */
  private static boolean taken(ServiceDefinition service, List<ServiceDescriptor> services) {
    for (MethodDescriptor<?, ?> method : service.descriptor().methods()) {
      for (ServiceDescriptor own : services) {
        for (MethodDescriptor<?, ?> mine : own.methods()) {
          if (mine.dispatchKey().equals(method.dispatchKey())
              || (mine.httpPath() != null && mine.httpPath().equals(method.httpPath()))) {
            log.info("{} is served by the server's own {}, not by the HTTP protocol's", method, mine);
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The protocol that serves HTTP on the port, found by {@link ServiceLoader} (HTTP/1.1 and HTTP/2 with Connect). */
  private static PortProtocol.Factory portProtocol() {
    String needed = "http(true) needs io.boltgen:bolt-http on the class path (HTTP on the Bolt port is a module of its"
        + " own): ";
    try {
      return ServiceLoader.load(PortProtocol.Factory.class, ServerRuntime.class.getClassLoader()).findFirst()
          .orElseThrow(() -> new IllegalStateException(needed + "no " + PortProtocol.Factory.class.getName()
              + " was found"));
    } catch (ServiceConfigurationError e) { // listed, but not loadable: a jar of another version, say
      throw new IllegalStateException(needed + e.getMessage(), e);
    }
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
          cause instanceof IOException io ? io : new IOException(cause));
    }
    serverChannel = bind.channel();
    if (closed.get()) {
      Channels.close(bind.channel()); // closed while it was binding
      throw new IllegalStateException("the server was closed while it started");
    }
    List<String> served = new ArrayList<>();
    for (ServedService r : config.services()) {
      served.add(r.service().descriptor().name() + ":" + r.service().descriptor().version());
    }
    log.info("boltgen server listening on {} ({}), serving {}", serverChannel.localAddress(),
        shared.isEpoll() ? "epoll" : "nio", served);
    announce();
  }

  /** Registers every service in the announcement's registry, or closes the server and says why. */
  private void announce() {
    RuntimeProvider.Announcement a = config.announcement();
    if (a == null) {
      return;
    }
    InetSocketAddress local = localAddress();
    InetSocketAddress address;
    try {
      address = new InetSocketAddress(a.host() != null ? a.host() : advertisedHost(local), local.getPort());
    } catch (RuntimeException | UnknownHostException e) {
      close();
      throw new IllegalStateException("cannot tell which address to register: " + e, e);
    }
    try {
      for (ServedService r : config.services()) {
        ServiceDescriptor d = r.service().descriptor();
        Map<String, String> metadata = a.metadata();
        if (!d.registryMetadata().isEmpty()) { // the service's own entries win over the server's
          metadata = new LinkedHashMap<>(metadata);
          metadata.putAll(d.registryMetadata());
        }
        ServiceInstance instance = new ServiceInstance(address, a.weight(), d.version(), a.zone(), metadata);
        io.boltgen.runtime.cluster.Registration made = a.registry().register(d.registryName(), instance);
        registrations.add(made);
        if (closed.get()) {
          // closed while it registered: withdraw() may have run before this registration existed
          registrations.remove(made);
          made.close();
          throw new IllegalStateException("the server was closed while it registered");
        }
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    log.info("boltgen server on {} registered {} services as {} in {}", local, registrations.size(),
        address.getAddress() != null ? address.getAddress().getHostAddress() + ":" + address.getPort() : address,
        a.registry().scheme());
  }

  /** The host a wildcard listener registers: this machine's address, as the local host name resolves. */
  private static String advertisedHost(InetSocketAddress local) throws UnknownHostException {
    InetAddress bound = local.getAddress();
    if (bound != null && !bound.isAnyLocalAddress()) {
      return bound.getHostAddress();
    }
    return InetAddress.getLocalHost().getHostAddress();
  }

  /**
   * Deregisters, then keeps serving until every client connection closed (clients leave an instance once
   * they saw it leave the registry and their calls on it were answered) or the drain time passed.
   */
  private void withdraw() {
    if (registrations.isEmpty()) {
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.announcement().drainMillis());
    // deregistered all at once, each on a thread of its own: an unreachable registry costs the drain time,
    // not its timeout once per service
    List<CompletableFuture<Void>> leaving = new java.util.ArrayList<>();
    for (io.boltgen.runtime.cluster.Registration r : registrations) {
      leaving.add(CompletableFuture.runAsync(() -> {
        try {
          r.close();
        } catch (Throwable e) {
          log.warn("deregistering {} failed: {}", r.instance().hostAndPort(), e.toString());
        }
      }, task -> SharedResources.startDaemon("boltgen-deregister", task)));
    }
    registrations.clear();
    try {
      CompletableFuture.allOf(leaving.toArray(new CompletableFuture<?>[0]))
          .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (ExecutionException | TimeoutException e) {
      log.warn("deregistering took longer than the drain time; closing anyway");
      return;
    }
    for (;;) {
      List<BoltConnection> open = endpoint.openConnections();
      long left = deadline - System.nanoTime();
      if (open.isEmpty() || left <= 0) {
        if (!open.isEmpty()) {
          log.info("{} clients still connected after the drain time; closing", open.size());
        }
        return;
      }
      CompletableFuture<?>[] closing = new CompletableFuture<?>[open.size()];
      for (int i = 0; i < closing.length; i++) {
        closing[i] = open.get(i).inactiveFuture();
      }
      try {
        CompletableFuture.anyOf(closing).get(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException | TimeoutException e) {
        // the next round tells
      }
    }
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
  public long cancelledCalls() {
    return served.cancelledCalls();
  }

  @Override
  public void reloadTls() {
    if (tls == null) {
      throw new IllegalStateException("this server has no TLS");
    }
    tls.reload();
  }

  @Override
  public void stopAccepting() {
    Channel channel = serverChannel;
    if (channel != null) {
      io.netty.channel.ChannelFuture closing = channel.close();
      if (!channel.eventLoop().inEventLoop()) { // its own thread must not wait for itself
        closing.awaitUninterruptibly(config.shutdownTimeoutMillis());
      }
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    served.closing(); // health checks say so while the server drains
    SharedResources.runAwayFromSharedThreads("boltgen-server-close", this::shutDown);
  }

  private void shutDown() {
    try {
      withdraw();
    } catch (Throwable e) {
      log.warn("leaving the registry failed; closing anyway: {}", e.toString());
    }
    calls.close();
    long timeout = config.shutdownTimeoutMillis();
    stopAccepting(); // on a thread of its own, so it waits for the listening socket to close
    Channel channel = serverChannel;
    if (ownedExecutor != null) {
      Shutdown.executor(ownedExecutor, timeout, log, "server handlers");
    }
    endpoint.closeConnections(timeout);
    events.shutdown(timeout);
    if (tls != null) {
      tls.close();
    }
    shared.release();
    if (channel != null) {
      log.info("boltgen server on {} stopped", channel.localAddress());
    }
  }
}
