package io.boltgen.bench.run;

import io.boltgen.bench.run.Loads.Load;
import io.boltgen.bench.scenario.QuietPolicy;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures windows of a running load, in the client JVM: the calls completed in the window and their latencies
 * (per server instance too, when several answer), the CPU time both JVMs spent in it, the heap both allocated (the
 * server's through its {@link StatsPort}), and how much CPU other processes took meanwhile. A window in which others
 * took more than the {@link QuietPolicy} allows is measured again while the load keeps running.
 */
final class WindowMeter {

  private static final Logger log = LoggerFactory.getLogger(WindowMeter.class);

  private final String label;
  private final long serverPid;
  private final int serverPort;
  private final StatsPort.Client serverStats;
  private final Duration measure;
  private final QuietPolicy quiet;

  /**
   * @param serverPort the server's port, whose established connections are counted (0: not counted)
   * @param serverStats the server's stats port, or null: server allocation unknown
   */
  WindowMeter(String label, long serverPid, int serverPort, StatsPort.Client serverStats, Duration measure,
      QuietPolicy quiet) {
    this.label = label;
    this.serverPid = serverPid;
    this.serverPort = serverPort;
    this.serverStats = serverStats;
    this.measure = measure;
    this.quiet = quiet;
  }

  /** Measures {@code load} (running, warmed up) by the one quiet rule ({@link QuietPolicy#quietest}). */
  Measured measure(Load load, String point) throws InterruptedException {
    return quiet.quietest(() -> once(load, point), Measured::otherCpuPercent, Measured::withAttempts,
        m -> label + " " + point, log::info);
  }

  private Measured once(Load load, String point) throws InterruptedException {
    long self = ProcessHandle.current().pid();
    int connections = serverPort > 0 ? ProcStat.readEstablished(serverPort) : -1;
    long serverAlloc0 = serverStats == null ? -1 : serverStats.allocatedBytes();
    long clientAlloc0 = ProcStat.allocatedBytes();
    long jit0 = jitMillis();
    long gc0 = gcMillis();
    Loads.Taken taken = load.window(measure, List.of(serverPid), self, serverPid);
    CpuWindow.Cost cost = taken.cost();
    long clientAlloc1 = ProcStat.allocatedBytes();
    long serverAlloc1 = serverStats == null ? -1 : serverStats.allocatedBytes();
    long jitMs = jitMillis() - jit0;
    long gcMs = gcMillis() - gc0;

    List<Histogram> perInstance = taken.perInstance();
    Histogram h = taken.all();
    List<Long> instanceCalls = new ArrayList<>();
    List<Double> instanceP50s = new ArrayList<>();
    for (Histogram i : perInstance) {
      if (perInstance.size() > 1) {
        instanceCalls.add(i.getTotalCount());
        instanceP50s.add(i.getTotalCount() > 0 ? us(i.getValueAtPercentile(50)) : 0);
      }
    }
    long calls = h.getTotalCount();
    double perCall = calls > 0 ? 1.0 / calls : 0;
    double other = cost.otherPercent();
    log.info("{} {}: window of {} calls; the client spent {} ms compiling (JIT) and {} ms in GC; other processes {}%"
        + " of a core", label, point, calls, jitMs, gcMs, String.format(Locale.ROOT, "%.1f", other));
    String error = taken.firstError();
    return new Measured(calls, taken.errors(), error.length() > 300 ? error.substring(0, 300) + "…" : error,
        taken.seconds(), us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(99)),
        us(h.getValueAtPercentile(99.9)), us(h.getMaxValue()), CpuWindow.orZero(cost.subjectUs().get(0)),
        CpuWindow.orZero(cost.subjectUs().get(1)), jitMs, gcMs, perCallBytes(clientAlloc0, clientAlloc1, perCall),
        perCallBytes(serverAlloc0, serverAlloc1, perCall), connections, other, 1, false, instanceCalls, instanceP50s);
  }

  private static double perCallBytes(long bytes0, long bytes1, double perCall) {
    return bytes0 < 0 || bytes1 < 0 || perCall == 0 ? Double.NaN : Math.max(0, bytes1 - bytes0) * perCall;
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
}
