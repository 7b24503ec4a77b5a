package io.boltgen.registry.zookeeper;

import io.boltgen.json.InstanceRecord;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.curator.utils.ZookeeperCompatibility;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Registry} (and {@link NameResolver} of scheme {@value #SCHEME}) on ZooKeeper, through Apache
 * Curator. Each registered instance is an ephemeral node {@code <root>/<service>/<host:port>} whose data is
 * the instance's {@link InstanceRecord} (UTF-8 JSON); parents are created as container nodes, which ZooKeeper
 * removes once empty. A watch follows the children of {@code <root>/<service>}.
 *
 * <pre>{@code
 * try (ZooKeeperRegistry registry = ZooKeeperRegistry.builder().connectString("zk1:2181,zk2:2181").build()) {
 *   Registration registration = registry.register("demo.Inventory:1.0", ServiceInstance.of(address));
 *   ...
 * }
 * }</pre>
 *
 * <p>The registry keeps its nodes while its ZooKeeper session lives. When the session expires, ZooKeeper
 * deletes them; once a new session starts every node still registered is created again (each is kept by a
 * Curator {@code PersistentNode}, which also creates it again if someone else deletes it). While the
 * connection is lost, each watch reports one {@link NameResolver.Listener#onError error} and its listener
 * keeps the last set.
 *
 * <p>Every wait is bounded: {@link #register} waits at most twice the connection timeout, closing a
 * registration or the registry at most the connection timeout. Thread-safe.
 *
 * <p>With {@link Builder#layout layout(Layout.SOFARPC)} the registry reads and writes SOFARPC's layout instead
 * (see {@link Layout#SOFARPC}): services are SOFARPC unique names, instances are provider URLs.
 */
public final class ZooKeeperRegistry implements Registry {

  /** The scheme of targets this registry resolves: {@code zookeeper:///demo.Inventory:1.0}. */
  public static final String SCHEME = "zookeeper";

  /** The path under which services are registered unless {@link Builder#root} says otherwise. */
  public static final String DEFAULT_ROOT = "/boltgen/services";

  /**
   * The path under which the {@link Layout#SOFARPC SOFARPC layout} keeps its services unless {@link Builder#root}
   * says otherwise: where SOFARPC's registry puts them with a registry address without a path.
   */
  public static final String SOFARPC_ROOT = "/sofa-rpc";

  /** The longest provider URL of the {@link Layout#SOFARPC SOFARPC layout}, decoded; longer nodes are skipped. */
  public static final int MAX_PROVIDER_URL = 16 * 1024;

  /** The session timeout unless {@link Builder#sessionTimeout} says otherwise. */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);

  /** The connection timeout unless {@link Builder#connectionTimeout} says otherwise. */
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(2);

  /** The most instances a watch reads of one service (the first, by node name); the rest are ignored. */
  public static final int MAX_INSTANCES = 10_000;

  /** The most bytes of an instance node's data; larger nodes are skipped, larger instances refused. */
  public static final int MAX_NODE_DATA = 64 * 1024;

  /** The longest service name. */
  public static final int MAX_SERVICE_NAME = Names.MAX_SERVICE_NAME;

  private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);
  private static final AtomicInteger REGISTRIES = new AtomicInteger();

  private final CuratorFramework client;
  private final boolean ownsClient;
  private final String root;
  private final String where;
  private final Duration connectionTimeout;
  private final ScheduledExecutorService delivery;
  private final String deliveryThreadName;
  private final ExecutorService ops;
  private final Registrations registrations;
  /** The SOFARPC layout's paths and registrations; null in boltgen's layout. */
  private final SofaRpcLayout sofaRpc;
  private final RateLimitedLog.PerKey warn = RateLimitedLog.perKey(log, 1, RateLimitedLog.DEFAULT_PERIOD_NANOS);
  private final Set<ServiceWatch> watches = ConcurrentHashMap.newKeySet();
  private final ConnectionStateListener stateListener = (c, state) -> stateChanged(state);
  private final AtomicBoolean closed = new AtomicBoolean();

  private ZooKeeperRegistry(CuratorFramework client, boolean ownsClient, Layout layout, String root, String where,
      Duration connectionTimeout) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.root = root;
    this.where = where;
    this.connectionTimeout = connectionTimeout;
    int id = REGISTRIES.incrementAndGet();
    this.deliveryThreadName = "boltgen-zookeeper-watch-" + id;
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, daemon(deliveryThreadName));
    timer.setRemoveOnCancelPolicy(true);
    this.delivery = timer;
    this.ops = Executors.newSingleThreadExecutor(daemon("boltgen-zookeeper-register-" + id));
    this.registrations = new Registrations(client, ops, connectionTimeout, warn, where);
    this.sofaRpc = layout == Layout.SOFARPC ? new SofaRpcLayout(root, registrations, warn) : null;
    client.getConnectionStateListenable().addListener(stateListener);
  }

  private static ThreadFactory daemon(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** A builder: give it {@link Builder#connectString} or {@link Builder#client}. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A registry for {@code zookeeper://host:port[,host:port…][/root][?layout=boltgen|sofarpc]
   * [&persistentWatches=true|false]}, with the default timeouts; the layout is {@link Layout#BOLTGEN} unless the
   * query says otherwise, the root is the layout's ({@value #DEFAULT_ROOT}, {@value #SOFARPC_ROOT}) unless the
   * URI has a path, and watches are persistent ({@link Builder#persistentWatches}) unless the query says
   * {@code false} (a ZooKeeper server before 3.6).
   *
   * @throws IllegalArgumentException if {@code uri} is not of that form
   */
  public static ZooKeeperRegistry fromUri(String uri) {
    return RegistryUri.parse(Objects.requireNonNull(uri, "uri")).build();
  }

  @Override
  public String scheme() {
    return SCHEME;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Creates the ephemeral node {@code <root>/<service>/<host:port>}; if this registry already has one
   * there, its data is replaced (and the earlier registration no longer deletes it). Waits at most twice the
   * connection timeout. In the {@link Layout#SOFARPC SOFARPC layout} the node is
   * {@code <root>/<interface>/providers/<URL-encoded provider URL>}; an earlier registration of the same service
   * and address by this registry is replaced by deleting its node once the new one is written.
   *
   * @throws IllegalArgumentException also if the instance's JSON is longer than {@value #MAX_NODE_DATA}
   *     bytes, or its {@code host:port} cannot be a node name; in the SOFARPC layout, if {@code service} is not
   *     {@code interface:version[:uniqueId]} (or holds {@code &}, {@code =}), the address is an IPv6 literal, or
   *     the URL is longer than {@value #MAX_PROVIDER_URL} characters
   * @throws IllegalStateException if the registry is closed
   */
  @Override
  public Registration register(String service, ServiceInstance instance) {
    Names.service(service);
    Objects.requireNonNull(instance, "instance");
    if (sofaRpc != null) {
      SofaRpcLayout.Prepared provider = sofaRpc.prepare(service, instance);
      checkOpen();
      return sofaRpc.register(provider);
    }
    String node = Names.instanceNode(instance.hostAndPort());
    byte[] data = InstanceRecord.write(instance);
    if (data.length > MAX_NODE_DATA) {
      throw new IllegalArgumentException("the instance " + node + " of " + MessageText.quote(service) + " takes "
          + data.length + " bytes of JSON, more than " + MAX_NODE_DATA);
    }
    checkOpen();
    return registrations.register(service, ZKPaths.makePath(root, service, node), instance, data);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The first set arrives once the children of {@code <root>/<service>} were read (empty if there is no
   * such node); if that takes longer than the connection timeout, the listener hears an error first. In the
   * {@link Layout#SOFARPC SOFARPC layout} the children of {@code <root>/<interface>/providers} are read, and
   * the bolt providers of the name's version and uniqueId listed, the newest node of each address only.
   *
   * @throws IllegalStateException if the registry is closed
   */
  @Override
  public NameResolver.Watch watch(String service, NameResolver.Listener listener) {
    Names.service(service);
    Objects.requireNonNull(listener, "listener");
    checkOpen();
    ServiceWatch watch = sofaRpc != null
        ? new ServiceWatch(client, service, sofaRpc.providersPath(service), sofaRpc.reader(service), true, listener,
            delivery, warn, where, connectionTimeout, watches::remove)
        : new ServiceWatch(client, service, ZKPaths.makePath(root, service), ServiceWatch::readRecord, false,
            listener, delivery, warn, where, connectionTimeout, watches::remove);
    watches.add(watch);
    watch.start();
    if (closed.get()) {
      watch.close(); // closed meanwhile
    }
    return watch;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Closes every watch, deletes every node still registered (in the background: Curator retries a delete
   * that fails for the connection after a reconnection), then closes the Curator client if this registry
   * created it. A client given to {@link Builder#client} stays open.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (ServiceWatch watch : List.copyOf(watches)) {
      watch.close();
    }
    try {
      registrations.closeAll();
    } catch (Throwable t) {
      log.warn("deregistering from ZooKeeper at {} failed: {}", where, Registrations.describe(t));
    }
    client.getConnectionStateListenable().removeListener(stateListener);
    for (Runnable dropped : ops.shutdownNow()) {
      if (dropped instanceof Future<?> write) {
        write.cancel(false); // a registration still queued fails at once instead of waiting its bound
      }
    }
    delivery.shutdownNow();
    if (ownsClient) {
      try {
        client.close();
      } catch (Throwable t) {
        log.warn("closing the ZooKeeper client of {} failed: {}", where, Registrations.describe(t));
      }
    }
    try {
      long deadline = System.nanoTime() + connectionTimeout.toNanos();
      ops.awaitTermination(connectionTimeout.toNanos(), TimeUnit.NANOSECONDS);
      if (!Thread.currentThread().getName().equals(deliveryThreadName)) { // not closed by a listener
        delivery.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "ZooKeeperRegistry[" + where + root + ", " + registrations.size() + " registered, " + watches.size()
        + " watches" + (closed.get() ? ", closed" : "") + "]";
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("the ZooKeeper registry for " + where + " is closed");
    }
  }

  private void stateChanged(ConnectionState state) {
    try {
      switch (state) {
        case SUSPENDED -> {
          log.warn("lost the connection to ZooKeeper at {}; watches keep their last sets meanwhile", where);
          watches.forEach(w -> w.connectionLost("lost the connection to ZooKeeper at " + where));
        }
        case LOST -> {
          log.warn("the ZooKeeper session at {} is lost; its {} instance(s) will be registered again in a new one",
              where, registrations.size());
          watches.forEach(w -> w.connectionLost("the ZooKeeper session at " + where + " is lost"));
        }
        case RECONNECTED -> {
          log.info("reconnected to ZooKeeper at {}", where);
          watches.forEach(ServiceWatch::connectionBack);
          registrations.reassertLater();
        }
        case CONNECTED -> watches.forEach(ServiceWatch::connectionBack);
        default -> { }
      }
    } catch (Throwable t) {
      log.warn("handling the ZooKeeper connection state {} failed: {}", state, Registrations.describe(t));
    }
  }

  /** How a registry stores services and instances in ZooKeeper. */
  public enum Layout {

    /**
     * boltgen's own: an instance is the ephemeral node {@code <root>/<service>/<host:port>} whose data is its
     * {@link InstanceRecord}; any service name that can be a node name. The default.
     */
    BOLTGEN,

    /**
     * SOFARPC's ({@code registry-zk}, 5.13.x): a service is a SOFARPC unique name
     * {@code interface:version[:uniqueId]}, an instance the ephemeral node
     * {@code <root>/<interface>/providers/<URL-encoded bolt provider URL>} with the data {@code 0x01}. Watches list
     * the bolt providers of that version and uniqueId, their weight from the URL, every other parameter as
     * metadata; registrations write the parameters SOFARPC's providers write. Consumer, configuration and
     * override nodes are neither written nor read. docs/cluster.md has the details.
     */
    SOFARPC;

    String defaultRoot() {
      return this == SOFARPC ? SOFARPC_ROOT : DEFAULT_ROOT;
    }
  }

  /** Builds a {@link ZooKeeperRegistry}. Not thread-safe. */
  public static final class Builder {
    private String connectString;
    private CuratorFramework client;
    private String root;
    private Layout layout = Layout.BOLTGEN;
    private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
    private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
    private boolean persistentWatches = true;

    private Builder() {}

    /**
     * The ZooKeeper servers, {@code host:port[,host:port…]} (a chroot suffix such as {@code /apps} is allowed).
     * The registry creates, starts and closes its own Curator client.
     */
    public Builder connectString(String connectString) {
      Objects.requireNonNull(connectString, "connectString");
      if (connectString.isBlank()) {
        throw new IllegalArgumentException("connectString is empty");
      }
      this.connectString = connectString;
      return this;
    }

    /**
     * A started Curator client the application owns, instead of {@link #connectString}: the registry uses it
     * (with its retry policy and session timeout) and does not close it. Its namespace, if any, applies.
     */
    public Builder client(CuratorFramework client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /**
     * The path under which services are registered; by default the layout's: {@value ZooKeeperRegistry#DEFAULT_ROOT},
     * or {@value ZooKeeperRegistry#SOFARPC_ROOT} for {@link Layout#SOFARPC} (give {@code /apps/sofa-rpc} to meet
     * SOFARPC applications whose registry address is {@code zk:2181/apps}).
     */
    public Builder root(String root) {
      this.root = Names.root(root);
      return this;
    }

    /** How services and instances are stored: {@link Layout#BOLTGEN} (the default) or {@link Layout#SOFARPC}. */
    public Builder layout(Layout layout) {
      this.layout = Objects.requireNonNull(layout, "layout");
      return this;
    }

    /** The ZooKeeper session timeout of a client the registry creates; 10 s by default. */
    public Builder sessionTimeout(Duration sessionTimeout) {
      this.sessionTimeout = positiveMillis(sessionTimeout, "sessionTimeout");
      return this;
    }

    /**
     * How long to wait for a connection: for a client the registry creates, and as the bound of the
     * registry's own waits (see {@link ZooKeeperRegistry}); 2 s by default.
     */
    public Builder connectionTimeout(Duration connectionTimeout) {
      this.connectionTimeout = positiveMillis(connectionTimeout, "connectionTimeout");
      return this;
    }

    /**
     * Whether a client the registry creates watches services with persistent recursive watches, which ZooKeeper
     * servers know from 3.6 on ({@code true}, the default); {@code false} for an older server, such as the 3.5
     * many SOFARPC installations run (SOFARPC 5.13 ships 3.5.7): watches are then set again after every event
     * (Curator's compatible cache). Registrations work on both. A client given to {@link #client} decides by
     * its own {@code ZookeeperCompatibility}.
     */
    public Builder persistentWatches(boolean persistentWatches) {
      this.persistentWatches = persistentWatches;
      return this;
    }

    private String rootOrDefault() {
      return root != null ? root : layout.defaultRoot();
    }

    private static Duration positiveMillis(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.toMillis() <= 0 || d.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(name + " must be 1 ms .. 24 days: " + d);
      }
      return d;
    }

    /**
     * The registry. With {@link #connectString} its client starts connecting now; nothing waits for the
     * connection until the first registration or watch.
     *
     * @throws IllegalStateException if neither or both of {@link #connectString} and {@link #client} were
     *     given, or the given client is not started
     */
    public ZooKeeperRegistry build() {
      if ((connectString == null) == (client == null)) {
        throw new IllegalStateException("give the builder either connectString or client");
      }
      if (client != null) {
        if (client.getState() != CuratorFrameworkState.STARTED) {
          throw new IllegalStateException("the CuratorFramework given to client() must be started (it is "
              + client.getState() + ")");
        }
        String current = client.getZookeeperClient().getCurrentConnectionString();
        return new ZooKeeperRegistry(client, false, layout, rootOrDefault(),
            current == null ? "(application's client)" : current, connectionTimeout);
      }
      int connectionMillis = (int) connectionTimeout.toMillis();
      CuratorFramework owned = CuratorFrameworkFactory.builder()
          .connectString(connectString)
          .sessionTimeoutMs((int) sessionTimeout.toMillis())
          .connectionTimeoutMs(connectionMillis)
          .retryPolicy(new ExponentialBackoffRetry(100, 3, 1_000))
          .waitForShutdownTimeoutMs(connectionMillis)
          .zookeeperCompatibility(persistentWatches ? ZookeeperCompatibility.LATEST
              : ZookeeperCompatibility.builder().hasPersistentWatchers(false).build())
          .build();
      owned.start();
      try {
        return new ZooKeeperRegistry(owned, true, layout, rootOrDefault(), connectString, connectionTimeout);
      } catch (RuntimeException | Error e) {
        owned.close();
        throw e;
      }
    }
  }
}
