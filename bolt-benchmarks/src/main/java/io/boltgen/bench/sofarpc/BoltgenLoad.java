package io.boltgen.bench.sofarpc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The boltgen side's closed-loop load in this JVM, as the SOFARPC consumer's ({@code PeerBench}): sync, threads
 * calling back to back; async, calls in flight, each completion issuing the next (from the thread that delivered it,
 * handed to a trampoline thread after 16 nested completions). Latencies of correct answers in an HdrHistogram.
 */
final class BoltgenLoad {

  private static final int MAX_INLINE_DEPTH = 16;
  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  /** One call of the benchmark's method through a generated stub, both ways, and its answer's check. */
  interface Call {
    Object sync() throws Exception;

    CompletableFuture<?> async();

    /** Null if {@code answer} is what the provider must answer, else what is wrong. */
    String check(Object answer);
  }

  /** A measured window: correct answers, failures, the first failure (or empty), its length, latencies (ns). */
  record Window(long calls, long errors, String firstError, double seconds, Histogram nanos) {}

  private final Call call;
  private final int concurrency;
  private final Recorder latencies = new Recorder(3);
  private final LongAdder calls = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final AtomicReference<String> firstError = new AtomicReference<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final List<Thread> threads = new ArrayList<>();
  private final ExecutorService trampoline = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "sofarpc-bench-trampoline");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean stopped;
  private long t0;

  private BoltgenLoad(Call call, int concurrency) {
    this.call = call;
    this.concurrency = concurrency;
  }

  /** Starts {@code concurrency} threads ({@code sync}) or calls in flight. */
  static BoltgenLoad start(Call call, boolean sync, int concurrency) {
    BoltgenLoad load = new BoltgenLoad(call, concurrency);
    if (sync) {
      load.startSync();
    } else {
      for (int i = 0; i < concurrency; i++) {
        load.issue();
      }
    }
    load.reset();
    return load;
  }

  private void startSync() {
    for (int i = 0; i < concurrency; i++) {
      Thread t = new Thread(() -> {
        while (!stopped) {
          long start = System.nanoTime();
          try {
            outcome(start, call.sync(), null);
          } catch (Exception e) {
            outcome(start, null, e);
          }
        }
      }, "sofarpc-bench-sync-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void outcome(long start, Object answer, Throwable error) {
    String wrong = error != null ? error.toString() : call.check(answer);
    if (wrong == null) {
      latencies.recordValue(System.nanoTime() - start);
      calls.increment();
    } else {
      errors.increment();
      firstError.compareAndSet(null, wrong);
    }
  }

  @SuppressWarnings("FutureReturnValueIgnored") // the outcome is taken by the callback, failures included
  private void issue() {
    if (stopped) {
      return;
    }
    inFlight.incrementAndGet();
    long start = System.nanoTime();
    CompletableFuture<?> future;
    try {
      future = call.async();
    } catch (RuntimeException e) {
      future = CompletableFuture.failedFuture(e);
    }
    future.whenComplete((answer, error) -> {
      outcome(start, answer, error);
      inFlight.decrementAndGet();
      next();
    });
  }

  private void next() {
    int[] depth = DEPTH.get();
    if (depth[0] >= MAX_INLINE_DEPTH) {
      try {
        trampoline.execute(this::issue);
      } catch (RejectedExecutionException e) {
        // stopped meanwhile: the chain ends
      }
      return;
    }
    depth[0]++;
    try {
      issue();
    } finally {
      depth[0]--;
    }
  }

  /** Starts a measured window: what was measured so far is dropped. */
  void reset() {
    latencies.getIntervalHistogram();
    calls.reset();
    errors.reset();
    firstError.set(null);
    t0 = System.nanoTime();
  }

  /** The window since {@link #reset}. */
  Window take() {
    Histogram h = latencies.getIntervalHistogram();
    long t1 = System.nanoTime();
    String first = firstError.get();
    return new Window(calls.sum(), errors.sum(), first == null ? "" : first, (t1 - t0) / 1e9, h);
  }

  /** Stops issuing calls and waits (at most 10 s each) for the threads and the calls in flight. */
  void stop() throws InterruptedException {
    stopped = true;
    for (Thread t : threads) {
      t.join(10_000);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling a counter the callbacks decrement
    }
    trampoline.shutdownNow();
  }
}
