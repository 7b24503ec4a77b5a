package io.boltgen.bench.load;

import io.boltgen.bench.service.ClusterEchoReply;
import io.boltgen.bench.service.ClusterEchoService;
import io.boltgen.runtime.cluster.LoadBalancer;
import java.time.Duration;
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
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The load of one window of the {@code cluster} case, as {@link LoadRunner}'s async workload makes it: a
 * fixed number of call chains, each keeping one call in flight (a completion issues the chain's next call
 * from the thread that delivered it, handing it to a trampoline thread past a recursion depth). Closed
 * loop: a slow instance holds its callers, which is what a balancing policy must avoid.
 *
 * <p>Each success is recorded in the HdrHistogram {@link Recorder} of the instance that answered (wait-free,
 * 3 significant digits, from just before the call is issued to when its outcome is delivered), so the
 * window's latencies, its calls and every instance's share come from the same swap of recorders.
 */
final class ClusterLoad {

  private static final int MAX_INLINE_DEPTH = 16;
  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private final ClusterEchoService stub;
  private final int concurrency;
  private final byte[] payload;
  private final Recorder[] recorders;
  private final LongAdder errors = new LongAdder();
  private final AtomicReference<Throwable> firstError = new AtomicReference<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final ExecutorService trampoline = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "cluster-load-trampoline");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean stopped;

  ClusterLoad(ClusterEchoService stub, int instances, int concurrency, byte[] payload) {
    this.stub = stub;
    this.concurrency = concurrency;
    this.payload = payload;
    this.recorders = new Recorder[instances];
    for (int i = 0; i < instances; i++) {
      recorders[i] = new Recorder(3);
    }
  }

  /** Starts every chain. */
  void start() {
    for (int i = 0; i < concurrency; i++) {
      issue();
    }
  }

  /** Discards what was recorded so far: the measured window starts now. */
  void reset() {
    for (Recorder r : recorders) {
      r.getIntervalHistogram();
    }
    errors.reset();
    firstError.set(null);
  }

  /** What was recorded since {@link #reset}, as a result; the window ends now. */
  ClusterResult result(LoadBalancer policy, int round, double seconds, int slowIndex) {
    Histogram all = null;
    List<Long> calls = new ArrayList<>();
    List<Double> p50s = new ArrayList<>();
    for (Recorder r : recorders) {
      Histogram h = r.getIntervalHistogram();
      calls.add(h.getTotalCount());
      p50s.add(h.getTotalCount() > 0 ? us(h.getValueAtPercentile(50)) : 0);
      if (all == null) {
        all = h;
      } else {
        all.add(h);
      }
    }
    Throwable first = firstError.get();
    String error = first == null ? "" : first.toString();
    return new ClusterResult(policy, round, all.getTotalCount(), errors.sum(), seconds,
        us(all.getValueAtPercentile(50)), us(all.getValueAtPercentile(99)), us(all.getValueAtPercentile(99.9)),
        us(all.getMaxValue()), calls, p50s, slowIndex, error.length() > 300 ? error.substring(0, 300) + "…" : error);
  }

  /** Stops issuing calls and waits (up to 10 s) for those in flight. */
  void stop() {
    stopped = true;
    InFlight.drain(inFlight, trampoline);
  }

  /** Failed calls since {@link #reset}. */
  long errors() {
    return errors.sum();
  }

  private void issue() {
    if (stopped) {
      return;
    }
    inFlight.incrementAndGet();
    long start = System.nanoTime();
    CompletableFuture<ClusterEchoReply> future;
    try {
      future = stub.echo(payload);
    } catch (Throwable t) {
      done(start, null, t);
      return;
    }
    future.whenComplete((reply, error) -> done(start, reply, error));
  }

  private void done(long start, ClusterEchoReply reply, Throwable error) {
    if (error == null && reply != null && reply.payload() != null && reply.payload().length == payload.length
        && reply.instance() >= 0 && reply.instance() < recorders.length) {
      recorders[reply.instance()].recordValue(System.nanoTime() - start);
    } else {
      errors.increment();
      firstError.compareAndSet(null, error != null ? error : new IllegalStateException("wrong echo: " + reply));
    }
    inFlight.decrementAndGet();
    next();
  }

  /** Issues the next call here, unless this thread is already deep in completions that completed at once. */
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

  private static double us(long nanos) {
    return nanos / 1_000.0;
  }

  /** Sleeps {@code d}. */
  static void sleep(Duration d) throws InterruptedException {
    TimeUnit.NANOSECONDS.sleep(d.toNanos());
  }
}
