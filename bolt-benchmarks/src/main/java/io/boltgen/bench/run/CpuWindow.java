package io.boltgen.bench.run;

import java.util.ArrayList;
import java.util.List;

/**
 * The CPU one measured window took, from the kernel's accounting ({@link ProcStat}): per call of each subject
 * process, of the whole machine, and what processes other than the benchmark's took meanwhile (the measure of the
 * quiet rule). This JVM always counts as the benchmark's, with the children it has reaped (a wrk run that ended); as
 * a subject, it is counted with them too.
 */
public final class CpuWindow {

  /**
   * What a window took.
   *
   * @param seconds the window's length
   * @param subjectUs each subject's CPU per call in µs, in the order given (NaN when unknown or without a call)
   * @param machineUs the whole machine's busy time per call in µs (NaN when unknown)
   * @param machineBusyPercent every CPU's busy time, % of all of them (NaN when unknown)
   * @param otherPercent other processes' CPU, % of one core (NaN when unknown)
   */
  public record Cost(double seconds, List<Double> subjectUs, double machineUs, double machineBusyPercent,
      double otherPercent) {}

  private final long self = ProcessHandle.current().pid();
  private final long[] bench;
  private final long[] subjects;
  private final long[] subjectNanos;
  private final ProcStat.Sample start;

  private CpuWindow(long[] bench, long[] subjects) {
    this.bench = bench;
    this.subjects = subjects;
    this.subjectNanos = nanos(subjects);
    this.start = ProcStat.take(bench);
  }

  /** A per-call figure, 0 where it is unknown or there was no call: how the load and http tables show such a window. */
  public static double orZero(double perCall) {
    return Double.isNaN(perCall) ? 0 : perCall;
  }

  /** Starts a window now; {@code bench}: the benchmark's processes besides this JVM. */
  public static CpuWindow start(List<Long> bench, long... subjects) {
    return new CpuWindow(bench.stream().mapToLong(Long::longValue).toArray(), subjects.clone());
  }

  /** Ends the window now, in which {@code calls} calls were answered. */
  public Cost end(long calls) {
    long[] subjectEnd = nanos(subjects);
    ProcStat.Sample end = ProcStat.take(bench);
    long ticks = ProcStat.clockTicksPerSecond();
    double seconds = (end.nanos() - start.nanos()) / 1e9;
    List<Double> perCall = new ArrayList<>();
    for (int i = 0; i < subjects.length; i++) {
      boolean known = subjectNanos[i] >= 0 && subjectEnd[i] >= 0 && calls > 0;
      perCall.add(known ? (subjectEnd[i] - subjectNanos[i]) / 1e3 / calls : Double.NaN);
    }
    boolean busyKnown = start.busyTicks() >= 0 && end.busyTicks() >= 0 && seconds > 0;
    double busySeconds = (end.busyTicks() - start.busyTicks()) / (double) ticks;
    return new Cost(seconds, perCall, busyKnown && calls > 0 ? busySeconds * 1e6 / calls : Double.NaN,
        busyKnown ? busySeconds / seconds / ProcStat.onlineCpus() * 100 : Double.NaN,
        ProcStat.otherPercent(start, end, ticks));
  }

  /** Each process's CPU in nanoseconds, this JVM's with its reaped children's (clock ticks); -1 where unknown. */
  private long[] nanos(long[] pids) {
    long[] out = new long[pids.length];
    for (int i = 0; i < pids.length; i++) {
      out[i] = ProcStat.cpuNanos(pids[i]);
      if (pids[i] == self && out[i] >= 0) {
        out[i] += Math.max(0, ProcStat.readChildrenTicks(self)) * 1_000_000_000L / ProcStat.clockTicksPerSecond();
      }
    }
    return out;
  }
}
