package io.boltgen.gateway;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.Tls;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.service.GeneratedService;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mesh agent: an HTTP front that forwards every call to a service's instances. It speaks what a server's
 * HTTP port speaks (Connect's unary protocol over HTTP/1.1 and HTTP/2, JSON or protobuf bodies, the same
 * limits, {@code /openapi.json}, optionally the console), and sends each call with a {@link BoltClient} over
 * the cluster target of its service ({@code etcd:///demo.Inventory:1.0}, say): balanced by the client's
 * policy, failed over by its rules, held within each instance's {@code maxConcurrentCalls}. A protobuf body
 * is forwarded without being decoded; a JSON body is transcoded through the service's generated codecs.
 * The caller's deadline ({@code Connect-Timeout-Ms}, else the method's timeout) bounds the whole forward, and
 * the W3C trace headers go along as Bolt headers. Bolt statuses come back as Connect codes: no instance or
 * every instance busy is 503 with {@code Retry-After}.
 *
 * <pre>{@code
 * BoltClient client = BoltClient.builder().nameResolver(etcd).build();
 * BoltGateway gateway = BoltGateway.builder()
 *     .client(client)
 *     .service(Inventory.class, "etcd:///demo.Inventory:1.0")
 *     .bind("0.0.0.0", 8080)
 *     .build()
 *     .start();
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops accepting connections, refuses new calls on those open (503), waits for
 * the calls in flight (up to the drain timeout), then closes the connections; the client stays open (it is the
 * caller's).
 */
public final class BoltGateway implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(BoltGateway.class);

  /** The headers forwarded unless set otherwise: W3C trace context and baggage. */
  public static final List<String> TRACE_HEADERS = List.of("traceparent", "tracestate", "baggage");

  private final BoltServer server;
  private final Forwarder.InFlight inFlight;
  private final List<String> routes;
  private final long drainMillis;

  private BoltGateway(BoltServer server, Forwarder.InFlight inFlight, List<String> routes, long drainMillis) {
    this.server = server;
    this.inFlight = inFlight;
    this.routes = List.copyOf(routes);
    this.drainMillis = drainMillis;
  }

  /** Starts a gateway's configuration. */
  public static Builder builder() {
    return new Builder();
  }

  /** Binds the HTTP port; returns once it listens. */
  public BoltGateway start() {
    server.start();
    log.info("gateway listening on {}, forwarding {}", server.localAddress(), routes);
    return this;
  }

  /** The port it listens on (useful after binding port 0). */
  public int port() {
    return server.port();
  }

  /** The address it listens on. */
  public InetSocketAddress localAddress() {
    return server.localAddress();
  }

  /** The HTTP routes it forwards ({@code /demo.Inventory/Get}, ...), in the order their services were added. */
  public List<String> routes() {
    return routes;
  }

  /** Calls forwarded and not yet answered. */
  public int callsInFlight() {
    return inFlight.calls();
  }

  /**
   * Stops accepting connections (a new one is refused, so a load balancer sees the gateway gone at once), refuses
   * new calls on the connections already open (503 {@code unavailable} with {@code Retry-After}), waits until the
   * calls in flight are answered or the drain timeout passed, then closes the connections. Idempotent.
   */
  @Override
  public void close() {
    server.stopAccepting();
    int left;
    try {
      left = inFlight.closeAndAwait(drainMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      left = inFlight.calls();
    }
    if (left > 0) {
      log.warn("gateway closing with {} calls still in flight after {} ms: their callers lose the connection",
          left, drainMillis);
    }
    server.close();
  }

  /** A gateway's configuration. Not thread-safe. */
  public static final class Builder {
    private final Map<String, Service> services = new LinkedHashMap<>();
    private final List<String> forwardedHeaders = new ArrayList<>(TRACE_HEADERS);
    private BoltClient client;
    private BalancingPolicy policy;
    private String host = "0.0.0.0";
    private int port = 8080;
    private int maxConnections;
    private int maxBodyBytes;
    private Tls tls;
    private boolean console;
    private long drainMillis = 10_000;

    private record Service(ServiceDescriptor descriptor, String target) {}

    private Builder() {}

    /** The client that sends the calls, with its resolvers and cluster settings (required; not closed here). */
    public Builder client(BoltClient client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /**
     * Forwards {@code service}'s methods (those with a route: generated services) to {@code target}, a cluster
     * target such as {@code etcd:///demo.Inventory:1.0} or a {@code host:port}.
     */
    public Builder service(ServiceDescriptor service, String target) {
      Objects.requireNonNull(service, "service");
      Objects.requireNonNull(target, "target");
      if (services.putIfAbsent(service.name() + ':' + service.version(), new Service(service, target)) != null) {
        throw new IllegalArgumentException(service.name() + ':' + service.version() + " is added twice");
      }
      return this;
    }

    /** Forwards the generated service of {@code serviceInterface} to {@code target}. */
    public Builder service(Class<?> serviceInterface, String target) {
      return service(GeneratedService.of(serviceInterface).descriptor(), target);
    }

    /**
     * Forwards the generated service registered as {@code key} ({@code name:version}, as its instances
     * register, e.g. {@code demo.Inventory:1.0}) whose code is on the class path (its API jar), to
     * {@code target}.
     *
     * @throws IllegalArgumentException if no generated service on the class path has that name and version
     */
    public Builder service(String key, String target) {
      return service(find(key, Thread.currentThread().getContextClassLoader()), target);
    }

    /** The generated service {@code name:version} that {@code loader} finds. */
    static ServiceDescriptor find(String key, ClassLoader loader) {
      List<String> known = new ArrayList<>();
      ClassLoader from = loader == null ? BoltGateway.class.getClassLoader() : loader;
      for (GeneratedService<?> generated : GeneratedService.all(from)) {
        ServiceDescriptor d = generated.descriptor();
        String name = d.name() + ':' + d.version();
        if (name.equals(key)) {
          return d;
        }
        known.add(name);
      }
      known.sort(null);
      throw new IllegalArgumentException("no generated service " + key + " on the class path (its API jar);"
          + " found: " + (known.isEmpty() ? "none" : String.join(", ", known)));
    }

    /** The balancing policy of the gateway's channels; the client's unless set. */
    public Builder balancingPolicy(BalancingPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Where the HTTP port listens: {@code 0.0.0.0:8080} unless set; port 0 picks a free one. */
    public Builder bind(String host, int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0..65535: " + port);
      }
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      return this;
    }

    /**
     * Also forwards this request header (lower case) as a Bolt header of the same name; W3C
     * {@link #TRACE_HEADERS} always go.
     */
    public Builder forwardHeader(String name) {
      String lower = Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT);
      if (lower.isEmpty() || lower.startsWith(":")) {
        throw new IllegalArgumentException("not a header name: " + name);
      }
      if (!forwardedHeaders.contains(lower)) {
        forwardedHeaders.add(lower);
      }
      return this;
    }

    /** The most connections open at once (the server's default unless set); over it, HTTP/1.1 gets 503. */
    public Builder maxConnections(int connections) {
      this.maxConnections = connections;
      return this;
    }

    /** The largest request body, in bytes (413 beyond): the server's maximum frame length, 16 MiB unless set. */
    public Builder maxBodyBytes(int bytes) {
      this.maxBodyBytes = bytes;
      return this;
    }

    /** Serves HTTPS only (ALPN h2 and http/1.1), as a server's HTTP port does with TLS. Off unless set. */
    public Builder tls(Tls tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
      return this;
    }

    /** Serves the console at {@code /console/} (calls go through the gateway). Off unless set. */
    public Builder console(boolean enabled) {
      this.console = enabled;
      return this;
    }

    /** How long {@link BoltGateway#close()} waits for the calls in flight: 10 s unless set. */
    public Builder drainTimeout(Duration timeout) {
      long millis = Objects.requireNonNull(timeout, "timeout").toMillis();
      if (millis < 0) {
        throw new IllegalArgumentException("drainTimeout must not be negative: " + timeout);
      }
      this.drainMillis = millis;
      return this;
    }

    /** The gateway, not started yet. */
    public BoltGateway build() {
      if (client == null) {
        throw new IllegalStateException("client(...) is required: the gateway sends its calls with it");
      }
      if (services.isEmpty()) {
        throw new IllegalStateException("no service to forward: add one with service(...)");
      }
      Forwarder.InFlight inFlight = new Forwarder.InFlight();
      Executor direct = Runnable::run; // forwarding never blocks: it stays on the IO thread that read the request
      BoltServer.Builder server = BoltServer.builder()
          .bind(host, port)
          .http(true)
          .console(console)
          .threads(0, 1, 1) // unused: every service runs on the IO threads
          .shutdownTimeout(Duration.ofSeconds(1));
      if (maxConnections > 0) {
        server.maxConnections(maxConnections);
      }
      if (maxBodyBytes > 0) {
        server.maxFrameLength(maxBodyBytes);
      }
      if (tls != null) {
        server.tls(tls);
      }
      List<String> routes = new ArrayList<>();
      for (Service service : services.values()) {
        ServiceDescriptor forwarded = ForwardedMethods.of(service.descriptor());
        int routed = 0;
        for (MethodDescriptor<?, ?> method : forwarded.methods()) {
          if (method.httpPath() != null) {
            routes.add(method.httpPath());
            routed++;
          }
        }
        if (routed == 0) {
          throw new IllegalArgumentException(service.descriptor().name() + " has no HTTP route: only services"
              + " generated by boltgen (with their .proto names) can be forwarded");
        }
        BoltChannel channel = policy == null ? client.channel(service.target())
            : client.channel(service.target(), policy);
        server.service(ServiceDefinition.of(forwarded,
            new Forwarder(service.target(), channel, forwardedHeaders, inFlight)), direct);
      }
      return new BoltGateway(server.build(), inFlight, routes, drainMillis);
    }
  }
}
