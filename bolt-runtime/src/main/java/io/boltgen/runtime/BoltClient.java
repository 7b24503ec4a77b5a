package io.boltgen.runtime;

import io.boltgen.runtime.RuntimeProvider.Balancing;
import io.boltgen.runtime.RuntimeProvider.ClientConfig;
import io.boltgen.runtime.RuntimeProvider.FrameLimits;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A Bolt client: a pool of connections per remote address, created on first use, kept alive with
 * heartbeats and re-made after failures. Calls go through a {@link BoltChannel}:
 *
 * <pre>{@code
 * BoltClient client = BoltClient.builder().build();
 * Inventory inventory = InventoryBolt.newClient(client.channel("127.0.0.1:12200"));
 * Stock stock = inventory.get(new SkuId("apple"));
 * ...
 * client.close();
 * }</pre>
 *
 * <p>Threads: IO threads are shared by the process and never run user code; callbacks (and the handlers
 * of services registered for duplex calls) run on the client's callback executor. Thread-safe; one client
 * per process is usually enough.
 *
 * <p>Limits (see the builder): a request larger than the server accepts fails alone before it is written; a
 * call waits (within its timeout) while its connection cannot take more, up to a budget of queued bytes per
 * connection; lost connections are re-made within a second of the server coming back.
 *
 * <p>The builder's settings are copied by {@link Builder#build()}: changing the builder afterwards changes
 * nothing in a client already built.
 */
public final class BoltClient implements AutoCloseable {

  private final RuntimeProvider.Client runtime;

  private BoltClient(RuntimeProvider.Client runtime) {
    this.runtime = runtime;
  }

  /**
   * How many IO threads the process's clients and servers share: the system property
   * {@code boltgen.io.threads}, else twice the available processors.
   */
  public static int ioThreads() {
    return Math.max(1, Integer.getInteger("boltgen.io.threads", 2 * Runtime.getRuntime().availableProcessors()));
  }

  /** A builder with the defaults listed on its methods. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A channel to {@code target}: {@code host:port}, one address; or {@code scheme:///service}, a service
   * running as several instances, found by the client's resolver of that scheme ({@code static:///host:port,
   * host:port} needs none) and balanced by the client's {@link Builder#balancingPolicy policy}. Connections are
   * made on the first call. Asking twice for one target gives the same channel.
   *
   * @throws IllegalArgumentException if the target is malformed or names a scheme without resolver
   */
  public BoltChannel channel(String target) {
    return runtime.channel(Objects.requireNonNull(target, "target"), null, null);
  }

  /**
   * A channel to {@code target} (as {@link #channel(String)} takes it) whose connections send
   * {@code protocol}'s frames rather than the client's own format ({@link Builder#protocol}): a peer that
   * expects another format, such as a SOFARPC provider (V1), gets connections of its own. {@code null} is the
   * client's format.
   */
  public BoltChannel channel(String target, WireProtocol protocol) {
    return runtime.channel(Objects.requireNonNull(target, "target"), null, protocol);
  }

  /**
   * A channel to the cluster {@code target} ({@code scheme:///service}) that balances by {@code policy}
   * (a call may still choose another with {@link CallOptions#withBalancingPolicy}). For {@code host:port} the
   * policy is ignored.
   */
  public BoltChannel channel(String target, BalancingPolicy policy) {
    return runtime.channel(Objects.requireNonNull(target, "target"), Objects.requireNonNull(policy, "policy"), null);
  }

  /**
   * The instances of the cluster {@code target} this client knows now, ejected ones included (empty until
   * its resolver first answered). Starts resolving the target if no channel did yet.
   */
  public List<ServiceInstance> instances(String target) {
    return runtime.instances(Objects.requireNonNull(target, "target"));
  }

  /** A channel to {@code address}; connections are made on the first call. */
  public BoltChannel channel(InetSocketAddress address) {
    return runtime.channel(address);
  }

  /**
   * A client stub of {@code serviceInterface} (a {@code @BoltService} interface) talking to {@code target}
   * (as {@link #channel(String)} takes it), found through the generated-service registry; in the frame format
   * its descriptor asks for ({@link ServiceDescriptor#wireProtocol()}), else the client's.
   */
  public <T> T stub(Class<T> serviceInterface, String target) {
    return runtime.stub(Objects.requireNonNull(serviceInterface, "serviceInterface"),
        Objects.requireNonNull(target, "target"));
  }

  /**
   * Makes the connections to {@code address} now instead of on the first call; the future completes when
   * all of them are up, or fails with the first failure.
   */
  public CompletableFuture<Void> connect(InetSocketAddress address) {
    return runtime.connect(address);
  }

  /** The connections currently open to {@code address}. */
  public List<Connection> connections(InetSocketAddress address) {
    return runtime.connections(address);
  }

  /** Every connection currently open. */
  public List<Connection> connections() {
    return runtime.connections();
  }

  /**
   * Reads the TLS key and trust material again ({@link Builder#tls}): new connections use it, existing ones
   * keep theirs.
   *
   * @throws IllegalStateException if the client has no TLS
   * @throws IllegalArgumentException if the material cannot be used (the current material stays)
   */
  public void reloadTls() {
    runtime.reloadTls();
  }

  /**
   * Closes the client gracefully: new calls fail at once, calls in flight get up to the shutdown timeout
   * to complete, then every connection closes (failing whatever still waits with CONNECTION_CLOSED), the
   * client's threads stop and the shared ones are released. Idempotent and safe to call from several
   * threads at once: the first call does the work. Called on one of the runtime's own IO or timer threads
   * (from a callback that runs there, say), which must not wait for calls they complete themselves, it
   * returns at once and the work goes on in a thread of its own.
   */
  @Override
  public void close() {
    runtime.close();
  }

  /** Configures a {@link BoltClient}. Not thread-safe. */
  public static final class Builder {
    private final List<ServiceDefinition> services = new ArrayList<>();
    private final List<ConnectionListener> listeners = new ArrayList<>();
    private final List<ClientInterceptor> clientInterceptors = new ArrayList<>();
    private final List<ServerInterceptor> serverInterceptors = new ArrayList<>();
    private WireProtocol protocol = WireProtocol.V2_CRC;
    private int connectTimeoutMillis = 1000;
    private int connectionsPerAddress = 1;
    private long heartbeatIntervalMillis = 15_000;
    private long heartbeatTimeoutMillis = 1_000;
    private int heartbeatMaxMisses = 3;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private int peerMaxFrameLength = Limits.MAX_FRAME_LENGTH;
    private int lowWaterMark = Limits.LOW_WATER_MARK;
    private int highWaterMark = Limits.HIGH_WATER_MARK;
    private long maxQueuedBytes = Limits.MAX_QUEUED_BYTES;
    private long frameTimeoutMillis = Limits.FRAME_TIMEOUT_MILLIS;
    private Executor callbackExecutor;
    private int callbackThreads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    private boolean virtualThreads;
    private boolean reconnect = true;
    private long minBackoffMillis = 100;
    private long maxBackoffMillis = 1_000;
    private long shutdownTimeoutMillis = 5_000;
    private final List<NameResolver> resolvers = new ArrayList<>();
    private BalancingPolicy balancingPolicy = BalancingPolicy.LEAST_PENDING;
    private int maxAttempts = 3;
    private int retryBudget = 100;
    private double retryRefill = 0.2;
    private int failuresToEject = 3;
    private long minEjectionMillis = 1_000;
    private long maxEjectionMillis = 30_000;
    private long stallMillis = 1_000;
    private int capacityQueue = 1_024;
    private Tls tls;

    private Builder() {}

    /** The frame format requests use; {@link WireProtocol#V2_CRC} unless set. */
    public Builder protocol(WireProtocol protocol) {
      this.protocol = Objects.requireNonNull(protocol, "protocol");
      return this;
    }

    /** How long one connection attempt may take; 1 s unless set. */
    public Builder connectTimeout(Duration timeout) {
      long millis = Checks.positiveMillis(timeout, "connectTimeout");
      this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, millis);
      return this;
    }

    /**
     * Connections per remote address; 1 unless set. With more than one, connection {@code i} is served by IO
     * thread {@code i} (modulo {@link BoltClient#ioThreads()}), and a call sent from an IO thread, as a
     * gateway forwards the request it just read or a callback makes its next call, goes on that thread's own
     * connection: neither the request nor its answer changes threads. A proxy sets it to {@code ioThreads()}.
     */
    public Builder connectionsPerAddress(int connections) {
      this.connectionsPerAddress = Checks.positive(connections, "connectionsPerAddress");
      return this;
    }

    /**
     * Heartbeats: one is sent after {@code interval} without reading anything, must be answered within
     * {@code timeout}, and {@code maxMisses} failures in a row close the connection. 15 s, 1 s and 3
     * unless set; a zero interval turns heartbeats off.
     */
    public Builder heartbeat(Duration interval, Duration timeout, int maxMisses) {
      this.heartbeatIntervalMillis = Checks.nonNegativeMillis(interval, "heartbeat interval");
      this.heartbeatTimeoutMillis = Checks.positiveMillis(timeout, "heartbeat timeout");
      this.heartbeatMaxMisses = Checks.positive(maxMisses, "heartbeat maxMisses");
      return this;
    }

    /** The largest frame accepted, in bytes; 16 MiB unless set. A larger one closes its connection. */
    public Builder maxFrameLength(int bytes) {
      this.maxFrameLength = Checks.atLeast(bytes, Limits.MIN_FRAME_LENGTH, "maxFrameLength");
      return this;
    }

    /**
     * The largest frame the servers accept, in bytes; 16 MiB (the default of boltgen servers) unless set.
     * A call whose request frame would be larger fails at once with CODEC_EXCEPTION naming the limit, before
     * anything is written; other calls on the connection are untouched. Set it to the server's
     * {@code maxFrameLength} when that is lower.
     */
    public Builder peerMaxFrameLength(int bytes) {
      this.peerMaxFrameLength = Checks.atLeast(bytes, Limits.MIN_FRAME_LENGTH, "peerMaxFrameLength");
      return this;
    }

    /**
     * Write-buffer water marks per connection; 32 KiB / 64 KiB unless set. Requests are handed to a
     * connection's socket buffer while it holds less than the high mark; the rest wait in the connection's
     * write queue (see {@link #maxQueuedBytes}) until it drains below the low mark.
     */
    public Builder writeBufferWaterMark(int low, int high) {
      Checks.waterMarks(low, high);
      this.lowWaterMark = low;
      this.highWaterMark = high;
      return this;
    }

    /**
     * The most bytes of encoded requests one connection's write queue holds while the connection cannot take
     * them; 64 MiB unless set. A call waits there within its own timeout (and times out saying it was never
     * written); a call that would take the queue past this budget fails at once with CLIENT_SEND_ERROR. A
     * request into an empty queue always fits, however large.
     */
    public Builder maxQueuedBytes(long bytes) {
      this.maxQueuedBytes = Checks.positive(bytes, "maxQueuedBytes");
      return this;
    }

    /**
     * How long a server may take to send one frame, from its first byte to its last; 10 s unless set; zero
     * means no limit. A connection whose frame takes longer is closed (its calls fail with
     * CONNECTION_CLOSED).
     */
    public Builder frameTimeout(Duration timeout) {
      this.frameTimeoutMillis = Checks.nonNegativeMillis(timeout, "frameTimeout");
      return this;
    }

    /**
     * Where callbacks, {@code *Async} future stages and duplex handlers run; the client does not own it.
     * Unless set, the client owns a pool of {@link #callbackThreads} daemon threads (or
     * {@linkplain #virtualThreads virtual threads}).
     */
    public Builder callbackExecutor(Executor executor) {
      this.callbackExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * How many callbacks, future stages and duplex handlers run at once on the client's own executor (its
     * threads, or its virtual threads), the rest waiting in call order: max(4, 2 × cores) unless set.
     */
    public Builder callbackThreads(int threads) {
      this.callbackThreads = Checks.positive(threads, "callbackThreads");
      return this;
    }

    /**
     * Runs callbacks, {@code *Async} future stages and duplex handlers on virtual threads (Java 21+) instead of
     * the client's own pool, with the same bound: at most {@link #callbackThreads} at once (raise it for
     * callbacks that block), each on a virtual thread of its own, the rest queued in call order as with the
     * pool. Not with {@link #callbackExecutor}.
     *
     * @throws UnsupportedOperationException on a JVM older than Java 21 (the runtime runs on 17)
     */
    public Builder virtualThreads() {
      Checks.virtualThreadsAvailable();
      this.virtualThreads = true;
      return this;
    }

    /**
     * Re-make lost connections in the background, waiting {@code min} after the first failure, doubling
     * up to {@code max} (each wait up to 20% shorter at random). On, 100 ms and 1 s unless set: a server
     * that comes back is found within a second. A call made while a connection is down starts an attempt
     * at once unless the connection is backing off, in which case it fails at once with ERROR_COMM.
     */
    public Builder reconnect(boolean enabled, Duration min, Duration max) {
      long minMillis = Checks.positiveMillis(min, "reconnect min backoff");
      long maxMillis = Checks.positiveMillis(max, "reconnect max backoff");
      if (minMillis > maxMillis) {
        throw new IllegalArgumentException("min backoff above max: " + min + " > " + max);
      }
      this.reconnect = enabled;
      this.minBackoffMillis = minMillis;
      this.maxBackoffMillis = maxMillis;
      return this;
    }

    /** How long {@link #close()} waits for calls in flight; 5 s unless set. */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeoutMillis = Checks.positiveMillis(timeout, "shutdownTimeout");
      return this;
    }

    /** A service the client serves to its servers, which can call it over the connection (duplex). */
    public Builder service(ServiceDefinition service) {
      services.add(Objects.requireNonNull(service, "service"));
      return this;
    }

    /**
     * Adds an interceptor of the calls this client sends ({@link ClientInterceptor}); interceptors run in the
     * order they were added.
     */
    public Builder clientInterceptor(ClientInterceptor interceptor) {
      clientInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Adds an interceptor of the calls this client serves ({@link ServerInterceptor}); interceptors run in the
     * order they were added.
     */
    public Builder serverInterceptor(ServerInterceptor interceptor) {
      serverInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Resolves targets {@code scheme:///service} of the resolver's scheme (a registry is a resolver). A
     * later resolver of the same scheme replaces an earlier one; {@code static} is built in.
     */
    public Builder nameResolver(NameResolver resolver) {
      resolvers.add(Objects.requireNonNull(resolver, "resolver"));
      return this;
    }

    /** How channels to clusters pick an instance per call; {@link BalancingPolicy#LEAST_PENDING} unless set. */
    public Builder balancingPolicy(BalancingPolicy policy) {
      this.balancingPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Failover in clusters: a call is sent at most {@code maxAttempts} times in all (3 unless set; 1 turns
     * retries off), and retries take tokens from a budget of {@code budget} (100 unless set) that every call
     * refills by {@code refillPerCall} (0.2 unless set: retries add at most a fifth to the load). A call is
     * sent again only to another instance, within its own timeout, after a failure of the instance or the
     * network, and only if its request never left this client or its method is {@code @Idempotent}.
     */
    public Builder retries(int maxAttempts, int budget, double refillPerCall) {
      this.maxAttempts = Checks.positive(maxAttempts, "maxAttempts");
      this.retryBudget = Checks.positive(budget, "retry budget");
      if (!(refillPerCall >= 0 && refillPerCall <= 1)) {
        throw new IllegalArgumentException("refillPerCall must be 0..1: " + refillPerCall);
      }
      this.retryRefill = refillPerCall;
      return this;
    }

    /**
     * Ejection in clusters: an instance whose connects or calls fail {@code failures} times in a row (3
     * unless set) takes no calls for {@code min} (1 s unless set), twice as long after each ejection in a
     * row up to {@code max} (30 s unless set); then one failure ejects it again, one answer clears it.
     */
    public Builder ejection(int failures, Duration min, Duration max) {
      long minMillis = Checks.positiveMillis(min, "min ejection");
      long maxMillis = Checks.positiveMillis(max, "max ejection");
      if (minMillis > maxMillis) {
        throw new IllegalArgumentException("min ejection above max: " + min + " > " + max);
      }
      this.failuresToEject = Checks.positive(failures, "failures");
      this.minEjectionMillis = minMillis;
      this.maxEjectionMillis = maxMillis;
      return this;
    }

    /**
     * Stalled instances in clusters: an instance that owes an answer for longer than {@code stall} (1 s
     * unless set), counting calls given up on, while another instance does answer, takes one call at a time
     * until it answers again (a frozen process, a host that stopped: its connection looks open). When every
     * instance owes answers that long, none counts as stalled. Zero turns this off.
     */
    public Builder stallTimeout(Duration stall) {
      this.stallMillis = Checks.nonNegativeMillis(stall, "stallTimeout");
      return this;
    }

    /**
     * How many calls of one cluster may wait for a place when every instance is at its stated capacity
     * (registry metadata {@code maxConcurrentCalls}): 1,024 unless set. A waiting call goes out as soon as an
     * answer frees a place, within its own timeout; beyond the queue, calls fail at once with
     * {@code SERVER_THREADPOOL_BUSY}.
     */
    public Builder capacityQueue(int calls) {
      this.capacityQueue = Checks.positive(calls, "capacityQueue");
      return this;
    }

    /**
     * Connects over TLS (see {@link Tls}): the server's certificate must chain to the trust and, unless
     * turned off, name the host connected to; key material makes the client present a certificate (mutual
     * TLS). A connection counts as up once its handshake succeeded; a failed handshake is a failed connect
     * (one log line, reconnect backoff applies). Off unless set.
     */
    public Builder tls(Tls tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
      return this;
    }

    /** Observes connections. */
    public Builder connectionListener(ConnectionListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /** The client, with a copy of this builder's settings. */
    public BoltClient build() {
      if (virtualThreads && callbackExecutor != null) {
        throw new IllegalStateException(
            "virtualThreads() makes the client's own executor: not with callbackExecutor(...)");
      }
      ClientConfig config = new ClientConfig(protocol, connectTimeoutMillis, connectionsPerAddress,
          heartbeatIntervalMillis, heartbeatTimeoutMillis, heartbeatMaxMisses,
          new FrameLimits(maxFrameLength, peerMaxFrameLength, lowWaterMark, highWaterMark, maxQueuedBytes,
              frameTimeoutMillis),
          callbackExecutor, callbackThreads, virtualThreads, reconnect, minBackoffMillis, maxBackoffMillis,
          shutdownTimeoutMillis,
          services, listeners, new RuntimeProvider.Interceptors(clientInterceptors, serverInterceptors),
          new Balancing(resolvers, balancingPolicy, maxAttempts, retryBudget, retryRefill, failuresToEject,
              minEjectionMillis, maxEjectionMillis, stallMillis, capacityQueue), tls);
      return new BoltClient(Runtimes.PROVIDER.newClient(config));
    }
  }
}
