package io.boltgen.registry.etcd;

import io.boltgen.json.InstanceRecord;
import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.RateLimitedLog;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Registry} in etcd (v3 API, through etcd's HTTP/JSON gateway; no client library). Each instance is
 * the key {@code <prefix>/<service>/<host:port>} holding the instance's {@link InstanceRecord} (a small JSON
 * value), attached to this registry's one lease, which is kept alive every TTL/3; clients watch a service's
 * keys. The layout, the lease and what happens when etcd is down are described in
 * {@code docs/registry-etcd.md}.
 *
 * <pre>{@code
 * try (EtcdRegistry registry = EtcdRegistry.builder().endpoints("http://10.0.0.1:2379", "http://10.0.0.2:2379")
 *     .build()) {
 *   registry.register("demo.Inventory:1.0", ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200)));
 *   ...
 * }
 * }</pre>
 *
 * <p>Its resolver scheme is {@code etcd}: a client's target {@code etcd:///demo.Inventory:1.0} resolves here.
 * Thread-safe. Each registry runs a daemon event thread (watches, listener calls), a daemon keep-alive thread
 * once it registered something, and the HTTP client's daemon threads; {@link #close} stops them.
 */
public final class EtcdRegistry implements Registry {

  /** The key prefix unless told otherwise. */
  public static final String DEFAULT_PREFIX = "/boltgen/services";

  /** The lease's time to live unless told otherwise: an instance whose process died leaves within it. */
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(10);

  /** How long one request to etcd may take (all endpoints tried included) unless told otherwise. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(2);

  /** With several endpoints, how often the endpoints that watches stream from are asked whether they answer. */
  static final Duration PROBE_INTERVAL = Duration.ofSeconds(3);

  /** Log lines per cause and minute (etcd unreachable, a garbled value, a failing listener…). */
  static final int LOG_LINES_PER_MINUTE = 5;

  private static final Logger log = LoggerFactory.getLogger(EtcdRegistry.class);
  private static final AtomicInteger IDS = new AtomicInteger();

  private final Layout layout;
  private final EtcdHttp etcd;
  private final Duration requestTimeout;
  private final ScheduledThreadPoolExecutor events;
  private final LeaseKeeper leases;
  private final Set<EtcdWatch> watches = ConcurrentHashMap.newKeySet();
  private final EtcdWatch.Logs logs;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final String name;

  @SuppressWarnings("FutureReturnValueIgnored") // probe catches everything, so its schedule never ends early
  private EtcdRegistry(Builder builder) {
    int id = IDS.incrementAndGet();
    this.name = "boltgen-etcd-" + id;
    this.layout = new Layout(builder.prefix);
    this.requestTimeout = builder.requestTimeout;
    ThreadPoolExecutor httpThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS,
        new SynchronousQueue<>(), daemon(name + "-http-", true));
    HttpClient http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1) // what the gateway answers in (it ignores an h2c upgrade)
        .connectTimeout(requestTimeout)
        .proxy(HttpClient.Builder.NO_PROXY)
        .followRedirects(HttpClient.Redirect.NEVER)
        .executor(httpThreads)
        .build();
    this.etcd = new EtcdHttp(builder.endpoints, http, httpThreads, this::endpointFailed, limitedLog());
    this.logs = new EtcdWatch.Logs(limitedLog(), limitedLog(), limitedLog(), limitedLog(), limitedLog());
    this.events = new ScheduledThreadPoolExecutor(1, daemon(name + "-events", false));
    events.setRemoveOnCancelPolicy(true);
    this.leases = new LeaseKeeper(etcd, builder.leaseTtl, requestTimeout, daemon(name + "-keepalive", false),
        limitedLog());
    if (builder.endpoints.size() > 1) {
      long every = PROBE_INTERVAL.toMillis();
      events.scheduleWithFixedDelay(this::probe, every, every, TimeUnit.MILLISECONDS);
    }
  }

  /** The log lines of one cause: {@value #LOG_LINES_PER_MINUTE} a minute, to this registry's logger. */
  static RateLimitedLog limitedLog() {
    return RateLimitedLog.of(log, LOG_LINES_PER_MINUTE);
  }

  /** A builder with the defaults: no endpoint yet, prefix {@value #DEFAULT_PREFIX}, TTL 10 s, timeout 2 s. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A registry with the defaults on {@code endpoints}: a comma-separated list of the URLs of one cluster's
   * members ({@code http://10.0.0.1:2379,http://10.0.0.2:2379}; a bare {@code host:port} means http).
   */
  public static EtcdRegistry connect(String endpoints) {
    return builder().endpoints(Endpoints.splitList(endpoints).toArray(String[]::new)).build();
  }

  /**
   * A registry with the defaults from a URI {@code etcd://host:port[,host:port…][/prefix]}, as the example
   * server's {@code --registry} option takes it: the members over http, and the key prefix if a path is given.
   *
   * @throws IllegalArgumentException if {@code uri} is not such a URI
   */
  public static EtcdRegistry fromUri(String uri) {
    Endpoints.Parsed parsed = Endpoints.parseEtcdUri(uri);
    Builder builder = builder().endpoints(parsed.endpoints().toArray(String[]::new));
    if (parsed.prefix() != null) {
      builder.prefix(parsed.prefix());
    }
    return builder.build();
  }

  /** {@code etcd}. */
  @Override
  public String scheme() {
    return "etcd";
  }

  /**
   * Puts {@code instance} under {@code <prefix>/<service>/<host:port>} on this registry's lease (granted on
   * the first call) and returns once etcd has it. Registering an address again replaces its value; the
   * earlier registration's close then does nothing.
   *
   * @throws java.io.UncheckedIOException if no endpoint answered within the request timeout
   * @throws IllegalArgumentException if {@code service} is empty, has a '/' or a control character, or is
   *     longer than 512 characters; if the instance's host has a '/' or a control character; or if its value
   *     would exceed 64 KiB
   * @throws IllegalStateException if this registry is closed
   */
  @Override
  public Registration register(String service, ServiceInstance instance) {
    Layout.checkService(service);
    Objects.requireNonNull(instance, "instance");
    Layout.checkAddress(instance);
    byte[] value = InstanceRecord.write(instance);
    if (value.length > Layout.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("the value of " + instance.hostAndPort() + " in " + service + " is "
          + value.length + " bytes, more than " + Layout.MAX_VALUE_BYTES);
    }
    checkOpen();
    // valid UTF-8 (InstanceRecord escapes unpaired surrogates), so the text is the same bytes again
    return leases.register(layout.key(service, instance), new String(value, StandardCharsets.UTF_8), instance);
  }

  /**
   * Watches {@code service}'s keys: {@code listener} hears the whole set on this registry's event thread soon,
   * and again after every change, within a second of it. If etcd cannot be read, it hears {@code onError}
   * once and the watch keeps trying (100 ms back-off doubling to 2 s).
   *
   * @throws IllegalArgumentException if {@code service} is not a name {@link #register} accepts
   * @throws IllegalStateException if this registry is closed
   */
  @Override
  public Watch watch(String service, Listener listener) {
    Layout.checkService(service);
    Objects.requireNonNull(listener, "listener");
    checkOpen();
    EtcdWatch watch = new EtcdWatch(service, layout.servicePrefix(service), listener, etcd, events,
        requestTimeout, logs, watches::remove);
    watches.add(watch);
    if (closed.get()) {
      watch.close();
      throw new IllegalStateException(this + " is closed");
    }
    watch.start();
    return watch;
  }

  /**
   * Stops every watch, revokes the lease (etcd deletes its keys, and watchers see them go) within the request
   * timeout, and stops this registry's threads. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (EtcdWatch watch : new ArrayList<>(watches)) {
      watch.close();
    }
    leases.close();
    events.shutdownNow();
  }

  @Override
  public String toString() {
    return "EtcdRegistry" + etcd.endpoints() + layout.prefix();
  }

  /** The lease now, 0 before the first registration (for tests). */
  long lease() {
    return leases.lease();
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException(this + " is closed");
    }
  }

  /** Asks each endpoint a watch streams from for a linearizable read: one that cannot answer is failed. */
  @SuppressWarnings("FutureReturnValueIgnored") // the gateway itself marks an endpoint failed that does not answer
  private void probe() {
    try {
      Set<Integer> inUse = new java.util.TreeSet<>();
      for (EtcdWatch watch : watches) {
        EtcdHttp.Stream stream = watch.stream();
        if (stream != null) {
          inUse.add(stream.endpoint());
        }
      }
      String body = "{\"key\":\"" + Layout.base64(layout.prefix()) + "\",\"count_only\":true}";
      for (int index : inUse) {
        // a failed answer marks the endpoint failed, which moves its watches (endpointFailed)
        etcd.postTo(index, "/v3/kv/range", body, System.nanoTime() + requestTimeout.toNanos());
      }
    } catch (Throwable t) {
      logs.unexpected().warn("unexpected failure probing etcd endpoints; trying again", t);
    }
  }

  private void endpointFailed(int index) {
    if (etcd != null && etcd.endpoints().size() > 1) {
      for (EtcdWatch watch : watches) {
        watch.endpointFailed(index);
      }
    }
  }

  private static ThreadFactory daemon(String name, boolean numbered) {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, numbered ? name + count.incrementAndGet() : name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Builds an {@link EtcdRegistry}. Not thread-safe. */
  public static final class Builder {
    private List<URI> endpoints = List.of();
    private String prefix = DEFAULT_PREFIX;
    private Duration leaseTtl = DEFAULT_LEASE_TTL;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

    private Builder() {}

    /**
     * The client URLs of one cluster's members ({@code http://host:2379}; https uses the JDK's default trust
     * store; a bare {@code host:port} means http). Requests go to one and move to the next when it fails.
     *
     * @throws IllegalArgumentException if none is given or one is not such a URL
     */
    public Builder endpoints(String... urls) {
      this.endpoints = Endpoints.parse(List.of(urls));
      return this;
    }

    /** The key prefix ({@value #DEFAULT_PREFIX} by default): starts with '/', trailing '/' dropped. */
    public Builder prefix(String prefix) {
      this.prefix = Endpoints.checkPrefix(prefix);
      return this;
    }

    /**
     * The lease's time to live, at least 1 s, in whole seconds (rounded up); 10 s by default. Keep-alives go
     * every third of it. etcd may grant more than asked (3.4 grants at least 2 s).
     */
    public Builder leaseTtl(Duration ttl) {
      if (ttl.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException("lease TTL must be at least 1 s: " + ttl);
      }
      this.leaseTtl = ttl;
      return this;
    }

    /** How long one request may take, all endpoints tried included; 2 s by default. */
    public Builder requestTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.toMillis() < 1) {
        throw new IllegalArgumentException("request timeout must be at least 1 ms: " + timeout);
      }
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * The registry. Connects lazily: nothing is asked of etcd until the first registration or watch.
     *
     * @throws IllegalStateException if no endpoint was given
     */
    public EtcdRegistry build() {
      if (endpoints.isEmpty()) {
        throw new IllegalStateException("no etcd endpoint given");
      }
      return new EtcdRegistry(this);
    }
  }
}
