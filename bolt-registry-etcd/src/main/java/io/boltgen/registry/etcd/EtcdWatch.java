package io.boltgen.registry.etcd;

import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.RateLimitedLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watched service: a range of its keys gives the set and a revision, then a streaming watch from the
 * next revision applies each change and hands the listener the whole new set. When the stream breaks, the
 * listener hears {@code onError} once, and after a back-off (100 ms doubling to 2 s) the range and the watch
 * start over; a compacted revision starts over at once.
 *
 * <p>Everything but {@link #close} runs on the registry's event thread, so the listener is called serially
 * and in order. Delivery and {@link #close} hold this object's monitor: once close returns, the listener
 * hears nothing more.
 */
final class EtcdWatch implements NameResolver.Watch {

  /** The most instances read per service; more are left out (and logged). */
  static final int MAX_INSTANCES = 10_000;

  static final long FIRST_BACKOFF_MILLIS = 100;
  static final long MAX_BACKOFF_MILLIS = 2_000;

  private static final Logger log = LoggerFactory.getLogger(EtcdRegistry.class);

  private final String service;
  private final String keyPrefix;
  private final NameResolver.Listener listener;
  private final EtcdHttp etcd;
  private final ScheduledExecutorService events;
  private final Duration requestTimeout;
  private final Logs logs;
  private final Consumer<EtcdWatch> onClose;
  private volatile boolean closed;

  // only the event thread
  private TreeMap<String, ServiceInstance> instances = new TreeMap<>();
  private List<ServiceInstance> delivered;
  private volatile EtcdHttp.Stream stream;
  private ScheduledFuture<?> createdCheck;
  private int generation;
  private long backoffMillis = FIRST_BACKOFF_MILLIS;
  private boolean errorReported;

  /** The log lines a registry's watches share (each cause limited on its own). */
  record Logs(RateLimitedLog unreachable, RateLimitedLog garbled, RateLimitedLog listenerFailed,
      RateLimitedLog tooMany, RateLimitedLog unexpected) {}

  EtcdWatch(String service, String keyPrefix, NameResolver.Listener listener, EtcdHttp etcd,
      ScheduledExecutorService events, Duration requestTimeout, Logs logs, Consumer<EtcdWatch> onClose) {
    this.service = service;
    this.keyPrefix = keyPrefix;
    this.listener = listener;
    this.etcd = etcd;
    this.events = events;
    this.requestTimeout = requestTimeout;
    this.logs = logs;
    this.onClose = onClose;
  }

  void start() {
    events.execute(this::range);
  }

  /** The stream running now, null between streams. */
  EtcdHttp.Stream stream() {
    return stream;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    EtcdHttp.Stream s = stream;
    if (s != null) {
      s.cancel();
    }
    onClose.accept(this);
  }

  /** Endpoint {@code endpoint} failed a request or a probe: a stream on it starts over elsewhere. */
  void endpointFailed(int endpoint) {
    execute(() -> {
      EtcdHttp.Stream s = stream;
      if (!closed && s != null && s.endpoint() == endpoint) {
        fail(new IOException("etcd endpoint " + etcd.endpoints().get(endpoint) + " failed"));
      }
    });
  }

  @SuppressWarnings("FutureReturnValueIgnored") // guarded handles every failure; rejected: the registry closed
  private void range() {
    if (closed) {
      return;
    }
    int gen = ++generation;
    String body = "{\"key\":\"" + Layout.base64(keyPrefix) + "\",\"range_end\":\"" + Layout.prefixEnd(keyPrefix)
        + "\",\"limit\":\"" + (MAX_INSTANCES + 1) + "\"}";
    etcd.post("/v3/kv/range", body, System.nanoTime() + requestTimeout.toNanos())
        .whenCompleteAsync((reply, error) -> guarded(() -> {
          if (gen != generation || closed) {
            return;
          }
          if (error != null) {
            fail(EtcdHttp.asIoException(error));
          } else {
            onRange(reply);
          }
        }), events);
  }

  private void onRange(Map<String, Object> reply) throws IOException {
    long revision;
    TreeMap<String, ServiceInstance> fresh = new TreeMap<>();
    try {
      revision = EtcdJson.int64(EtcdJson.object(reply, "header"), "revision");
      for (Object kv : EtcdJson.array(reply, "kvs")) {
        apply(fresh, kv, false);
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("etcd's range reply is not what etcd writes: " + e.getMessage(), e);
    }
    if (EtcdJson.bool(reply, "more") || fresh.size() > MAX_INSTANCES) {
      logs.tooMany().warn("{} has more than {} instances in etcd; the rest are left out", service, MAX_INSTANCES);
      while (fresh.size() > MAX_INSTANCES) {
        fresh.pollLastEntry();
      }
    }
    instances = fresh;
    deliver();
    openStream(revision + 1);
  }

  private void openStream(long fromRevision) {
    int gen = ++generation;
    String body = "{\"create_request\":{\"key\":\"" + Layout.base64(keyPrefix) + "\",\"range_end\":\""
        + Layout.prefixEnd(keyPrefix) + "\",\"start_revision\":\"" + fromRevision + "\"}}";
    EtcdHttp.Stream opened = etcd.stream("/v3/watch", body, requestTimeout,
        line -> execute(() -> onLine(gen, line)),
        end -> execute(() -> onEnd(gen, end)));
    stream = opened;
    if (closed) { // closed meanwhile, and close() may have read the field before it was set
      opened.cancel();
      return;
    }
    // the gateway answers "created" at once; a member that does not is treated as failed
    createdCheck = events.schedule(() -> guarded(() -> {
      if (gen == generation && !closed) {
        IOException why = new IOException("etcd did not confirm the watch in time");
        EtcdHttp.Stream s = stream;
        if (s != null) {
          etcd.markFailed(s.endpoint(), why);
        }
        fail(why);
      }
    }), requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void onLine(int gen, String line) {
    if (gen != generation || closed) {
      return;
    }
    Map<String, Object> result;
    try {
      Map<String, Object> reply = EtcdJson.parseObject(line);
      if (reply.get("error") != null) {
        fail(EtcdException.of(200, line.getBytes(StandardCharsets.UTF_8)));
        return;
      }
      result = EtcdJson.object(reply, "result");
      if (EtcdJson.bool(result, "created")) {
        createdCheck.cancel(false);
        backoffMillis = FIRST_BACKOFF_MILLIS;
        errorReported = false;
      }
      if (EtcdJson.int64(result, "compact_revision") > 0) {
        log.debug("watch of {} from a compacted revision; reading the set again", service);
        restart(0);
        return;
      }
      if (EtcdJson.bool(result, "canceled")) {
        fail(new IOException("etcd canceled the watch: " + EtcdJson.string(result, "cancel_reason", "no reason")));
        return;
      }
      List<Object> changes = EtcdJson.array(result, "events");
      if (changes.isEmpty()) {
        return;
      }
      for (Object event : changes) {
        if (!(event instanceof Map)) {
          throw new IllegalArgumentException("an event is " + EtcdJson.typeName(event));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> e = (Map<String, Object>) event;
        // a PUT has no "type": proto3 leaves out the enum's zero
        apply(instances, e.get("kv"), "DELETE".equals(EtcdJson.string(e, "type", "PUT")));
      }
    } catch (IllegalArgumentException e) {
      fail(new IOException("etcd's watch reply is not what etcd writes: " + e.getMessage(), e));
      return;
    }
    deliver();
  }

  private void onEnd(int gen, Throwable error) {
    if (gen != generation || closed) {
      return;
    }
    fail(error == null ? new IOException("etcd closed the watch stream") : error);
  }

  /** Applies one key-value of a range or an event to {@code into}. */
  private void apply(Map<String, ServiceInstance> into, Object rawKv, boolean delete) {
    if (!(rawKv instanceof Map)) {
      throw new IllegalArgumentException("a key-value is " + EtcdJson.typeName(rawKv));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> kv = (Map<String, Object>) rawKv;
    String key = new String(Layout.decode(EtcdJson.string(kv, "key", "")), StandardCharsets.UTF_8);
    if (!key.startsWith(keyPrefix)) {
      return;
    }
    if (delete) {
      into.remove(key);
      return;
    }
    String segment = key.substring(keyPrefix.length());
    try {
      if (segment.indexOf('/') >= 0) {
        throw new IllegalArgumentException("the key has more segments than <prefix>/<service>/<host:port>");
      }
      ServiceInstance instance = Layout.read(segment, Layout.decode(EtcdJson.string(kv, "value", "")));
      if (into.size() >= MAX_INSTANCES && !into.containsKey(key)) {
        logs.tooMany().warn("{} has more than {} instances in etcd; {} is left out", service, MAX_INSTANCES, key);
        return;
      }
      into.put(key, instance);
    } catch (IllegalArgumentException e) {
      into.remove(key);
      logs.garbled().warn("skipping etcd key {}: {}", key, e.getMessage());
    }
  }

  private void deliver() {
    List<ServiceInstance> set = List.copyOf(instances.values());
    if (set.equals(delivered)) {
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      delivered = set;
      try {
        listener.onInstances(set);
      } catch (Throwable t) {
        logs.listenerFailed().warn("the listener of {} failed on a new set of {} instance(s)", service,
            set.size(), t);
      }
    }
  }

  private void fail(Throwable why) {
    if (closed) {
      return;
    }
    if (!errorReported) {
      errorReported = true;
      logs.unreachable().warn("watch of {} lost etcd ({}); trying again", service, EtcdHttp.describe(why));
      synchronized (this) {
        if (!closed) {
          try {
            listener.onError(why);
          } catch (Throwable t) {
            logs.listenerFailed().warn("the listener of {} failed on an error", service, t);
          }
        }
      }
    }
    long delay = backoffMillis;
    backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
    restart(delay);
  }

  /** Drops the stream and reads the set again after {@code delayMillis}. */
  @SuppressWarnings("FutureReturnValueIgnored") // guarded handles every failure of the scheduled read
  private void restart(long delayMillis) {
    generation++;
    if (createdCheck != null) {
      createdCheck.cancel(false);
    }
    EtcdHttp.Stream s = stream;
    stream = null;
    if (s != null) {
      s.cancel();
    }
    try {
      events.schedule(() -> guarded(this::range), delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException registryClosed) {
      // nothing to do
    }
  }

  private void execute(Runnable task) {
    try {
      events.execute(() -> guarded(task::run));
    } catch (RejectedExecutionException registryClosed) {
      // the registry closed: its watches stop
    }
  }

  private interface Task {
    void run() throws Exception;
  }

  /** Runs {@code task}; whatever it throws becomes a restart, so the watch never dies. */
  private void guarded(Task task) {
    try {
      task.run();
    } catch (Throwable t) {
      if (closed) {
        return;
      }
      if (!(t instanceof IOException)) {
        logs.unexpected().warn("unexpected failure in the watch of {}; starting it over", service, t);
      }
      try {
        fail(t);
      } catch (Throwable again) {
        logs.unexpected().warn("could not restart the watch of {}", service, again);
      }
    }
  }

  @Override
  public String toString() {
    return "etcd watch of " + service;
  }
}
