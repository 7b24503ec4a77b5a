package io.boltgen.runtime.internal.server;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server's own executor, which adds threads before it queues: a task goes to an idle thread if there is
 * one, else to a new thread while there are fewer than the maximum, and only then into the bounded queue;
 * when the queue is full too, {@link #execute} throws {@link RejectedExecutionException} (the server answers
 * SERVER_THREADPOOL_BUSY). A plain {@link ThreadPoolExecutor} does the opposite (it only grows once its
 * queue is full), so a burst of slow requests would wait behind each other on the core threads while the
 * other threads it may have stay unmade. Threads above the core count end after 60 s without work.
 *
 * <p>Thread-safe.
 */
public final class WorkerPool extends ThreadPoolExecutor {

  private final AtomicInteger submitted = new AtomicInteger(); // accepted and not yet finished
  private final AtomicInteger threads; // alive, counted by the threads themselves

  private WorkerPool(int core, int max, GrowFirstQueue queue, AtomicInteger threads, ThreadFactory factory) {
    super(core, max, 60, TimeUnit.SECONDS, queue, factory, new AbortPolicy());
    this.threads = threads;
  }

  /** A pool of {@code core} to {@code max} daemon threads named {@code name-*} and a queue of {@code queueSize}. */
  public static WorkerPool create(String name, int core, int max, int queueSize) {
    AtomicInteger threads = new AtomicInteger();
    ThreadFactory named = new DefaultThreadFactory(name, true);
    ThreadFactory counted = r -> named.newThread(() -> {
      threads.incrementAndGet();
      try {
        r.run();
      } finally {
        threads.decrementAndGet();
      }
    });
    GrowFirstQueue queue = new GrowFirstQueue(queueSize);
    WorkerPool pool = new WorkerPool(core, max, queue, threads, counted);
    queue.pool = pool;
    return pool;
  }

  @Override
  public void execute(Runnable task) {
    submitted.incrementAndGet();
    try {
      super.execute(task);
    } catch (RejectedExecutionException e) {
      // the queue said "make a thread", but others took the last ones meanwhile: queue it if there is room
      if (isShutdown() || !((GrowFirstQueue) getQueue()).offerToQueue(task)) {
        submitted.decrementAndGet();
        throw e;
      }
    }
  }

  @Override
  protected void afterExecute(Runnable task, Throwable error) {
    submitted.decrementAndGet();
  }

  /** Tasks accepted and not yet finished (running or queued). */
  int submitted() {
    return submitted.get();
  }

  /** Whether a new task would find an idle thread. */
  private boolean hasIdleThread() {
    return submitted.get() <= threads.get();
  }

  /** Refuses a task (so that the pool makes a thread) while a thread could still be made and none is idle. */
  private static final class GrowFirstQueue extends LinkedBlockingQueue<Runnable> {

    private static final long serialVersionUID = 1L;

    transient WorkerPool pool;

    GrowFirstQueue(int capacity) {
      super(capacity);
    }

    @Override
    public boolean offer(Runnable task) {
      WorkerPool p = pool;
      if (!p.hasIdleThread() && p.threads.get() < p.getMaximumPoolSize()) {
        return false;
      }
      return super.offer(task);
    }

    boolean offerToQueue(Runnable task) {
      return super.offer(task);
    }
  }
}
