package io.boltgen.bench.load;

import io.boltgen.bench.load.EchoSystem.EchoClient;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * Drives one {@link EchoClient} through one {@link LoadCase}: start the load, let it run for the warm-up,
 * then measure a window (latencies of the calls completed in it, their count, failures, and the CPU time
 * both processes spent in it), then stop the load and wait for calls in flight.
 *
 * <p>Latency is taken from just before a call is issued to when its outcome is delivered, in the thread
 * that delivers it, and recorded in an HdrHistogram {@link Recorder} (wait-free for writers, 3 significant
 * digits). The load is closed-loop (a call starts when a previous one ends), so latencies are those of a
 * saturated system at the given concurrency, not of an open-loop arrival rate.
 */
public final class LoadRunner {

  private static final Logger log = LoggerFactory.getLogger(LoadRunner.class);

  /** Recursion depth after which an async completion hands its next call to another thread. */
  private static final int MAX_INLINE_DEPTH = 16;
  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private final EchoClient client;
  private final String systemId;
  private final long serverPid;
  private final Duration warmup;
  private final Duration measure;

  public LoadRunner(EchoClient client, String systemId, long serverPid, Duration warmup, Duration measure) {
    this.client = client;
    this.systemId = systemId;
    this.serverPid = serverPid;
    this.warmup = warmup;
    this.measure = measure;
  }

  /**
   * Makes a few sequential calls so that every system has paid for its first call (class loading, lazy
   * initialisation, pools) before any case's warm-up starts; the same for every system. At most 10 s.
   */
  public void prime() {
    byte[] payload = new byte[100];
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int ok = 0;
    int failed = 0;
    for (int i = 0; i < 200 && System.nanoTime() < deadline; i++) {
      try {
        client.call(payload);
        ok++;
      } catch (Exception e) {
        failed++;
      }
    }
    log.info("{}: primed with {} calls ({} failed)", systemId, ok, failed);
  }

  /**
   * The pass before any case is measured: runs every case once, unmeasured, for the per-case warm-up, so
   * that the first measured case does not also pay for the JVMs' way to their steady state (on a 2-core
   * machine under load, boltgen's took about 40 s: 10 s of warm-up left sync-32/100B at 30k calls/s, 50 s
   * brought it to 52k). The same for every system.
   */
  public void warmUpPass(List<LoadCase> cases) throws InterruptedException {
    for (LoadCase c : cases) {
      Load load = newLoad(c, 7);
      load.start();
      try {
        sleep(warmup);
      } finally {
        load.stop();
      }
      log.info("{} {}: warm-up pass done ({} calls failed)", systemId, c.label(), load.errors.sum());
    }
  }

  /** Runs {@code c} and returns what its measured window saw. */
  public CaseResult run(LoadCase c, int run) throws InterruptedException {
    Load load = newLoad(c, 42);
    load.start();
    try {
      sleep(warmup);
      long serverCpu0 = Cpu.nanos(serverPid);
      long clientCpu0 = Cpu.selfNanos();
      long jit0 = jitMillis();
      long gc0 = gcMillis();
      load.errors.reset();
      load.firstError.set(null);
      load.recorder.getIntervalHistogram(); // discards the warm-up: the window starts here
      long t0 = System.nanoTime();
      sleep(measure);
      Histogram h = load.recorder.getIntervalHistogram(); // and ends here
      long t1 = System.nanoTime();
      long clientCpu1 = Cpu.selfNanos();
      long serverCpu1 = Cpu.nanos(serverPid);
      // a window still busy compiling was preceded by too short a warm-up: reported beside the result
      long jitMs = jitMillis() - jit0;
      long gcMs = gcMillis() - gc0;
      log.info("{} {}: in the measured window the client spent {} ms compiling (JIT) and {} ms in GC", systemId,
          c.label(), jitMs, gcMs);
      long errors = load.errors.sum();
      Throwable first = load.firstError.get();

      long calls = h.getTotalCount();
      double perCall = calls > 0 ? 1.0 / calls : 0;
      double clientCpuUs = clientCpu0 < 0 || clientCpu1 < 0 ? 0 : (clientCpu1 - clientCpu0) / 1_000.0 * perCall;
      double serverCpuUs = serverCpu0 < 0 || serverCpu1 < 0 ? 0 : (serverCpu1 - serverCpu0) / 1_000.0 * perCall;
      return new CaseResult(systemId, c.token(), run, calls, errors, (t1 - t0) / 1e9,
          us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)),
          us(h.getMaxValue()), clientCpuUs, serverCpuUs, jitMs, gcMs, first == null ? "" : describe(first));
    } finally {
      load.stop();
    }
  }

  /** The load of case {@code c}, its payload random bytes from {@code seed}; not started. */
  private Load newLoad(LoadCase c, long seed) {
    byte[] payload = new byte[c.payloadBytes()];
    new SplittableRandom(seed).nextBytes(payload);
    return c.workload() == Workload.SYNC ? new SyncLoad(payload) : new AsyncLoad(payload);
  }

  private static long jitMillis() {
    return ManagementFactory.getCompilationMXBean() == null ? 0 : ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
  }

  private static long gcMillis() {
    long sum = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      sum += Math.max(0, gc.getCollectionTime());
    }
    return sum;
  }

  private static double us(long nanos) {
    return nanos / 1_000.0;
  }

  private static String describe(Throwable t) {
    String s = t.toString();
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  private static void sleep(Duration d) throws InterruptedException {
    TimeUnit.NANOSECONDS.sleep(d.toNanos());
  }

  private abstract static class Load {
    final Recorder recorder = new Recorder(3);
    final LongAdder errors = new LongAdder();
    final AtomicReference<Throwable> firstError = new AtomicReference<>();
    final byte[] payload;
    volatile boolean stopped;

    Load(byte[] payload) {
      this.payload = payload;
    }

    abstract void start();

    abstract void stop() throws InterruptedException;

    final void outcome(long startNanos, int length, Throwable error) {
      if (error == null && length == payload.length) {
        recorder.recordValue(System.nanoTime() - startNanos);
      } else {
        errors.increment();
        firstError.compareAndSet(null,
            error != null ? error : new IllegalStateException("echo of " + length + " bytes for " + payload.length));
      }
    }
  }

  /** {@link Workload#SYNC}: threads making blocking calls back to back. */
  private final class SyncLoad extends Load {
    private final List<Thread> threads = new ArrayList<>();

    SyncLoad(byte[] payload) {
      super(payload);
    }

    @Override
    void start() {
      for (int i = 0; i < Workload.SYNC.concurrency(); i++) {
        Thread t = new Thread(this::loop, "load-sync-" + i);
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
    }

    private void loop() {
      while (!stopped) {
        long start = System.nanoTime();
        int length;
        try {
          length = client.call(payload);
        } catch (Throwable e) {
          outcome(start, -1, e);
          continue;
        }
        outcome(start, length, null);
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

  /** {@link Workload#ASYNC}: a fixed number of call chains; each completion issues the chain's next call. */
  private final class AsyncLoad extends Load {
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ExecutorService trampoline = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "load-async-trampoline");
      t.setDaemon(true);
      return t;
    });

    AsyncLoad(byte[] payload) {
      super(payload);
    }

    @Override
    void start() {
      for (int i = 0; i < Workload.ASYNC.concurrency(); i++) {
        issue();
      }
    }

    private void issue() {
      if (stopped) {
        return;
      }
      inFlight.incrementAndGet();
      long start = System.nanoTime();
      client.call(payload, (length, error) -> {
        outcome(start, length, error);
        inFlight.decrementAndGet();
        next();
      });
    }

    /** Issues the next call here, unless this thread is already deep in completions that completed at once. */
    private void next() {
      int[] depth = DEPTH.get();
      if (depth[0] >= MAX_INLINE_DEPTH) {
        trampoline.execute(this::issue);
        return;
      }
      depth[0]++;
      try {
        issue();
      } finally {
        depth[0]--;
      }
    }

    @Override
    void stop() {
      stopped = true;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (inFlight.get() > 0 && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
      }
      trampoline.shutdownNow();
    }
  }
}
