package io.boltgen.runtime;

import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The link from this API to the runtime that implements it, found once through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.boltgen.runtime.RuntimeProvider} in
 * bolt-runtime's own jar). It keeps imports one way: the implementation depends on this package, never the
 * reverse.
 *
 * <p>Not for users: bolt-runtime implements it exactly once, and its methods may change in any release.
 * {@link BoltClient} and {@link BoltServer} are the API.
 *
 * <p>Implementations are thread-safe.
 */
public interface RuntimeProvider {

  /** A client running {@code config}; no thread starts before the first connection. */
  Client newClient(ClientConfig config);

  /** A server running {@code config}, not yet listening. */
  Server newServer(ServerConfig config);

  /** What {@link ServerContext#current()} returns. */
  ServerContext currentServerContext();

  /**
   * Netty's own version information as bolt-runtime's class loader sees it: the artifact id and version
   * ({@code netty-common} to {@code 4.2.18.Final}) of every Netty jar with a
   * {@code META-INF/io.netty.versions.properties}; empty if there is none. What {@link NettyVersion} checks.
   */
  Map<String, String> nettyVersions();

  /** What a {@link BoltClient} delegates to. Thread-safe. */
  interface Client {

    /** See {@link BoltClient#channel(InetSocketAddress)}. */
    BoltChannel channel(InetSocketAddress address);

    /**
     * See {@link BoltClient#channel(String, BalancingPolicy)} and {@link BoltClient#channel(String, WireProtocol)};
     * {@code policy} and {@code protocol} null for the client's.
     */
    BoltChannel channel(String target, BalancingPolicy policy, WireProtocol protocol);

    /**
     * See {@link BoltClient#stub(Class, String)}: a client stub of {@code serviceInterface} to {@code target}, in
     * the frame format its descriptor asks for.
     */
    <T> T stub(Class<T> serviceInterface, String target);

    /** See {@link BoltClient#instances(String)}. */
    List<ServiceInstance> instances(String target);

    /** See {@link BoltClient#connect(InetSocketAddress)}. */
    CompletableFuture<Void> connect(InetSocketAddress address);

    /** See {@link BoltClient#connections(InetSocketAddress)}. */
    List<Connection> connections(InetSocketAddress address);

    /** See {@link BoltClient#connections()}. */
    List<Connection> connections();

    /** See {@link BoltClient#reloadTls()}. */
    void reloadTls();

    /** See {@link BoltClient#close()}. */
    void close();
  }

  /** What a {@link BoltServer} delegates to. Thread-safe. */
  interface Server {

    /** See {@link BoltServer#start()}. */
    void start();

    /** See {@link BoltServer#localAddress()}. */
    InetSocketAddress localAddress();

    /** See {@link BoltServer#connections()}. */
    List<Connection> connections();

    /** See {@link BoltServer#cancelledCalls()}. */
    long cancelledCalls();

    /** See {@link BoltServer#reloadTls()}. */
    void reloadTls();

    /** See {@link BoltServer#stopAccepting()}. */
    void stopAccepting();

    /** See {@link BoltServer#close()}. */
    void close();
  }

  /** The settings of a {@link BoltClient.Builder}, checked and copied; see its methods for each. */
  record ClientConfig(
      WireProtocol protocol,
      int connectTimeoutMillis,
      int connectionsPerAddress,
      long heartbeatIntervalMillis,
      long heartbeatTimeoutMillis,
      int heartbeatMaxMisses,
      FrameLimits limits,
      Executor callbackExecutor,
      int callbackThreads,
      boolean virtualThreads,
      boolean reconnect,
      long minBackoffMillis,
      long maxBackoffMillis,
      long shutdownTimeoutMillis,
      List<ServiceDefinition> services,
      List<ConnectionListener> listeners,
      Interceptors interceptors,
      Balancing balancing,
      Tls tls) {

    /** Copies the lists. */
    public ClientConfig {
      services = List.copyOf(services);
      listeners = List.copyOf(listeners);
    }
  }

  /** How a client resolves, balances and fails over clusters; see {@link BoltClient.Builder} for each. */
  record Balancing(
      List<NameResolver> resolvers,
      BalancingPolicy balancingPolicy,
      int maxAttempts,
      int retryBudget,
      double retryRefill,
      int failuresToEject,
      long minEjectionMillis,
      long maxEjectionMillis,
      long stallMillis,
      int capacityQueue) {

    /** Copies the list. */
    public Balancing {
      resolvers = List.copyOf(resolvers);
    }
  }

  /**
   * Where a server announces itself: the registry, and the instance fields (its address is the server's
   * port on {@code host}, or on the address it listens on when {@code host} is null).
   */
  record Announcement(
      Registry registry,
      String host,
      int weight,
      String zone,
      Map<String, String> metadata,
      long drainMillis) {

    /** Copies the map. */
    public Announcement {
      metadata = Map.copyOf(metadata);
    }

    /** The metadata an instance is registered with: its own, and its capacity when stated (0: not stated). */
    static Map<String, String> metadata(Map<String, String> own, int maxConcurrentCalls) {
      if (maxConcurrentCalls == 0) {
        return own;
      }
      Map<String, String> all = new java.util.LinkedHashMap<>(own);
      all.put(ServiceInstance.MAX_CONCURRENT_CALLS, Integer.toString(maxConcurrentCalls));
      return ServiceInstance.of(new InetSocketAddress(0)).withMetadata(all).metadata(); // checked: at most 64 entries
    }
  }

  /**
   * The settings of a {@link BoltServer.Builder}, checked and copied; see its methods for each.
   * {@code maxConnections} is 0 for the default, which the runtime measures once the server's threads exist.
   */
  record ServerConfig(
      String host,
      int port,
      int backlog,
      List<ServedService> services,
      Executor executor,
      ExecutorSelector selector,
      int minThreads,
      int maxThreads,
      int queueSize,
      boolean virtualThreads,
      WireProtocol protocol,
      FrameLimits limits,
      int maxRequestsPerConnection,
      int maxConnections,
      long idleTimeoutMillis,
      long shutdownTimeoutMillis,
      List<ConnectionListener> listeners,
      Interceptors interceptors,
      Announcement announcement,
      Tls tls,
      boolean http,
      boolean console,
      List<String> corsOrigins,
      boolean reflection) {

    /** Copies the lists. */
    public ServerConfig {
      services = List.copyOf(services);
      listeners = List.copyOf(listeners);
      corsOrigins = List.copyOf(corsOrigins);
    }
  }

  /**
   * The interceptors of a client or server, in the order they were added: those of the calls it sends and
   * those of the calls it serves.
   */
  record Interceptors(List<ClientInterceptor> client, List<ServerInterceptor> server) {

    /** Copies the lists. */
    public Interceptors {
      client = List.copyOf(client);
      server = List.copyOf(server);
    }
  }

  /** A service of a server, with its own executor or {@code null} for the server's. */
  record ServedService(ServiceDefinition service, Executor executor) {}

  /** The frame and memory limits both builders share; see their methods for each. */
  record FrameLimits(
      int maxFrameLength,
      int peerMaxFrameLength,
      int lowWaterMark,
      int highWaterMark,
      long maxQueuedBytes,
      long frameTimeoutMillis) {}
}
