package io.boltgen.registry.zookeeper;

import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ephemeral nodes of one registry, each kept by a Curator {@link PersistentNode}: it creates the node (and
 * its parents, as containers), watches it, creates it again whenever it is gone (deleted by someone else, or
 * with a lost session once a new one starts) with the latest data, and deletes it when closed (retried after
 * a reconnection if the connection is down: Curator's guaranteed delete).
 *
 * <p>One thing {@link PersistentNode} does not do: a node that exists when it creates one (left by the
 * registry's previous session, which ZooKeeper has not expired yet, or another process's at the same address)
 * is taken over as it is, with its owner, and so vanishes when that owner's session ends. Registering and
 * every reconnection therefore <em>claim</em> each node: one of another session is deleted and created again
 * as this session's, which its {@link PersistentNode} then finds and keeps.
 *
 * <p>Every write runs on one thread ({@code ops}), in the order asked, so a registration, its replacement, its
 * deregistration and the claims after a reconnection never race for a node. Callers wait a bounded time. Only
 * closing the registry does not wait: it deletes every node in the background.
 */
final class Registrations {

  private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);
  private static final int MAX_ATTEMPTS = 5;

  private final CuratorFramework client;
  private final ExecutorService ops;
  private final Duration registerBound;
  private final Duration deregisterBound;
  private final RateLimitedLog.PerKey warn;
  private final String where;
  /** The node of each registered path. Written on the ops thread, and by {@link #closeAll}. */
  private final Map<String, Node> nodes = new ConcurrentHashMap<>();
  private volatile boolean closed;

  Registrations(CuratorFramework client, ExecutorService ops, Duration connectionTimeout, RateLimitedLog.PerKey warn,
      String where) {
    this.client = client;
    this.ops = ops;
    this.registerBound = connectionTimeout.multipliedBy(2);
    this.deregisterBound = connectionTimeout;
    this.warn = warn;
    this.where = where;
  }

  /** How many instances are registered. */
  int size() {
    return nodes.size();
  }

  /** Creates (or updates, or claims) the node at {@code path}; returns once ZooKeeper has it, owned by this session. */
  Registration register(String service, String path, ServiceInstance instance, byte[] data) {
    Entry entry = new Entry(service, path, instance, data);
    Future<Void> write;
    try {
      write = ops.submit(() -> {
        put(entry);
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
          + MessageText.quote(service) + " at " + instance.hostAndPort() + " within " + registerBound.toMillis()
          + " ms"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      write.cancel(true);
      undo(entry);
      throw new UncheckedIOException(new InterruptedIOException("interrupted while registering "
          + MessageText.quote(service) + " at " + instance.hostAndPort()));
    } catch (CancellationException e) {
      throw new IllegalStateException("the ZooKeeper registry closed while registering " + MessageText.quote(service)
          + " at " + instance.hostAndPort());
    } catch (ExecutionException e) {
      undo(entry);
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r && !(cause instanceof UncheckedIOException)) {
        throw r;
      }
      throw new UncheckedIOException(new IOException("could not register " + MessageText.quote(service) + " at "
          + instance.hostAndPort() + " in ZooKeeper at " + where + ": " + describe(cause), cause));
    }
  }

  /**
   * On the ops thread: the node at the entry's path exists with its data, owned by this session, and stands
   * for it. A node this registry keeps already gets the new data in place (the earlier registration is
   * replaced); otherwise a {@link PersistentNode} is started for it.
   */
  private void put(Entry entry) throws Exception {
    Node node = nodes.get(entry.path);
    if (node != null && !node.confirmed) { // left by a registration that failed: start afresh
      nodes.remove(entry.path);
      close(node);
      node = null;
    }
    if (node == null) {
      node = new Node(entry);
      nodes.put(entry.path, node);
      if (closed) { // closeAll may have missed it
        nodes.remove(entry.path);
        node.closeInBackground();
        throw new IllegalStateException("the ZooKeeper registry is closed");
      }
      // it creates the node in the background, retrying whatever fails; after half the caller's bound, claim
      // creates it instead, so that a failure that lasts (an ACL that forbids it: NOAUTH) reaches the caller
      // with ZooKeeper's own reason before the caller stops waiting
      node.waitForInitialCreate(registerBound.toNanos() / 2, TimeUnit.NANOSECONDS);
    } else {
      write(node, entry.data);
    }
    claim(node);
    Entry replaced = node.current;
    node.current = entry;
    node.confirmed = true;
    if (replaced != entry) {
      replaced.replaced = true;
    }
  }

  /**
   * New data for a node, kept by its {@link PersistentNode} for when it creates the node again and written in
   * the background: a later request of this session (the claim that follows) finds it written.
   */
  private void write(Node node, byte[] data) throws Exception {
    node.waitForInitialCreate(registerBound.toNanos(), TimeUnit.NANOSECONDS); // setData needs it done
    node.setData(data);
  }

  /** Makes the node owned by this session: one of another session is deleted and created again. */
  private void claim(Node node) throws Exception {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (closed) {
        throw new IllegalStateException("the ZooKeeper registry is closed");
      }
      long session = sessionId();
      Stat stat = client.checkExists().forPath(node.path);
      if (stat != null && stat.getEphemeralOwner() == session) {
        node.ownedIn = session;
        return;
      }
      try {
        if (stat != null) {
          client.delete().withVersion(stat.getVersion()).forPath(node.path);
        }
        client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
            .forPath(node.path, node.getData());
      } catch (KeeperException.NoNodeException | KeeperException.NodeExistsException
          | KeeperException.BadVersionException changed) {
        // changed meanwhile (its PersistentNode may have created it first): look again
      }
    }
    throw new IOException("the node " + node.path + " kept changing while it was being claimed");
  }

  /** After a failed or abandoned registration: the node is what the registration it stands for says, or gone. */
  private void undo(Entry failed) {
    failed.closed.set(true);
    submitQuietly(() -> {
      Node node = nodes.get(failed.path);
      if (node != null && node.current == failed) {
        nodes.remove(failed.path);
        close(node);
      } else if (node != null && node.confirmed) {
        write(node, node.current.data); // a replacement that failed: the replaced registration keeps its data
      }
      return null;
    });
  }

  /**
   * After a reconnection: every registered node is claimed for this session, and once after a lost session,
   * one line says how many were registered again (or failed to be).
   */
  void reassertLater() {
    submitQuietly(() -> {
      long session = sessionId();
      int again = 0;
      int failed = 0;
      Exception firstFailure = null;
      for (Node node : List.copyOf(nodes.values())) {
        if (!node.confirmed) {
          continue; // its registration failed; undone next
        }
        boolean lost = node.ownedIn != session;
        try {
          claim(node);
          again += lost ? 1 : 0;
        } catch (InterruptedException e) {
          throw e;
        } catch (Exception e) {
          failed++;
          firstFailure = firstFailure == null ? e : firstFailure;
        }
      }
      if (again > 0) {
        log.info("registered {} instance(s) again in ZooKeeper at {}: the session that held them was lost",
            again, where);
      }
      if (failed > 0) {
        log.warn("could not register {} instance(s) again in ZooKeeper at {} ({}); trying again on the next "
            + "reconnection", failed, where, describe(firstFailure));
      }
      return null;
    });
  }

  /**
   * Deletes every node still registered, in the background (Curator's guaranteed delete: retried after a
   * reconnection), and registers nothing more. Later calls do nothing.
   */
  void closeAll() {
    closed = true;
    for (Node node : List.copyOf(nodes.values())) {
      node.current.closed.set(true);
      nodes.remove(node.path);
      node.closeInBackground();
    }
  }

  /** Closes the node's {@link PersistentNode}, which deletes the node; a failure is logged in one line. */
  private void close(Node node) {
    try {
      node.close();
    } catch (IOException e) {
      log.warn("could not delete {} in ZooKeeper at {}: {}; it leaves when the session ends, or after the next "
          + "reconnection", node.path, where, describe(e.getCause() != null ? e.getCause() : e));
    }
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
    } catch (CancellationException e) {
      // the registry closed first, deleting every node
    } catch (ExecutionException e) {
      log.warn("could not {} in ZooKeeper at {}: {}; ephemeral nodes leave when the session ends",
          what, where, describe(e.getCause()));
    }
  }

  private void submitQuietly(Callable<Void> task) {
    try {
      ops.execute(() -> {
        try {
          task.call();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (Throwable t) {
          log.warn("a ZooKeeper write at {} failed: {}", where, describe(t));
        }
      });
    } catch (RejectedExecutionException closed) {
      // the registry closed: its client's session ends, and with it every ephemeral node
    }
  }

  /**
   * Each time a {@link PersistentNode} creates its node (on Curator's event thread): a second creation in one
   * session, which means that someone else deleted the node, is logged.
   */
  private void nodeCreated(Node node) {
    long session;
    try {
      session = sessionId();
    } catch (Exception e) {
      return; // no ZooKeeper handle now: the connection is being re-established
    }
    if (node.createdIn == session) {
      warn.warn(node.path, "the node {} in ZooKeeper at {} was deleted by someone else while registered; it "
          + "was created again", node.path, where);
    }
    node.createdIn = session;
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

  /** A registered node: a {@link PersistentNode} that knows the registration it stands for now. */
  private final class Node extends PersistentNode {
    final String path;
    /** The registration it stands for; until {@link #confirmed}, the one creating it. Ops thread only. */
    Entry current;
    /** Whether a registration of it completed. */
    volatile boolean confirmed;
    /** The session that owned it when last claimed. Ops thread only. */
    long ownedIn;
    /** The session in which it last created the node itself. Curator's event thread only. */
    long createdIn;
    private volatile boolean deleteInBackground;

    /** Starts creating {@code entry}'s node, with its data. */
    Node(Entry entry) {
      super(client, CreateMode.EPHEMERAL, false, entry.path, entry.data);
      this.path = entry.path;
      this.current = entry;
      getListenable().addListener(createdPath -> nodeCreated(this));
      start();
    }

    /** Closes it without waiting for ZooKeeper: the node is deleted in the background. */
    void closeInBackground() {
      deleteInBackground = true;
      Registrations.this.close(this);
    }

    @Override
    protected void deleteNode() throws Exception {
      String actual = getActualPath();
      if (!deleteInBackground) {
        super.deleteNode();
      } else if (actual != null) {
        client.delete().guaranteed().inBackground().forPath(actual);
      }
    }
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
          Node node = nodes.get(path);
          if (node != null && node.current == this) {
            nodes.remove(path);
            Registrations.this.close(node);
          }
          return null;
        });
      } catch (RejectedExecutionException registryClosed) {
        return; // the registry deleted it when it closed
      }
      await(delete, "deregister " + MessageText.quote(service) + " at " + instance.hostAndPort());
    }

    @Override
    public String toString() {
      return "ZooKeeper registration of " + MessageText.quote(service) + " at " + instance.hostAndPort()
          + (closed.get() ? " (closed)" : replaced ? " (replaced)" : "");
    }
  }
}
