package io.boltgen.runtime;

import io.boltgen.runtime.RuntimeProvider.FrameLimits;
import io.boltgen.runtime.RuntimeProvider.ServedService;
import io.boltgen.runtime.RuntimeProvider.ServerConfig;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * A Bolt server: accepts connections, runs the registered services' handlers on their executors, answers
 * in each connection's own frame format (V1, V2, V2 with CRC) and can call its clients back over the
 * connection a request came on ({@link ServerContext#connection()}).
 *
 * <pre>{@code
 * BoltServer server = BoltServer.builder()
 *     .bind("127.0.0.1", 0)
 *     .service(InventoryBolt.bind(new InventoryImpl()))
 *     .build()
 *     .start();
 * int port = server.port();
 * ...
 * server.close();
 * }</pre>
 *
 * <p>Threads: IO threads are shared by the process; handlers run on the server's executor (by default its
 * own pool of 20 to 400 threads, which grows before it queues, with a queue of 600; a full executor answers
 * SERVER_THREADPOOL_BUSY at once; on Java 21+, {@linkplain Builder#virtualThreads() virtual threads} within
 * the same bounds), or on a service's own executor. A request that waited on the server
 * longer than the caller's timeout, or whose connection closed, is dropped unanswered (nobody waits for it).
 *
 * <p>Limits (see the builder): connections open at once, requests open per connection (reads pause beyond
 * it, and while a client does not read its answers), time to finish a frame, largest frame in and out.
 *
 * <p>The builder's settings are copied by {@link Builder#build()}: changing the builder afterwards changes
 * nothing in a server already built. Thread-safe.
 */
public final class BoltServer implements AutoCloseable {

  private final RuntimeProvider.Server runtime;

  private BoltServer(RuntimeProvider.Server runtime) {
    this.runtime = runtime;
  }

  /** A builder with the defaults listed on its methods. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Binds and starts accepting connections.
   *
   * @throws UncheckedIOException if the address cannot be bound (the server is closed again)
   */
  public BoltServer start() {
    runtime.start();
    return this;
  }

  /** The bound port (useful after binding port 0). */
  public int port() {
    return localAddress().getPort();
  }

  /** The bound address. */
  public InetSocketAddress localAddress() {
    return runtime.localAddress();
  }

  /** The client connections currently open. */
  public List<Connection> connections() {
    return runtime.connections();
  }

  /**
   * The calls cancelled since the server started: calls whose caller went away before they were answered
   * (an HTTP/2 stream reset, a connection closed), whether they were dropped from their executor's queue or
   * their handler was running (see {@link ServerContext#isCancelled()}).
   */
  public long cancelledCalls() {
    return runtime.cancelledCalls();
  }

  /**
   * Reads the TLS key and trust material again ({@link Builder#tls}): connections accepted from now on use
   * it, existing ones keep theirs.
   *
   * @throws IllegalStateException if the server has no TLS
   * @throws IllegalArgumentException if the material cannot be used (the current material stays)
   */
  public void reloadTls() {
    runtime.reloadTls();
  }

  /**
   * Stops accepting connections, keeping those already open and the calls on them: a client that connects from now
   * on is refused at once, as by a server that is gone, while the calls already sent are answered. The first step of
   * a drain the caller runs itself (a gateway finishing the calls it forwards) before {@link #close()}, which does
   * the rest. Idempotent; nothing to do before {@link #start()}.
   */
  public void stopAccepting() {
    runtime.stopAccepting();
  }

  /**
   * Stops the server gracefully. With a {@linkplain Builder#registry registry} it first deregisters and keeps
   * serving while clients move away (up to the {@linkplain Builder#drainTime drain time}). Then it stops
   * accepting connections, lets handlers already running finish (up
   * to the shutdown timeout), closes every connection (the server's own pending calls over them fail
   * with CONNECTION_CLOSED), stops its threads and releases the shared ones. Idempotent and safe to call
   * from several threads at once: the first call does the work. Called on one of the runtime's own IO or
   * timer threads, which must not wait for themselves, it returns at once and the work goes on in a
   * thread of its own.
   */
  @Override
  public void close() {
    runtime.close();
  }

  /** Configures a {@link BoltServer}. Not thread-safe. */
  public static final class Builder {
    private String host = "0.0.0.0";
    private int port = 12200;
    private final List<ServedService> services = new ArrayList<>();
    private final List<ConnectionListener> listeners = new ArrayList<>();
    private final List<ClientInterceptor> clientInterceptors = new ArrayList<>();
    private final List<ServerInterceptor> serverInterceptors = new ArrayList<>();
    private Executor executor;
    private ExecutorSelector selector;
    private int minThreads = 20;
    private int maxThreads = 400;
    private int queueSize = 600;
    private boolean virtualThreads;
    private WireProtocol protocol = WireProtocol.V2_CRC;
    private int maxFrameLength = Limits.MAX_FRAME_LENGTH;
    private int peerMaxFrameLength = Limits.MAX_FRAME_LENGTH;
    private int lowWaterMark = Limits.LOW_WATER_MARK;
    private int highWaterMark = Limits.HIGH_WATER_MARK;
    private long maxQueuedBytes = Limits.MAX_QUEUED_BYTES;
    private int maxRequestsPerConnection = Limits.MAX_REQUESTS_PER_CONNECTION;
    private long frameTimeoutMillis = Limits.FRAME_TIMEOUT_MILLIS;
    private int maxConnections; // 0: the default, measured when the server is built
    private long idleTimeoutMillis = 90_000;
    private long shutdownTimeoutMillis = 5_000;
    private int backlog = 1024;
    private Registry registry;
    private String advertisedHost;
    private int weight = ServiceInstance.DEFAULT_WEIGHT;
    private String zone = "";
    private Map<String, String> metadata = Map.of();
    private int maxConcurrentCalls;
    private long drainMillis = 5_000;
    private Tls tls;
    private boolean http;
    private boolean console;
    private boolean reflection = true;
    private List<String> corsOrigins = List.of();

    private Builder() {}

    /** The address to listen on; {@code 0.0.0.0:12200} (SOFARPC's port) unless set; port 0 picks a free one. */
    public Builder bind(String host, int port) {
      this.host = Objects.requireNonNull(host, "host");
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      this.port = port;
      return this;
    }

    /** Serves {@code service} on the server's executor. */
    public Builder service(ServiceDefinition service) {
      services.add(new ServedService(Objects.requireNonNull(service, "service"), null));
      return this;
    }

    /**
     * Serves {@code service} on {@code executor}, which the server does not own or shut down. A direct
     * executor ({@code Runnable::run}) runs the handlers on the IO thread: only for handlers that never block.
     */
    public Builder service(ServiceDefinition service, Executor executor) {
      services.add(new ServedService(Objects.requireNonNull(service, "service"), Objects.requireNonNull(executor, "executor")));
      return this;
    }

    /**
     * The executor handlers run on unless their service has its own; the server does not own it. Unless
     * set, the server owns a pool of {@link #threads} threads.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Sizes the server's own executor: 20 to 400 threads and a queue of 600 unless set. It adds threads up
     * to the maximum before it queues anything, so slow handlers do not hold quick ones back until all of
     * them are busy; when the queue is full too, requests are answered SERVER_THREADPOOL_BUSY.
     */
    public Builder threads(int min, int max, int queueSize) {
      if (min < 0 || max <= 0 || min > max || queueSize <= 0) {
        throw new IllegalArgumentException("need 0 <= min <= max, max > 0, queue > 0: " + min + "/" + max + "/" + queueSize);
      }
      this.minThreads = min;
      this.maxThreads = max;
      this.queueSize = queueSize;
      return this;
    }

    /**
     * Runs handlers on virtual threads (Java 21+) instead of the server's own pool of platform threads,
     * with the same bounds: at most the maximum of {@link #threads} run at once, each on a virtual thread
     * of its own, and up to its queue wait; beyond that, requests are answered SERVER_THREADPOOL_BUSY at
     * once, so ten thousand parked handlers need {@code threads(0, 10_000, queue)} and are never more. For
     * handlers that block (on a database, another call); quick ones gain nothing. Not with {@link #executor}.
     *
     * @throws UnsupportedOperationException on a JVM older than Java 21 (the runtime runs on 17)
     */
    public Builder virtualThreads() {
      Checks.virtualThreadsAvailable();
      this.virtualThreads = true;
      return this;
    }

    /** Chooses the executor per request (on the IO thread, before the service's executor). */
    public Builder executorSelector(ExecutorSelector selector) {
      this.selector = Objects.requireNonNull(selector, "selector");
      return this;
    }

    /**
     * Adds an interceptor of the calls this server sends ({@link ClientInterceptor}); interceptors run in the
     * order they were added.
     */
    public Builder clientInterceptor(ClientInterceptor interceptor) {
      clientInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /**
     * Adds an interceptor of the calls this server serves ({@link ServerInterceptor}); interceptors run in the
     * order they were added.
     */
    public Builder serverInterceptor(ServerInterceptor interceptor) {
      serverInterceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
      return this;
    }

    /** Observes connections. */
    public Builder connectionListener(ConnectionListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * The format of duplex calls the server sends on a connection before the client sent its first
     * frame (after that it uses the client's format); {@link WireProtocol#V2_CRC} unless set.
     */
    public Builder protocol(WireProtocol protocol) {
      this.protocol = Objects.requireNonNull(protocol, "protocol");
      return this;
    }

    /** The largest frame accepted, in bytes; 16 MiB unless set. A larger one closes its connection. */
    public Builder maxFrameLength(int bytes) {
      this.maxFrameLength = Checks.atLeast(bytes, Limits.MIN_FRAME_LENGTH, "maxFrameLength");
      return this;
    }

    /**
     * The largest frame the clients accept, in bytes; 16 MiB (their default) unless set. A larger answer is
     * not sent: its caller gets SERVER_SERIAL_EXCEPTION naming the limit, and the connection stays usable.
     */
    public Builder peerMaxFrameLength(int bytes) {
      this.peerMaxFrameLength = Checks.atLeast(bytes, Limits.MIN_FRAME_LENGTH, "peerMaxFrameLength");
      return this;
    }

    /**
     * Write-buffer water marks per connection; 32 KiB / 64 KiB unless set. Answers are handed to a
     * connection's socket buffer only while it holds less than the high mark; while it holds more (the
     * client does not read), the server stops reading that connection until it drains below the low mark.
     */
    public Builder writeBufferWaterMark(int low, int high) {
      Checks.waterMarks(low, high);
      this.lowWaterMark = low;
      this.highWaterMark = high;
      return this;
    }

    /**
     * The most bytes of encoded frames (duplex calls to clients, error answers) one connection's write queue
     * holds; 64 MiB unless set. A duplex call that would exceed it fails at once with CLIENT_SEND_ERROR; a
     * frame into an empty queue always fits.
     */
    public Builder maxQueuedBytes(long bytes) {
      this.maxQueuedBytes = Checks.positive(bytes, "maxQueuedBytes");
      return this;
    }

    /**
     * How many requests of one connection may be open at once (read and not yet run to their end, or
     * answered and the answer not yet written); 1024 unless set. At the limit the server stops reading that
     * connection until half of them are done: a client that pipelines without bound, or does not read its
     * answers, costs bounded memory.
     */
    public Builder maxRequestsPerConnection(int requests) {
      this.maxRequestsPerConnection = Checks.positive(requests, "maxRequestsPerConnection");
      return this;
    }

    /**
     * How long a client may take to send one frame, from its first byte to its last; 10 s unless set; zero
     * means no limit. A connection whose frame takes longer is closed (its request answered
     * SERVER_DESERIAL_EXCEPTION when its id arrived), so that a peer trickling bytes cannot hold it forever.
     */
    public Builder frameTimeout(Duration timeout) {
      this.frameTimeoutMillis = Checks.nonNegativeMillis(timeout, "frameTimeout");
      return this;
    }

    /**
     * How many connections may be open at once; 10,000 unless set, or three quarters of the file
     * descriptors the process has left when the server is built (its open-file limit less those open once
     * the server's threads exist), when that is lower. A connection beyond it is accepted only to answer its requests
     * SERVER_THREADPOOL_BUSY (naming the limit) and is closed within a second.
     */
    public Builder maxConnections(int connections) {
      this.maxConnections = Checks.positive(connections, "maxConnections");
      return this;
    }

    /** Closes connections without traffic for this long; 90 s unless set; zero never closes them. */
    public Builder idleTimeout(Duration idle) {
      this.idleTimeoutMillis = Checks.nonNegativeMillis(idle, "idleTimeout");
      return this;
    }

    /** How long {@link #close()} waits for running handlers and closing connections; 5 s unless set. */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeoutMillis = Checks.positiveMillis(timeout, "shutdownTimeout");
      return this;
    }

    /**
     * Registers every service of the server in {@code registry} once it listens, as
     * {@code name:version} (the target clients resolve: {@code scheme:///name:version}), and deregisters
     * on {@link BoltServer#close()} before anything else stops: see {@link #drainTime}. The server does not
     * close the registry.
     */
    public Builder registry(Registry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * The host clients are told to connect to; unless set, the address the server listens on, or for a
     * wildcard address ({@code 0.0.0.0}) the address this machine's host name resolves to.
     */
    public Builder advertisedHost(String host) {
      this.advertisedHost = Objects.requireNonNull(host, "host");
      return this;
    }

    /**
     * What the registered instance says of itself: its weight ({@value ServiceInstance#DEFAULT_WEIGHT} unless
     * set), zone and metadata (empty unless set). Its version is each service's own.
     */
    public Builder instance(int weight, String zone, Map<String, String> metadata) {
      ServiceInstance.of(new InetSocketAddress(0)).withWeight(weight).withZone(zone).withMetadata(metadata);
      this.weight = weight;
      this.zone = zone;
      this.metadata = Map.copyOf(metadata);
      return this;
    }

    /**
     * How many calls this instance takes at once, published with its registry entry (metadata
     * {@value ServiceInstance#MAX_CONCURRENT_CALLS}): a boltgen client never has more of its calls waiting on
     * it, and holds the rest back (see docs/cluster.md, "Capacity"). It states a promise the server keeps with
     * its executor: size that to match (for example {@code threads(n, n, 1)}), since the server itself does
     * not count. No limit unless set. Only with a {@link #registry}.
     */
    public Builder maxConcurrentCalls(int calls) {
      if (calls <= 0) {
        throw new IllegalArgumentException("maxConcurrentCalls must be positive: " + calls);
      }
      this.maxConcurrentCalls = calls;
      return this;
    }

    /**
     * How long {@link BoltServer#close()} keeps serving after deregistering, while its clients move to other
     * instances (a client closes its connections to an instance that left once their calls are answered);
     * it ends early once no client is connected. 5 s unless set. Only with a {@link #registry}.
     */
    public Builder drainTime(Duration time) {
      this.drainMillis = Checks.nonNegativeMillis(time, "drainTime");
      return this;
    }

    /**
     * Serves over TLS only (see {@link Tls}; key material required): with {@link Tls.ClientAuth#REQUIRE} a
     * client without a trusted certificate is refused in the handshake, and handlers see who called through
     * {@code ServerContext.current().connection().peerIdentity()}. A failed handshake closes its connection
     * with one log line. Off unless set.
     */
    public Builder tls(Tls tls) {
      if (!tls.hasKeyMaterial()) {
        throw new IllegalArgumentException("a TLS server needs key material: Tls.Builder.keyPair or keyStore");
      }
      this.tls = tls;
      return this;
    }

    /**
     * Also serves HTTP on the server's port: HTTP/1.1 and HTTP/2 (cleartext with prior knowledge, or chosen by
     * ALPN under TLS), told apart from Bolt by a connection's first bytes, with every method of every service
     * callable by Connect's unary protocol ({@code POST /<proto package>.<Service>/<method>}, JSON or binary
     * protobuf bodies). Bolt clients keep working on the same port. Off unless set; see {@code docs/http.md}.
     * It needs the module {@code io.boltgen:bolt-http} on the class path: without it {@link #build()} fails
     * saying so.
     */
    public Builder http(boolean enabled) {
      this.http = enabled;
      return this;
    }

    /**
     * Serves a web console at {@code GET /} of the HTTP port (which {@link #http} turns on): every service,
     * method and message schema, a form pre-filled with an example request that sends it and shows the
     * answer, and "copy as curl". Static files from the runtime's jar, nothing fetched from elsewhere. Off
     * unless set; anyone who reaches the port can use it, so turn it on where that is fine.
     */
    public Builder console(boolean enabled) {
      this.console = enabled;
      return this;
    }

    /**
     * Whether the HTTP port's protocols add services of their own: gRPC server reflection (with {@code bolt-grpc}),
     * which describes the services' {@code .proto} files and the files they import to anyone who reaches the port.
     * On unless set to {@code false}.
     */
    public Builder reflection(boolean enabled) {
      this.reflection = enabled;
      return this;
    }

    /**
     * Lets browser pages of {@code origins} call the HTTP port ({@link #http}) across origins (CORS): Connect's
     * calls, gRPC-Web's (with {@code bolt-grpc}) and the console's files. Each is an origin as a browser sends it
     * ({@code https://app.example.com}, scheme, host and port if not the default), or {@code *} for any page. The
     * port answers their preflight requests, and shows their scripts the status headers of each answer. None unless
     * set: a page served by the port itself needs none.
     */
    public Builder httpCors(String... origins) {
      this.corsOrigins = Checks.origins(origins);
      return this;
    }

    /** The accept backlog; 1024 unless set. */
    public Builder backlog(int backlog) {
      this.backlog = Checks.positive(backlog, "backlog");
      return this;
    }

    /**
     * The server (not yet listening: call {@link BoltServer#start()}), with a copy of this builder's
     * settings.
     */
    public BoltServer build() {
      if ((console || !corsOrigins.isEmpty()) && !http) {
        throw new IllegalStateException((console ? "the console is" : "CORS is") + " for HTTP: call http(true) too");
      }
      if (virtualThreads && executor != null) {
        throw new IllegalStateException("virtualThreads() makes the server's own executor: not with executor(...)");
      }
      ServerConfig config = new ServerConfig(host, port, backlog, services, executor, selector, minThreads,
          maxThreads, queueSize, virtualThreads, protocol,
          new FrameLimits(maxFrameLength, peerMaxFrameLength, lowWaterMark, highWaterMark, maxQueuedBytes,
              frameTimeoutMillis),
          maxRequestsPerConnection, maxConnections, idleTimeoutMillis, shutdownTimeoutMillis, listeners,
          new RuntimeProvider.Interceptors(clientInterceptors, serverInterceptors),
          registry == null ? null
              : new RuntimeProvider.Announcement(registry, advertisedHost, weight, zone,
                  RuntimeProvider.Announcement.metadata(metadata, maxConcurrentCalls), drainMillis),
          tls, http, console, corsOrigins, reflection);
      return new BoltServer(Runtimes.PROVIDER.newServer(config));
    }
  }
}
