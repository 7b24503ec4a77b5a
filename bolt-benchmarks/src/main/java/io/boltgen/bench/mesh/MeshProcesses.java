package io.boltgen.bench.mesh;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything the {@code mesh} benchmark started (etcd, providers, gateway, wrk), closed in reverse order when the
 * run ends, also when it fails, and by a shutdown hook when the JVM is stopped (Ctrl-C) before that.
 */
final class MeshProcesses implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MeshProcesses.class);

  @GuardedBy("this")
  private final Deque<AutoCloseable> open = new ArrayDeque<>();
  @GuardedBy("this")
  private boolean closing;
  @GuardedBy("this")
  private int starting;
  private final Thread hook = new Thread(this::closeAll, "mesh-cleanup");

  MeshProcesses() {
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Starts something to close later. */
  @FunctionalInterface
  interface Starter<T extends AutoCloseable> {
    T start() throws Exception;
  }

  /**
   * Runs {@code starter} and {@link #track tracks} what it started. While a start is under way, closing waits for it
   * (at most 90 s: every start here is bounded by 60 s), so that a child started while the JVM stops is closed too.
   */
  <T extends AutoCloseable> T start(Starter<T> starter) throws Exception {
    synchronized (this) {
      if (closing) {
        throw new IllegalStateException("the benchmark is stopping: nothing more is started");
      }
      starting++;
    }
    try {
      return track(starter.start());
    } finally {
      synchronized (this) {
        starting--;
        notifyAll();
      }
    }
  }

  /**
   * Closes {@code resource} when this closes (before what was tracked earlier); returns it. Once this is closing (the
   * run ended, or the JVM is stopping), {@code resource} is closed at once and the run fails: nothing started late
   * outlives it.
   */
  <T extends AutoCloseable> T track(T resource) {
    synchronized (this) {
      if (!closing) {
        open.push(resource);
        return resource;
      }
    }
    IllegalStateException stopping = new IllegalStateException("the benchmark is stopping: closed " + resource
        + " as soon as it started");
    try {
      resource.close();
    } catch (Exception e) {
      stopping.addSuppressed(e);
    }
    throw stopping;
  }

  /** Closes {@code resource} now and forgets it. */
  void close(AutoCloseable resource) throws Exception {
    synchronized (this) {
      open.remove(resource);
    }
    resource.close();
  }

  private void closeAll() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      AutoCloseable next;
      synchronized (this) {
        closing = true;
        next = open.poll();
        if (next == null) {
          // a start under way tracks, and so closes, what it started once it is done
          while (starting > 0 && System.nanoTime() < deadline) {
            try {
              TimeUnit.NANOSECONDS.timedWait(this, deadline - System.nanoTime());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
          return;
        }
      }
      try {
        next.close();
      } catch (Exception e) {
        LOG.warn("closing {} failed: {}", next, e.toString());
      }
    }
  }

  @Override
  public void close() {
    closeAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs anyway, with nothing left to close
    }
  }
}
