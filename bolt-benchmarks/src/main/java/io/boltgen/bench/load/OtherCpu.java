package io.boltgen.bench.load;

/**
 * The CPU that processes other than the benchmark's two JVMs used during a measured window, as a percentage
 * of one core: the machine's busy time ({@link ProcStat#busyTicks}) minus the two JVMs' CPU time
 * ({@link ProcStat#processTicks}), both taken at the window's start and end, over the window's length. The
 * orchestrator, the kernel's own threads and anything else running on the machine count as "other".
 */
final class OtherCpu {

  /**
   * What the kernel said at one instant.
   *
   * @param nanos {@link System#nanoTime()} when taken
   * @param busyTicks the machine's busy ticks, or -1 if unknown
   * @param benchTicks the benchmark JVMs' CPU ticks summed, or -1 if any was unknown
   */
  record Sample(long nanos, long busyTicks, long benchTicks) {}

  private OtherCpu() {}

  /** A sample now, the benchmark JVMs being {@code pids}. */
  static Sample take(long... pids) {
    long bench = 0;
    for (long pid : pids) {
      long t = ProcStat.readProcessTicks(pid);
      if (t < 0) {
        bench = -1;
        break;
      }
      bench += t;
    }
    long busy = ProcStat.readBusyTicks();
    return new Sample(System.nanoTime(), busy, bench);
  }

  /**
   * Other processes' CPU between {@code start} and {@code end} in percent of one core (100 = one core busy
   * all along), never below 0 (the two accountings round differently by a tick or two); NaN if unknown.
   */
  static double percent(Sample start, Sample end, long ticksPerSecond) {
    if (start.busyTicks() < 0 || end.busyTicks() < 0 || start.benchTicks() < 0 || end.benchTicks() < 0) {
      return Double.NaN;
    }
    double seconds = (end.nanos() - start.nanos()) / 1e9;
    if (seconds <= 0) {
      return Double.NaN;
    }
    long otherTicks = (end.busyTicks() - start.busyTicks()) - (end.benchTicks() - start.benchTicks());
    return Math.max(0, otherTicks) / (double) ticksPerSecond / seconds * 100;
  }
}
