package io.boltgen.runtime.internal.server;

import io.boltgen.runtime.support.RateLimitedLog;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An executor that runs tasks on virtual threads (Java 21+), bounded as a {@link WorkerPool} is: at most
 * {@code maxRunning} tasks run at once, each on a virtual thread of its own, up to {@code queueSize} more wait
 * in a queue, and {@link #execute} throws {@link RejectedExecutionException} beyond that (a server answers
 * SERVER_THREADPOOL_BUSY). So ten thousand requests never mean ten thousand threads and stacks: they mean
 * {@code maxRunning} of them and a queue. A virtual thread that ends its task takes the next queued one.
 *
 * <p>The runtime is compiled for Java 17: the virtual-thread builder is found when a pool is made, and on an
 * older JVM {@link #create} fails saying that Java 21 or later is needed.
 *
 * <p>Thread-safe; holds no monitor (a virtual thread blocked in {@code synchronized} pins its carrier on
 * JDK 21 to 23).
 */
public final class VirtualThreadPool extends AbstractExecutorService {

  private static final Logger log = LoggerFactory.getLogger(VirtualThreadPool.class);
  private static final RateLimitedLog taskFailures = RateLimitedLog.of(log);

  private final ThreadFactory threads;
  private final int maxRunning;
  private final int queueSize;
  private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicInteger running = new AtomicInteger(); // virtual threads started and not yet ending
  private final Set<Thread> alive = ConcurrentHashMap.newKeySet();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition ended = lock.newCondition();
  private volatile boolean shutdown;

  private VirtualThreadPool(ThreadFactory threads, int maxRunning, int queueSize) {
    this.threads = threads;
    this.maxRunning = maxRunning;
    this.queueSize = queueSize;
  }

  /**
   * A pool of at most {@code maxRunning} virtual threads named {@code name-N} and a queue of
   * {@code queueSize} ({@code Integer.MAX_VALUE} for no bound).
   *
   * @throws UnsupportedOperationException on a JVM older than Java 21
   */
  public static VirtualThreadPool create(String name, int maxRunning, int queueSize) {
    if (maxRunning <= 0 || queueSize < 0) {
      throw new IllegalArgumentException("need maxRunning > 0 and queueSize >= 0: " + maxRunning + "/" + queueSize);
    }
    return new VirtualThreadPool(factory(name + "-"), maxRunning, queueSize);
  }

  /**
   * {@code Thread.ofVirtual().name(prefix, 0).factory()}, found at run time: the runtime is compiled for
   * Java 17, where neither exists.
   */
  static ThreadFactory factory(String prefix) {
    if (Runtime.version().feature() < 21) {
      throw new UnsupportedOperationException("virtual threads need Java 21 or later; this JVM is Java "
          + Runtime.version() + " (" + System.getProperty("java.vm.name") + "): leave them off or run on 21+");
    }
    try {
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      MethodHandle start = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
      MethodHandle name = lookup.findVirtual(builder, "name", MethodType.methodType(builder, String.class, long.class));
      MethodHandle factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
      return (ThreadFactory) factory.invoke(name.invoke(start.invoke(), prefix, 0L));
    } catch (Throwable e) { // NOPMD: a JVM that says 21+ without the API is broken in a way worth saying
      throw new UnsupportedOperationException("virtual threads: Thread.ofVirtual() could not be used on Java "
          + Runtime.version() + ": " + e, e);
    }
  }

  @Override
  public void execute(Runnable task) {
    if (shutdown) {
      throw new RejectedExecutionException("the executor is shut down");
    }
    if (startWith(task)) {
      return;
    }
    if (queued.incrementAndGet() > queueSize) {
      queued.decrementAndGet();
      throw new RejectedExecutionException(maxRunning + " tasks run and " + queueSize + " wait already");
    }
    queue.offer(task);
    // every thread may have ended between our look and the offer: start one for the queue if there is room
    if (running.get() < maxRunning) {
      Runnable next = poll();
      if (next != null && !startWith(next)) {
        queue.offer(next); // raced by another start: the threads running now will take it
        queued.incrementAndGet();
      }
    }
  }

  /** Starts a virtual thread with {@code first} if fewer than the maximum run; false if none may start. */
  private boolean startWith(Runnable first) {
    if (!takePlace()) {
      return false;
    }
    try {
      threads.newThread(() -> work(first)).start();
    } catch (RuntimeException | Error e) {
      end();
      throw e;
    }
    return true;
  }

  /** Counts one more running thread if fewer than the maximum run; false if none may. */
  private boolean takePlace() {
    for (int now = running.get(); now < maxRunning; now = running.get()) {
      if (running.compareAndSet(now, now + 1)) {
        return true;
      }
    }
    return false;
  }

  private void work(Runnable first) {
    Thread self = Thread.currentThread();
    alive.add(self);
    try {
      Runnable task = first;
      while (task != null) {
        run(task);
        task = poll();
        if (task == null) {
          end();
          // a task queued after our poll and before our end may find no thread: take it back if still there
          if (queue.isEmpty() || !takePlace()) {
            return;
          }
          task = poll();
          if (task == null) {
            end();
            return;
          }
        }
      }
    } finally {
      alive.remove(self);
    }
  }

  private static void run(Runnable task) {
    try {
      task.run();
    } catch (Throwable e) { // NOPMD: the virtual thread goes on to the queue's next task
      taskFailures.warn("a task failed on a virtual thread: {}", e.toString());
    }
  }

  private Runnable poll() {
    Runnable task = queue.poll();
    if (task != null) {
      queued.decrementAndGet();
    }
    return task;
  }

  private void end() {
    if (running.decrementAndGet() == 0 && shutdown) {
      lock.lock();
      try {
        ended.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Tasks running and queued now. */
  int submitted() {
    return running.get() + queued.get();
  }

  @Override
  public void shutdown() {
    shutdown = true;
    if (running.get() == 0) {
      lock.lock();
      try {
        ended.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown();
    List<Runnable> left = new java.util.ArrayList<>();
    for (Runnable task = poll(); task != null; task = poll()) {
      left.add(task);
    }
    alive.forEach(Thread::interrupt);
    return left;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown && running.get() == 0 && queue.isEmpty();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long left = unit.toNanos(timeout);
    lock.lock();
    try {
      while (!isTerminated()) {
        if (left <= 0) {
          return false;
        }
        left = ended.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "VirtualThreadPool{running=" + running.get() + "/" + maxRunning + ", queued=" + queued.get() + "/"
        + queueSize + (shutdown ? ", shut down" : "") + '}';
  }
}
