package io.boltgen.registry.zookeeper;

import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ephemeral nodes of one registry. Every write to ZooKeeper runs on one thread ({@code ops}), in the
 * order asked, so a registration, its replacement, its deregistration and a re-registration after a lost
 * session never race for a node. Callers wait for their write a bounded time.
 *
 * <p>A node is "ours" when its ephemeral owner is the client's current session: only those are updated
 * or deleted. A node left by our previous session (ZooKeeper has not expired it yet) is replaced.
 */
final class Registrations {

  private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);
  private static final int MAX_ATTEMPTS = 5;

  private final CuratorFramework client;
  private final ExecutorService ops;
  private final Duration registerBound;
  private final Duration deregisterBound;
  private final String where;
  /** The registration each node path stands for now. Written on the ops thread only. */
  private final Map<String, Entry> current = new ConcurrentHashMap<>();
  /** Paths whose deletion failed; retried after a reconnection. Written on the ops thread only. */
  private final Set<String> orphans = ConcurrentHashMap.newKeySet();

  Registrations(CuratorFramework client, ExecutorService ops, Duration connectionTimeout, String where) {
    this.client = client;
    this.ops = ops;
    this.registerBound = connectionTimeout.multipliedBy(2);
    this.deregisterBound = connectionTimeout;
    this.where = where;
  }

  /** How many instances are registered. */
  int size() {
    return current.size();
  }

  /** Creates (or takes over, or updates) the node at {@code path}; returns once ZooKeeper has it. */
  Registration register(String service, String path, ServiceInstance instance, byte[] data) {
    Entry entry = new Entry(service, path, instance, data);
    Future<Void> write;
    try {
      write = ops.submit(() -> {
        ensure(entry);
        Entry replaced = current.put(path, entry);
        if (replaced != null) {
          replaced.replaced = true;
        }
        return null;
      });
    } catch (RejectedExecutionException e) {
      throw new IllegalStateException("the ZooKeeper registry is closed");
    }
    try {
      write.get(registerBound.toNanos(), TimeUnit.NANOSECONDS);
      return entry;
    } catch (TimeoutException e) {
      write.cancel(true);
      undo(entry);
      throw new UncheckedIOException(new IOException("ZooKeeper at " + where + " did not confirm registering "
          + Names.quote(service) + " at " + instance.hostAndPort() + " within " + registerBound.toMillis()
          + " ms"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      write.cancel(true);
      undo(entry);
      throw new UncheckedIOException(new InterruptedIOException("interrupted while registering "
          + Names.quote(service) + " at " + instance.hostAndPort()));
    } catch (CancellationException e) {
      throw new IllegalStateException("the ZooKeeper registry closed while registering " + Names.quote(service)
          + " at " + instance.hostAndPort());
    } catch (ExecutionException e) {
      undo(entry);
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r && !(cause instanceof UncheckedIOException)) {
        throw r;
      }
      throw new UncheckedIOException(new IOException("could not register " + Names.quote(service) + " at "
          + instance.hostAndPort() + " in ZooKeeper at " + where + ": " + describe(cause), cause));
    }
  }

  /** After a failed or abandoned registration: the node is what the current registration says, or gone. */
  private void undo(Entry failed) {
    failed.closed.set(true);
    submitQuietly(() -> {
      current.remove(failed.path, failed);
      Entry now = current.get(failed.path);
      if (now != null) {
        ensure(now);
      } else {
        deleteOrRemember(failed.path);
      }
      return null;
    });
  }

  /**
   * After a reconnection: every registered node exists under this session with its data (after a new session
   * it was deleted with the old one, or still belongs to it), and what failed to be deleted is deleted.
   */
  void reassertLater() {
    submitQuietly(() -> {
      int recreated = 0;
      int failed = 0;
      Exception firstFailure = null;
      for (Entry entry : List.copyOf(current.values())) {
        try {
          if (current.get(entry.path) == entry && ensure(entry)) {
            recreated++;
          }
        } catch (InterruptedException e) {
          throw e;
        } catch (Exception e) {
          failed++;
          firstFailure = firstFailure == null ? e : firstFailure;
        }
      }
      if (recreated > 0) {
        log.info("registered {} instance(s) again in ZooKeeper at {}: the session that held them was lost",
            recreated, where);
      }
      if (failed > 0) {
        log.warn("could not register {} instance(s) again in ZooKeeper at {} ({}); trying again on the next "
            + "reconnection", failed, where, describe(firstFailure));
      }
      for (String path : List.copyOf(orphans)) {
        if (!current.containsKey(path)) {
          deleteOurs(path);
        }
        orphans.remove(path);
      }
      return null;
    });
  }

  /** Deletes every node still registered, waiting at most the deregistration bound; later calls do nothing. */
  void closeAll() {
    int count = current.size();
    if (count == 0 && orphans.isEmpty()) {
      return; // nothing to wait for (a write still under way is abandoned: the session ends with its client)
    }
    Future<Void> deletes;
    try {
      deletes = ops.submit(() -> {
        for (Entry entry : List.copyOf(current.values())) {
          entry.closed.set(true);
          current.remove(entry.path, entry);
          deleteOrRemember(entry.path);
        }
        for (String path : List.copyOf(orphans)) {
          deleteOrRemember(path);
        }
        return null;
      });
    } catch (RejectedExecutionException e) {
      return;
    }
    await(deletes, "deregister " + count + " instance(s)");
  }

  /** Waits for {@code task} a bounded time; a failure or a timeout is logged in one line. */
  private void await(Future<?> task, String what) {
    try {
      task.get(deregisterBound.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      log.warn("could not {} in ZooKeeper at {} within {} ms; ephemeral nodes leave when the session ends",
          what, where, deregisterBound.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      log.warn("could not {} in ZooKeeper at {}: {}; ephemeral nodes leave when the session ends",
          what, where, describe(e.getCause()));
    }
  }

  private void submitQuietly(Callable<Void> task) {
    try {
      ops.submit(() -> {
        try {
          return task.call();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return null;
        } catch (Throwable t) {
          log.warn("a ZooKeeper write at {} failed: {}", where, describe(t));
          return null;
        }
      });
    } catch (RejectedExecutionException closed) {
      // the registry closed: its client's session ends, and with it every ephemeral node
    }
  }

  /**
   * Makes the node of {@code entry} exist, owned by this session, with its data.
   *
   * @return whether the node had to be created
   */
  private boolean ensure(Entry entry) throws Exception {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      long session = sessionId();
      try {
        client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
            .forPath(entry.path, entry.data);
        return true;
      } catch (KeeperException.NoNodeException parentGone) {
        // ZooKeeper removed an empty parent container between Curator creating it and our node: again
        continue;
      } catch (KeeperException.NodeExistsException exists) {
        Stat stat = new Stat();
        byte[] data;
        try {
          data = client.getData().storingStatIn(stat).forPath(entry.path);
        } catch (KeeperException.NoNodeException gone) {
          continue;
        }
        try {
          if (stat.getEphemeralOwner() != session) {
            // our previous session's node (or a stranger's at the same address): ours is the live one
            client.delete().withVersion(stat.getVersion()).forPath(entry.path);
            continue;
          }
          if (!Arrays.equals(data, entry.data)) {
            client.setData().withVersion(stat.getVersion()).forPath(entry.path, entry.data);
          }
          return false;
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException changed) {
          // changed meanwhile: look again
        }
      }
    }
    throw new IOException("the node " + entry.path + " kept changing while it was being written");
  }

  /** Deletes the node at {@code path} if this session owns it. */
  private void deleteOurs(String path) throws Exception {
    Stat stat = client.checkExists().forPath(path);
    if (stat == null || stat.getEphemeralOwner() != sessionId()) {
      return;
    }
    try {
      client.delete().withVersion(stat.getVersion()).forPath(path);
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException changed) {
      // gone, or rewritten by a registration that now owns it
    }
  }

  /** {@link #deleteOurs}, remembering the path for the next reconnection if ZooKeeper cannot be reached. */
  private void deleteOrRemember(String path) throws InterruptedException {
    try {
      deleteOurs(path);
      orphans.remove(path);
    } catch (InterruptedException e) {
      orphans.add(path);
      throw e;
    } catch (Exception e) {
      orphans.add(path);
      log.warn("could not delete {} in ZooKeeper at {}: {}; it leaves when the session ends, or after the next "
          + "reconnection", path, where, describe(e));
    }
  }

  private long sessionId() throws Exception {
    return client.getZookeeperClient().getZooKeeper().getSessionId();
  }

  /** One line for an expected failure: the ZooKeeper code, or the exception's class and message. */
  static String describe(Throwable t) {
    if (t instanceof KeeperException k) {
      return k.code() + (k.getPath() != null ? " at " + k.getPath() : "");
    }
    return t.getMessage() != null ? t.getClass().getSimpleName() + ": " + t.getMessage() : t.toString();
  }

  /** One registered instance; closing it deletes its node unless a later registration replaced it. */
  private final class Entry implements Registration {
    final String service;
    final String path;
    final ServiceInstance instance;
    final byte[] data;
    final AtomicBoolean closed = new AtomicBoolean();
    volatile boolean replaced;

    Entry(String service, String path, ServiceInstance instance, byte[] data) {
      this.service = service;
      this.path = path;
      this.instance = instance;
      this.data = data;
    }

    @Override
    public ServiceInstance instance() {
      return instance;
    }

    @Override
    public void close() {
      if (!closed.compareAndSet(false, true)) {
        return;
      }
      Future<Void> delete;
      try {
        delete = ops.submit(() -> {
          if (current.remove(path, this)) {
            deleteOrRemember(path);
          }
          return null;
        });
      } catch (RejectedExecutionException registryClosed) {
        return; // the registry deleted it when it closed
      }
      await(delete, "deregister " + Names.quote(service) + " at " + instance.hostAndPort());
    }

    @Override
    public String toString() {
      return "ZooKeeper registration of " + Names.quote(service) + " at " + instance.hostAndPort()
          + (closed.get() ? " (closed)" : replaced ? " (replaced)" : "");
    }
  }
}
