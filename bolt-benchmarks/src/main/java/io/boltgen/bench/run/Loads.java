package io.boltgen.bench.run;

import io.boltgen.bench.system.EchoSystem.EchoClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one closed-loop load of every command, whatever it calls: blocking threads calling back to back
 * ({@code sync}), or chains of calls in flight, each completion issuing the chain's next call ({@code async}). The
 * latency of every right answer (from just before the call is issued to when its outcome is delivered) goes into an
 * HdrHistogram {@link Recorder} per server instance that answered (wait-free for writers, 3 significant digits, in
 * nanoseconds); failures and wrong answers are counted. Latencies are those of a saturated system at that
 * concurrency.
 */
public final class Loads {

  private static final Logger log = LoggerFactory.getLogger(Loads.class);
  /** Recursion depth after which an async completion hands its next call to another thread. */
  private static final int MAX_INLINE_DEPTH = 16;
  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);
  /** How long a caller waits after a failed call before its next one. */
  private static final long AFTER_FAILURE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private Loads() {}

  /** One way of making the load's call, blocking or with a completion. Thread-safe. */
  public interface Caller {
    /** Calls and waits; null when the answer is right, else what is wrong; throws on any failure. */
    String call() throws Exception;

    /** Calls; {@code done} runs exactly once, on whatever thread delivers the outcome. */
    void call(Outcome done);

    /** The calls of {@code client} echoing {@code payload}: right when the echo is as long. */
    static Caller echo(EchoClient client, byte[] payload) {
      return new Caller() {
        @Override
        public String call() throws Exception {
          return wrongLength(client.call(payload), payload);
        }

        @Override
        public void call(Outcome done) {
          client.call(payload, (length, error) -> done.done(0, error == null ? wrongLength(length, payload) : null,
              error));
        }
      };
    }
  }

  /** The outcome of a call: the instance that answered, and what was wrong with the answer or the failure. */
  @FunctionalInterface
  public interface Outcome {
    void done(int instance, String wrong, Throwable error);
  }

  /**
   * A window of a load: its right answers' latencies per instance, failures, the first failure (or empty), and the
   * CPU it took.
   *
   * @param perInstance latencies in nanoseconds, one histogram per instance
   * @param cost the CPU of the window ({@link Load#window})
   */
  public record Taken(List<Histogram> perInstance, long errors, String firstError, double seconds,
      CpuWindow.Cost cost) {
    /** Every instance's latencies together. */
    public Histogram all() {
      Histogram h = new Histogram(3);
      perInstance.forEach(h::add);
      return h;
    }

    /** Right answers in the window. */
    public long calls() {
      return perInstance.stream().mapToLong(Histogram::getTotalCount).sum();
    }

    /** The latency at {@code percentile} of the right answers in µs (100: the longest); NaN without one. */
    public double us(double percentile) {
      Histogram h = all();
      return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }
  }

  /** Null when an echo of {@code length} bytes is right for {@code payload}, else what is wrong. */
  static String wrongLength(int length, byte[] payload) {
    return length == payload.length ? null : "echo of " + length + " bytes for " + payload.length;
  }

  /** {@code bytes} random bytes from {@code seed}: the same every run. */
  public static byte[] payload(int bytes, long seed) {
    byte[] payload = new byte[bytes];
    new SplittableRandom(seed).nextBytes(payload);
    return payload;
  }

  /**
   * Starts {@code concurrency} threads ({@code sync}) or chains of calls over {@code callers}, thread or chain
   * {@code i} on caller {@code i mod callers}, {@code instances} server instances answering; the window starts now.
   */
  public static Load start(List<Caller> callers, boolean sync, int concurrency, int instances) {
    Load load = sync ? new Sync(callers, concurrency, instances) : new Async(callers, concurrency, instances);
    load.reset();
    load.start();
    return load;
  }

  /**
   * Makes 200 sequential calls (at least one per caller, at most 10 s) so that first-call costs (class loading, lazy
   * initialisation, pools) are paid before any warm-up; the same for every system.
   */
  static void prime(List<Caller> callers, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int ok = 0;
    int calls = Math.max(200, callers.size());
    for (int i = 0; i < calls && System.nanoTime() < deadline; i++) {
      try {
        ok += callers.get(i % callers.size()).call() == null ? 1 : 0;
      } catch (Exception e) {
        // counted below
      }
    }
    log.info("{}: primed with {} calls ({} failed)", what, ok, calls - ok);
  }

  /** A running load: its windows measured ({@link #window}), then stopped. */
  public abstract static class Load {
    final Recorder[] recorders;
    final LongAdder errors = new LongAdder();
    final AtomicReference<String> firstError = new AtomicReference<>();
    final List<Caller> callers;
    final int concurrency;
    volatile boolean stopped;
    private long t0;

    Load(List<Caller> callers, int concurrency, int instances) {
      this.callers = List.copyOf(callers);
      this.concurrency = concurrency;
      this.recorders = new Recorder[instances];
      for (int i = 0; i < instances; i++) {
        recorders[i] = new Recorder(3);
      }
    }

    abstract void start();

    /**
     * Stops issuing calls and waits (at most 10 s) for the threads and the calls in flight; how many are still
     * there (0 when the load stopped in time).
     */
    public abstract int stop() throws InterruptedException;

    /** {@link #stop}s it; fails, saying so, if calls or threads of {@code what} were still there 10 s after. */
    public final void stopOrFail(String what) throws InterruptedException {
      int left = stop();
      if (left > 0) {
        throw new IllegalStateException(what + ": " + left + " calls or threads still busy 10 s after the load stopped");
      }
    }

    /** Starts a window: what was measured and failed so far is dropped. */
    private void reset() {
      errors.reset();
      firstError.set(null);
      for (Recorder r : recorders) {
        r.getIntervalHistogram();
      }
      t0 = System.nanoTime();
    }

    /**
     * A window of {@code length} from now, its CPU measured ({@link CpuWindow}: {@code bench} the benchmark's
     * processes besides this JVM, {@code subjects} those whose CPU per call is told).
     */
    public final Taken window(Duration length, List<Long> bench, long... subjects) throws InterruptedException {
      CpuWindow cpu = CpuWindow.start(bench, subjects);
      reset();
      TimeUnit.NANOSECONDS.sleep(length.toNanos()); // the measured window
      List<Histogram> perInstance = new ArrayList<>();
      for (Recorder r : recorders) {
        perInstance.add(r.getIntervalHistogram());
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      long calls = perInstance.stream().mapToLong(Histogram::getTotalCount).sum();
      String first = firstError.get();
      return new Taken(perInstance, errors.sum(), first == null ? "" : first, seconds, cpu.end(calls));
    }

    /** Records a call's outcome; whether it was right. */
    final boolean outcome(long startNanos, int instance, String wrong, Throwable error) {
      if (error == null && wrong == null && instance >= 0 && instance < recorders.length) {
        recorders[instance].recordValue(System.nanoTime() - startNanos);
        return true;
      }
      errors.increment();
      firstError.compareAndSet(null, error != null ? error.toString()
          : wrong != null ? wrong : "an answer from instance " + instance + " of " + recorders.length);
      return false;
    }
  }

  /** Threads making blocking calls back to back. */
  private static final class Sync extends Load {
    private final List<Thread> threads = new ArrayList<>();

    Sync(List<Caller> callers, int threads, int instances) {
      super(callers, threads, instances);
    }

    @Override
    void start() {
      for (int i = 0; i < concurrency; i++) {
        Caller caller = callers.get(i % callers.size());
        Thread t = new Thread(() -> {
          while (!stopped) {
            long start = System.nanoTime();
            boolean right;
            try {
              right = outcome(start, 0, caller.call(), null);
            } catch (Throwable e) {
              right = outcome(start, 0, null, e);
            }
            if (!right) {
              LockSupport.parkNanos(AFTER_FAILURE_NANOS); // a caller that fails at once does not spin
            }
          }
        }, "load-sync-" + i);
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
    }

    @Override
    public int stop() throws InterruptedException {
      stopped = true;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      for (Thread t : threads) {
        TimeUnit.NANOSECONDS.timedJoin(t, Math.max(1, deadline - System.nanoTime()));
      }
      return (int) threads.stream().filter(Thread::isAlive).count();
    }
  }

  /**
   * A fixed number of call chains: each completion issues the chain's next call on the same caller (from the thread
   * that delivered the completion), so that every caller always has its share in flight.
   */
  private static final class Async extends Load {
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ExecutorService trampoline = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "load-async-trampoline");
      t.setDaemon(true);
      return t;
    });

    /** Where a chain whose call failed goes on, a little later. */
    private final Executor later = CompletableFuture.delayedExecutor(AFTER_FAILURE_NANOS, TimeUnit.NANOSECONDS,
        trampoline);

    Async(List<Caller> callers, int chains, int instances) {
      super(callers, chains, instances);
    }

    @Override
    void start() {
      for (int i = 0; i < concurrency; i++) {
        issue(callers.get(i % callers.size()));
      }
    }

    private void issue(Caller caller) {
      if (stopped) {
        return;
      }
      inFlight.incrementAndGet();
      long start = System.nanoTime();
      try {
        caller.call((instance, wrong, error) -> {
          boolean right = outcome(start, instance, wrong, error);
          inFlight.decrementAndGet();
          next(caller, right);
        });
      } catch (RuntimeException e) { // a caller that throws instead of completing: the chain goes on
        outcome(start, 0, null, e);
        inFlight.decrementAndGet();
        next(caller, false);
      }
    }

    /**
     * Issues the next call here, unless this thread is already deep in completions that completed at once; after a
     * failure, a little later, so that a caller that fails at once does not spin.
     */
    private void next(Caller caller, boolean right) {
      if (!right) {
        later.execute(() -> issue(caller));
        return;
      }
      int[] depth = DEPTH.get();
      if (depth[0] >= MAX_INLINE_DEPTH) {
        try {
          trampoline.execute(() -> issue(caller));
        } catch (RejectedExecutionException e) {
          // stopped meanwhile: the chain ends
        }
        return;
      }
      depth[0]++;
      try {
        issue(caller);
      } finally {
        depth[0]--;
      }
    }

    @Override
    public int stop() {
      stopped = true;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (inFlight.get() > 0 && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling a counter the callbacks decrement
      }
      trampoline.shutdownNow();
      return inFlight.get();
    }
  }
}
