package io.boltgen.bench.run;

import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.system.EchoSystem.EchoClient;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The closed-loop loads the client drives: blocking threads ({@link Sync}) or chains of calls in flight
 * ({@link Async}), each recording the latency of every call that completes (from just before it is issued to when
 * its outcome is delivered) into an HdrHistogram {@link Recorder} per server instance that answered (wait-free for
 * writers, 3 significant digits), and counting failures. The load is closed-loop: latencies are those of a saturated
 * system at that concurrency.
 */
final class Loads {

  private static final Logger log = LoggerFactory.getLogger(Loads.class);
  /** Recursion depth after which an async completion hands its next call to another thread. */
  private static final int MAX_INLINE_DEPTH = 16;
  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private Loads() {}

  /** One connection's way of calling: blocking, or with a completion. Thread-safe. */
  interface Caller {
    /** Calls and waits; returns the echo's length; throws on any failure. */
    int call(byte[] payload) throws Exception;

    /** Calls; {@code done} runs exactly once, on whatever thread the system delivers the outcome. */
    void call(byte[] payload, Outcome done);

    /** The caller of {@code client}, whose single instance answers every call. */
    static Caller of(EchoClient client) {
      return new Caller() {
        @Override
        public int call(byte[] payload) throws Exception {
          return client.call(payload);
        }

        @Override
        public void call(byte[] payload, Outcome done) {
          client.call(payload, (length, error) -> done.done(0, length, error));
        }
      };
    }
  }

  /** The outcome of a call: the instance that answered and the echo's length, or the failure. */
  @FunctionalInterface
  interface Outcome {
    void done(int instance, int length, Throwable error);
  }

  /** {@code bytes} random bytes from {@code seed}. */
  static byte[] payload(int bytes, long seed) {
    byte[] payload = new byte[bytes];
    new SplittableRandom(seed).nextBytes(payload);
    return payload;
  }

  /** The load of {@code point} over {@code callers} (one per connection), its payload from {@code seed}; not started. */
  static Load of(Point point, List<Caller> callers, int instances, long seed) {
    byte[] payload = payload(point.payloadBytes(), seed);
    return point.sync() ? new Sync(callers, point.inflight(), payload, instances)
        : new Async(callers, point.inflight(), payload, instances);
  }

  /**
   * Makes 200 sequential calls (at least one per caller, at most 10 s) so that first-call costs (class loading, lazy
   * initialisation, pools) are paid before any warm-up; the same for every system.
   */
  static void prime(List<Caller> callers, String what) {
    byte[] payload = new byte[100];
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int ok = 0;
    int calls = Math.max(200, callers.size());
    for (int i = 0; i < calls && System.nanoTime() < deadline; i++) {
      try {
        callers.get(i % callers.size()).call(payload);
        ok++;
      } catch (Exception e) {
        // counted below
      }
    }
    log.info("{}: primed with {} calls ({} failed)", what, ok, calls - ok);
  }

  /** A load: started, measured through its recorders, stopped. */
  abstract static class Load {
    final Recorder[] recorders;
    final LongAdder errors = new LongAdder();
    final AtomicReference<Throwable> firstError = new AtomicReference<>();
    final List<Caller> callers;
    final int concurrency;
    final byte[] payload;
    volatile boolean stopped;

    Load(List<Caller> callers, int concurrency, byte[] payload, int instances) {
      this.callers = List.copyOf(callers);
      this.concurrency = concurrency;
      this.payload = payload;
      this.recorders = new Recorder[instances];
      for (int i = 0; i < instances; i++) {
        recorders[i] = new Recorder(3);
      }
    }

    abstract void start();

    /** Stops issuing calls and waits (a bounded time) for those in flight. */
    abstract void stop() throws InterruptedException;

    /** Forgets the failures so far: a window starts. */
    final void resetErrors() {
      errors.reset();
      firstError.set(null);
    }

    final void outcome(long startNanos, int instance, int length, Throwable error) {
      if (error == null && length == payload.length && instance >= 0 && instance < recorders.length) {
        recorders[instance].recordValue(System.nanoTime() - startNanos);
      } else {
        errors.increment();
        firstError.compareAndSet(null, error != null ? error
            : new IllegalStateException("echo of " + length + " bytes for " + payload.length + " from instance " + instance));
      }
    }
  }

  /** Threads making blocking calls back to back, thread {@code i} on caller {@code i mod callers}. */
  static final class Sync extends Load {
    private final List<Thread> threads = new ArrayList<>();

    Sync(List<Caller> callers, int threads, byte[] payload, int instances) {
      super(callers, threads, payload, instances);
    }

    @Override
    void start() {
      for (int i = 0; i < concurrency; i++) {
        Caller caller = callers.get(i % callers.size());
        Thread t = new Thread(() -> {
          while (!stopped) {
            long start = System.nanoTime();
            try {
              outcome(start, 0, caller.call(payload), null);
            } catch (Throwable e) {
              outcome(start, 0, -1, e);
            }
          }
        }, "load-sync-" + i);
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
    }

    @Override
    void stop() throws InterruptedException {
      stopped = true;
      for (Thread t : threads) {
        t.join(10_000);
      }
    }
  }

  /**
   * A fixed number of call chains, chain {@code i} on caller {@code i mod callers}: each completion issues the
   * chain's next call on the same caller (from the thread that delivered the completion), so every connection always
   * has its share in flight.
   */
  static final class Async extends Load {
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ExecutorService trampoline = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "load-async-trampoline");
      t.setDaemon(true);
      return t;
    });

    Async(List<Caller> callers, int chains, byte[] payload, int instances) {
      super(callers, chains, payload, instances);
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
        caller.call(payload, (instance, length, error) -> {
          outcome(start, instance, length, error);
          inFlight.decrementAndGet();
          next(caller);
        });
      } catch (RuntimeException e) { // a caller that throws instead of completing: the chain goes on
        outcome(start, 0, -1, e);
        inFlight.decrementAndGet();
        next(caller);
      }
    }

    /** Issues the next call here, unless this thread is already deep in completions that completed at once. */
    private void next(Caller caller) {
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

    /** Waits up to 10 s for the calls in flight (no new ones are issued), then stops the trampoline. */
    @Override
    void stop() {
      stopped = true;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (inFlight.get() > 0 && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling a counter the callbacks decrement
      }
      trampoline.shutdownNow();
    }
  }
}
