package io.boltgen.bench.load;

import io.boltgen.bench.load.Loads.Load;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures windows of a running load, in the client JVM: the calls completed in the window and their
 * latencies, the CPU time both JVMs spent in it ({@link Cpu}), the heap both allocated ({@link Allocation}, the
 * server's through its {@link StatsPort}), and how much CPU other processes took meanwhile ({@link OtherCpu}).
 * A window in which others took more than the {@link QuietPolicy} allows is measured again while the load
 * keeps running.
 */
final class WindowMeter {

  private static final Logger log = LoggerFactory.getLogger(WindowMeter.class);

  private final String systemId;
  private final long serverPid;
  private final int serverPort;
  private final StatsPort.Client serverStats;
  private final Duration measure;
  private final QuietPolicy quiet;

  /**
   * @param serverPort the benchmarked server's port, whose established connections are counted (0: not counted)
   * @param serverStats the server's stats port, or null: server allocation unknown
   */
  WindowMeter(String systemId, long serverPid, int serverPort, StatsPort.Client serverStats, Duration measure,
      QuietPolicy quiet) {
    this.systemId = systemId;
    this.serverPid = serverPid;
    this.serverPort = serverPort;
    this.serverStats = serverStats;
    this.measure = measure;
    this.quiet = quiet;
  }

  /** Measures {@code load} (running, warmed up) once, and again while the window was noisy. */
  Measured measure(Load load, String label) throws InterruptedException {
    Measured kept = null;
    int attempts = 0;
    while (true) {
      attempts++;
      Measured m = once(load);
      if (!quiet.noisy(m.otherCpuPercent())) {
        return m.withAttempts(attempts, false);
      }
      if (kept == null || m.otherCpuPercent() < kept.otherCpuPercent()) {
        kept = m;
      }
      boolean again = quiet.again(m.otherCpuPercent(), attempts);
      log.info(String.format(Locale.ROOT, "%s %s: other processes took %.1f%% of a core in the window (threshold"
          + " %.1f%%)%s", systemId, label, m.otherCpuPercent(), quiet.thresholdPercent(),
          again ? "; measuring again" : "; keeping the quietest attempt, marked noisy"));
      if (!again) {
        return kept.withAttempts(attempts, true);
      }
    }
  }

  private Measured once(Load load) throws InterruptedException {
    long self = ProcessHandle.current().pid();
    int connections = serverPort > 0 ? ProcStat.readEstablished(serverPort) : -1;
    long serverAlloc0 = serverStats == null ? -1 : serverStats.allocatedBytes();
    long clientAlloc0 = Allocation.totalBytes();
    long serverCpu0 = Cpu.nanos(serverPid);
    long clientCpu0 = Cpu.selfNanos();
    long jit0 = jitMillis();
    long gc0 = gcMillis();
    OtherCpu.Sample other0 = OtherCpu.take(self, serverPid);
    load.resetErrors();
    load.recorder.getIntervalHistogram(); // discards what came before: the window starts here
    long t0 = System.nanoTime();
    TimeUnit.NANOSECONDS.sleep(measure.toNanos());
    Histogram h = load.recorder.getIntervalHistogram(); // and ends here
    long t1 = System.nanoTime();
    OtherCpu.Sample other1 = OtherCpu.take(self, serverPid);
    long clientCpu1 = Cpu.selfNanos();
    long serverCpu1 = Cpu.nanos(serverPid);
    long clientAlloc1 = Allocation.totalBytes();
    long serverAlloc1 = serverStats == null ? -1 : serverStats.allocatedBytes();
    // a window still busy compiling was preceded by too short a warm-up: reported beside the result
    long jitMs = jitMillis() - jit0;
    long gcMs = gcMillis() - gc0;
    long errors = load.errors.sum();
    Throwable first = load.firstError.get();

    long calls = h.getTotalCount();
    double perCall = calls > 0 ? 1.0 / calls : 0;
    double clientCpuUs = clientCpu0 < 0 || clientCpu1 < 0 ? 0 : (clientCpu1 - clientCpu0) / 1_000.0 * perCall;
    double serverCpuUs = serverCpu0 < 0 || serverCpu1 < 0 ? 0 : (serverCpu1 - serverCpu0) / 1_000.0 * perCall;
    double clientAlloc = clientAlloc0 < 0 || clientAlloc1 < 0 || calls == 0 ? Double.NaN
        : Math.max(0, clientAlloc1 - clientAlloc0) * perCall;
    double serverAlloc = serverAlloc0 < 0 || serverAlloc1 < 0 || calls == 0 ? Double.NaN
        : Math.max(0, serverAlloc1 - serverAlloc0) * perCall;
    double other = OtherCpu.percent(other0, other1, ProcStat.clockTicksPerSecond());
    log.info("{}: window of {} calls; the client spent {} ms compiling (JIT) and {} ms in GC; other processes {}% of"
        + " a core", systemId, calls, jitMs, gcMs, String.format(Locale.ROOT, "%.1f", other));
    return new Measured(calls, errors, first == null ? "" : describe(first), (t1 - t0) / 1e9,
        us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)),
        us(h.getMaxValue()), clientCpuUs, serverCpuUs, jitMs, gcMs, clientAlloc, serverAlloc, connections, other, 1,
        false);
  }

  private static long jitMillis() {
    return ManagementFactory.getCompilationMXBean() == null ? 0
        : ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
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
}
