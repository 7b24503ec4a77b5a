package io.boltgen.registry.etcd;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.RateLimitedLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A registry's one lease and the keys attached to it. The lease is granted at the first registration and kept
 * alive every TTL/3 from a thread of its own; when a keep-alive says the lease is gone (it expired while this
 * process or etcd was stopped), a new one is granted and every instance still registered is put again on it.
 * Closing revokes the lease, which deletes its keys.
 *
 * <p>Thread-safe. Requests that change the set of keys run under one lock, each bounded by the request
 * timeout, so a registration, a deregistration and a restore never interleave.
 */
final class LeaseKeeper {

  private static final Logger log = LoggerFactory.getLogger(EtcdRegistry.class);

  private final EtcdHttp etcd;
  private final long ttlSeconds;
  private final long keepAliveMillis;
  private final long timeoutNanos;
  private final ThreadFactory threads;
  private final RateLimitedLog unreachable;
  private final RateLimitedLog unexpected = EtcdRegistry.limitedLog();

  private final Object lock = new Object();
  @GuardedBy("lock")
  private long lease;
  @GuardedBy("lock")
  private boolean restorePending;
  @GuardedBy("lock")
  private boolean closed;
  @GuardedBy("lock")
  private ScheduledExecutorService keeper;
  @GuardedBy("lock")
  private final Map<String, Entry> registered = new LinkedHashMap<>();
  @GuardedBy("lock")
  private final Set<String> toDelete = new LinkedHashSet<>();
  // only the keeper thread
  private boolean failing;

  private record Entry(String value, EtcdRegistration owner) {}

  LeaseKeeper(EtcdHttp etcd, Duration ttl, Duration requestTimeout, ThreadFactory threads,
      RateLimitedLog unreachable) {
    this.etcd = etcd;
    this.ttlSeconds = Math.max(1, (ttl.toMillis() + 999) / 1000);
    this.keepAliveMillis = Math.max(1, ttl.toMillis() / 3);
    this.timeoutNanos = requestTimeout.toNanos();
    this.threads = threads;
    this.unreachable = unreachable;
  }

  /** Puts {@code key} with {@code value} on the lease (granting it first if needed) and returns its registration. */
  Registration register(String key, String value, ServiceInstance instance) {
    long deadline = System.nanoTime() + timeoutNanos;
    EtcdRegistration registration = new EtcdRegistration(this, key, instance);
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the etcd registry is closed");
      }
      Entry previous = registered.put(key, new Entry(value, registration));
      try {
        if (lease == 0) {
          lease = grant(deadline);
          if (keeper == null) {
            startKeepAlive();
          }
        }
        try {
          put(key, value, lease, deadline);
        } catch (EtcdException e) {
          if (!e.leaseNotFound()) {
            throw e;
          }
          replaceLease(lease, deadline); // lost between two keep-alives: restore everything, this key included
        }
        toDelete.remove(key);
      } catch (IOException e) {
        // the put may have reached etcd all the same: the keep-alive thread undoes it
        if (previous == null) {
          registered.remove(key);
          if (lease != 0) {
            toDelete.add(key);
          }
        } else {
          registered.put(key, previous);
          restorePending = true;
        }
        throw new UncheckedIOException("could not register " + key + " in etcd " + etcd.endpoints() + ": "
            + e.getMessage(), e);
      }
    }
    return registration;
  }

  /** Deletes the key of {@code registration} if it still is the registration of its key. */
  void deregister(EtcdRegistration registration) {
    String key = registration.key();
    synchronized (lock) {
      Entry entry = registered.get(key);
      if (entry == null || entry.owner() != registration) {
        return; // replaced by a later registration of the same address, or the registry closed
      }
      registered.remove(key);
      if (closed || lease == 0) {
        return;
      }
      try {
        deleteIfOurs(key, lease, System.nanoTime() + timeoutNanos);
      } catch (IOException e) {
        toDelete.add(key);
        unreachable.warn("could not deregister {} from etcd ({}); trying again with every keep-alive", key,
            e.getMessage());
      }
    }
  }

  /** Stops the keep-alives and revokes the lease, which deletes every key on it. Idempotent. */
  void close() {
    long revoke;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      revoke = lease;
      lease = 0;
      registered.clear();
      toDelete.clear();
      if (keeper != null) {
        keeper.shutdownNow();
      }
    }
    if (revoke != 0) {
      try {
        etcd.call("/v3/lease/revoke", "{\"ID\":\"" + revoke + "\"}", System.nanoTime() + timeoutNanos);
      } catch (EtcdException e) {
        if (!e.leaseNotFound()) {
          log.warn("etcd refused to revoke lease {} ({}); its keys leave when it expires within {} s", revoke,
              e.getMessage(), ttlSeconds);
        }
      } catch (IOException e) {
        log.warn("could not revoke etcd lease {} ({}); its keys leave when it expires within {} s", revoke,
            e.getMessage(), ttlSeconds);
      }
    }
  }

  @GuardedBy("lock")
  @SuppressWarnings("FutureReturnValueIgnored") // keepAlive catches everything, so its schedule never ends early
  private void startKeepAlive() {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, threads);
    executor.setRemoveOnCancelPolicy(true);
    executor.scheduleWithFixedDelay(this::keepAlive, keepAliveMillis, keepAliveMillis, TimeUnit.MILLISECONDS);
    keeper = executor;
  }

  /** One keep-alive: renews the lease, replaces it if it is gone, finishes a restore or deletes left over. */
  private void keepAlive() {
    try {
      long current;
      synchronized (lock) {
        if (closed) {
          return;
        }
        current = lease;
      }
      long deadline = System.nanoTime() + timeoutNanos;
      if (current != 0 && !renew(current, deadline)) {
        synchronized (lock) {
          if (!closed && lease == current) {
            if (registered.isEmpty()) {
              lease = 0; // nothing to keep: the next registration grants a new lease
              toDelete.clear(); // their keys went with the lease
            } else {
              replaceLease(current, deadline);
            }
          }
        }
      }
      synchronized (lock) {
        if (!closed && lease != 0 && restorePending) {
          restore(deadline);
        }
        if (!closed && lease != 0 && !toDelete.isEmpty()) {
          for (String key : new ArrayList<>(toDelete)) {
            deleteIfOurs(key, lease, deadline);
            toDelete.remove(key);
          }
        }
      }
      if (failing) {
        failing = false;
        log.info("etcd {} answers keep-alives again", etcd.endpoints());
      }
    } catch (IOException e) {
      failing = true;
      unreachable.warn("could not keep the etcd lease alive ({}); trying again every {} ms", e.getMessage(),
          keepAliveMillis);
    } catch (Throwable t) {
      unexpected.warn("unexpected failure keeping the etcd lease alive; trying again every {} ms",
          keepAliveMillis, t);
    }
  }

  /** Renews {@code id}: false if etcd says it no longer exists. */
  private boolean renew(long id, long deadline) throws IOException {
    Map<String, Object> reply;
    try {
      reply = etcd.call("/v3/lease/keepalive", "{\"ID\":\"" + id + "\"}", deadline);
    } catch (EtcdException e) {
      if (e.leaseNotFound()) {
        return false;
      }
      throw e;
    }
    Object error = reply.get("error"); // a streaming reply's error line
    if (error != null) {
      if (String.valueOf(error).contains("requested lease not found")) {
        return false;
      }
      throw new IOException("etcd refused the keep-alive: " + error);
    }
    // an unknown lease is answered with no TTL (proto3 leaves out the zero)
    return EtcdJson.int64(EtcdJson.object(reply, "result"), "TTL") > 0;
  }

  /** Grants a new lease in place of {@code old} and puts every registered key on it. */
  @GuardedBy("lock")
  private void replaceLease(long old, long deadline) throws IOException {
    long fresh = grant(deadline);
    lease = fresh;
    restorePending = true;
    toDelete.clear(); // keys left to delete went with the old lease
    int count = registered.size();
    log.warn("etcd lease {} is gone (revoked, or not renewed within its {} s TTL, e.g. while this process or etcd "
        + "was stopped); granted lease {} and registering {} instance(s) again", old, ttlSeconds, fresh, count);
    restore(deadline);
  }

  /** Puts every registered key on the current lease. */
  @GuardedBy("lock")
  private void restore(long deadline) throws IOException {
    for (Map.Entry<String, Entry> e : registered.entrySet()) {
      put(e.getKey(), e.getValue().value(), lease, deadline);
    }
    restorePending = false;
  }

  private long grant(long deadline) throws IOException {
    Map<String, Object> reply = etcd.call("/v3/lease/grant", "{\"TTL\":\"" + ttlSeconds + "\"}", deadline);
    long id = EtcdJson.int64(reply, "ID");
    if (id == 0) {
      throw new IOException("etcd granted no lease: " + EtcdJson.string(reply, "error", "no ID in the reply"));
    }
    return id;
  }

  private void put(String key, String value, long id, long deadline) throws IOException {
    etcd.call("/v3/kv/put", "{\"key\":\"" + Layout.base64(key) + "\",\"value\":\"" + Layout.base64(value)
        + "\",\"lease\":\"" + id + "\"}", deadline);
  }

  /** Deletes {@code key} unless it is on another lease (another registry registered the same address since). */
  private void deleteIfOurs(String key, long id, long deadline) throws IOException {
    String k = Layout.base64(key);
    etcd.call("/v3/kv/txn", "{\"compare\":[{\"target\":\"LEASE\",\"key\":\"" + k
        + "\",\"result\":\"EQUAL\",\"lease\":\"" + id + "\"}],\"success\":[{\"request_delete_range\":{\"key\":\""
        + k + "\"}}]}", deadline);
  }

  /** The lease now, 0 if none (for tests). */
  long lease() {
    synchronized (lock) {
      return lease;
    }
  }

  /** The keys registered now (for tests). */
  List<String> keys() {
    synchronized (lock) {
      return List.copyOf(registered.keySet());
    }
  }
}
