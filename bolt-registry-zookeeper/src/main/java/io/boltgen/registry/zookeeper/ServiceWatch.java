package io.boltgen.registry.zookeeper;

import io.boltgen.json.InstanceRecord;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch of one service: a {@link CuratorCache} on {@code <root>/<service>} (or, in SOFARPC's layout,
 * {@code <root>/<interface>/providers}; a persistent recursive watch, which Curator sets again after every
 * reconnection), whose direct children are the instances, each read by the layout's {@link NodeReader}.
 *
 * <p>Every change of the cache asks for one publication on the registry's delivery thread; requests made
 * while one is pending are folded into it. A publication reads the cache then and hands the listener the
 * whole set (sorted by node name) if it differs from the last one handed, so calls never overlap and come in
 * order. The first publication waits for the cache's first full read, and is an empty set for a service
 * that has no node yet.
 */
final class ServiceWatch implements NameResolver.Watch {

  private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);

  private final String service;
  private final String servicePath;
  private final NameResolver.Listener listener;
  private final ScheduledExecutorService delivery;
  private final RateLimitedLog.PerKey warn;
  private final String where;
  private final Duration connectionTimeout;
  private final Consumer<ServiceWatch> onClose;
  private final CuratorCache cache;
  private final NodeReader reader;
  private final boolean onePerAddress;
  /** Whether the cache uses persistent recursive watches (ZooKeeper 3.6+), else watches set again. */
  private final boolean persistent;
  /**
   * Without persistent watches, the nodes as the cache's events left them, by path: Curator's compatible cache
   * (a TreeCache) cannot be iterated once a node lost its last child (its iterator throws), so it is followed by
   * its events instead.
   */
  private final Map<String, ChildData> nodes = new ConcurrentHashMap<>();

  private final AtomicBoolean pending = new AtomicBoolean();
  private final AtomicBoolean errorReported = new AtomicBoolean();
  /** Held while the listener is called, so that close can wait for a call under way. */
  private final ReentrantLock calling = new ReentrantLock();
  private volatile boolean initialized;
  private volatile boolean closed;
  private volatile ScheduledFuture<?> startCheck;

  /** The last set handed to the listener; null before the first. Delivery thread only. */
  private List<ServiceInstance> last;
  /** What each node's data was read as, by node path. Delivery thread only. */
  private Map<String, Parsed> parsed = new HashMap<>();

  /**
   * A watch of the children of {@code servicePath}, each read by {@code reader}; with {@code onePerAddress},
   * of several nodes with one address only the newest (created last) is listed.
   */
  ServiceWatch(CuratorFramework client, String service, String servicePath, NodeReader reader,
      boolean onePerAddress, NameResolver.Listener listener, ScheduledExecutorService delivery,
      RateLimitedLog.PerKey warn, String where, Duration connectionTimeout, Consumer<ServiceWatch> onClose) {
    this.service = service;
    this.reader = reader;
    this.onePerAddress = onePerAddress;
    this.servicePath = servicePath;
    this.listener = listener;
    this.delivery = delivery;
    this.warn = warn;
    this.where = where;
    this.connectionTimeout = connectionTimeout;
    this.onClose = onClose;
    this.persistent = client.getZookeeperCompatibility().hasPersistentWatchers();
    this.cache = persistent
        ? CuratorCache.builder(client, servicePath)
            .withExceptionHandler(e -> warn.warn("read:" + servicePath, "could not read {} from ZooKeeper at {}: {}",
                servicePath, where, Registrations.describe(e)))
            .build()
        // a server before 3.6 (SOFARPC's 3.5): watches set again after every event, Curator's compatible cache
        : CuratorCache.bridgeBuilder(client, servicePath).build();
  }

  /** Starts reading; if no first set arrives within the connection timeout, the listener hears an error. */
  void start() {
    cache.listenable().addListener(new CuratorCacheListener() {
      @Override
      public void event(Type type, ChildData oldData, ChildData data) {
        if (!persistent) {
          if (type == Type.NODE_DELETED) {
            nodes.remove(oldData.getPath());
          } else {
            nodes.put(data.getPath(), data);
          }
        }
        if (initialized) {
          publishSoon();
        }
      }

      @Override
      public void initialized() {
        ServiceWatch.this.initialized = true;
        publishSoon();
      }
    });
    cache.start();
    try {
      startCheck = delivery.schedule(() -> {
        try {
          if (!initialized) {
            connectionLost("could not read " + MessageText.quote(service) + " from ZooKeeper at " + where + " within "
                + connectionTimeout.toMillis() + " ms" + (persistent ? " (a ZooKeeper server before 3.6 never answers"
                + " the persistent watch this registry sets: build it with persistentWatches(false))" : ""));
          }
        } catch (Throwable t) {
          log.warn("watch of {} failed: {}", MessageText.quote(service), Registrations.describe(t));
        }
      }, connectionTimeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException registryClosed) {
      // close follows
    }
  }

  /** The connection or session was lost: the listener hears it once, and keeps its last set. */
  void connectionLost(String why) {
    if (closed || !errorReported.compareAndSet(false, true)) {
      return;
    }
    execute(() -> {
      calling.lock();
      try {
        if (!closed) {
          listener.onError(new IOException(why));
        }
      } catch (Throwable t) {
        listenerFailed(t);
      } finally {
        calling.unlock();
      }
    });
  }

  /** Connected again: a later loss is reported again, and the set is read again. */
  void connectionBack() {
    errorReported.set(false);
    if (initialized) {
      publishSoon();
    }
  }

  private void publishSoon() {
    if (!closed && pending.compareAndSet(false, true)) {
      execute(this::publish);
    }
  }

  private void execute(Runnable task) {
    try {
      delivery.execute(() -> {
        try {
          task.run();
        } catch (Throwable t) {
          log.warn("watch of {} failed: {}", MessageText.quote(service), Registrations.describe(t));
        }
      });
    } catch (RejectedExecutionException registryClosed) {
      // the registry closed, and with it this watch
    }
  }

  private void publish() {
    pending.set(false);
    if (closed) {
      return;
    }
    List<ServiceInstance> now = read();
    calling.lock();
    try {
      if (closed || now.equals(last)) {
        return;
      }
      last = now;
      listener.onInstances(now);
    } catch (Throwable t) {
      listenerFailed(t);
    } finally {
      calling.unlock();
    }
  }

  /** The instances in the cache now: direct children, at most the bound, garbled ones skipped. */
  private List<ServiceInstance> read() {
    String prefix = servicePath.equals("/") ? "/" : servicePath + "/";
    List<ChildData> children = new ArrayList<>();
    (persistent ? cache.stream() : nodes.values().stream())
        .filter(d -> d.getPath().startsWith(prefix) && d.getPath().length() > prefix.length()
            && d.getPath().indexOf('/', prefix.length()) < 0)
        .forEach(children::add);
    children.sort(Comparator.comparing(ChildData::getPath));
    if (children.size() > ZooKeeperRegistry.MAX_INSTANCES) {
      warn.warn("many:" + servicePath, "{} has {} instance nodes; reading the first {} by name",
          servicePath, children.size(), ZooKeeperRegistry.MAX_INSTANCES);
      children = children.subList(0, ZooKeeperRegistry.MAX_INSTANCES);
    }
    Map<String, Parsed> next = new HashMap<>();
    List<Parsed> found = new ArrayList<>(children.size());
    for (ChildData child : children) {
      long version = child.getStat() == null ? -1 : child.getStat().getMzxid();
      Parsed p = parsed.get(child.getPath());
      if (p == null || p.version != version || version == -1) {
        p = new Parsed(version, child.getStat() == null ? -1 : child.getStat().getCzxid(), parse(child));
      }
      next.put(child.getPath(), p);
      if (p.instance != null) {
        found.add(p);
      }
    }
    parsed = next;
    Map<InetSocketAddress, Integer> newest = new HashMap<>(); // of each address, the index of its newest node
    for (int i = 0; i < found.size(); i++) {
      if (onePerAddress) {
        newest.merge(found.get(i).instance.address(), i, (a, b) -> found.get(b).created > found.get(a).created ? b : a);
      }
    }
    List<ServiceInstance> instances = new ArrayList<>(found.size());
    for (int i = 0; i < found.size(); i++) {
      if (!onePerAddress || newest.get(found.get(i).instance.address()) == i) {
        instances.add(found.get(i).instance);
      }
    }
    return List.copyOf(instances);
  }

  private ServiceInstance parse(ChildData child) {
    try {
      return reader.read(child);
    } catch (IllegalArgumentException e) {
      warn.warn("node:" + child.getPath(), "skipping ZooKeeper node {}: {}", child.getPath(), e.getMessage());
      return null;
    }
  }

  /** Reads one child node of the watched path. */
  interface NodeReader {

    /**
     * The instance {@code child} stands for, or null if it is not one of the watched service's (skipped
     * quietly).
     *
     * @throws IllegalArgumentException saying why, if the node is garbled (skipped, with one WARN line)
     */
    ServiceInstance read(ChildData child);
  }

  /** The boltgen layout's reader: the node's data is the instance's {@link InstanceRecord}. */
  static ServiceInstance readRecord(ChildData child) {
    byte[] data = child.getData();
    if (data == null || data.length == 0) {
      throw new IllegalArgumentException("no data");
    }
    if (data.length > ZooKeeperRegistry.MAX_NODE_DATA) {
      throw new IllegalArgumentException(data.length + " bytes of data, more than " + ZooKeeperRegistry.MAX_NODE_DATA);
    }
    return InstanceRecord.read(data);
  }

  private void listenerFailed(Throwable t) {
    // a bug in the application, not an expected failure: with its stack trace (once a minute at most)
    warn.warn("listener:" + servicePath, "a listener of {} threw", MessageText.quote(service), t);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    onClose.accept(this);
    ScheduledFuture<?> check = startCheck;
    if (check != null) {
      check.cancel(false);
    }
    try {
      cache.close();
    } catch (Throwable t) {
      log.warn("closing the watch of {} failed: {}", MessageText.quote(service), Registrations.describe(t));
    }
    // a call under way finishes before close returns (at once on the delivery thread: the lock is reentrant)
    try {
      if (calling.tryLock(connectionTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
        calling.unlock();
      } else {
        log.warn("a listener of {} is still running {} ms after its watch was closed", MessageText.quote(service),
            connectionTimeout.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "ZooKeeper watch of " + servicePath + (closed ? " (closed)" : "");
  }

  /** A node as read at one version (and created at {@code created}): the instance, or null if skipped. */
  private record Parsed(long version, long created, ServiceInstance instance) {}
}
