package io.boltgen.bench.load;

import java.time.Duration;

/**
 * Whether the machine is quiet before a benchmark starts: the CPU every process but this one used over a
 * short sample, in percent of one core. The 1-minute load average is no such measure: it still holds
 * whatever ran in the minute before (a build that just finished, say) and counts threads waiting for I/O.
 */
public final class IdleCheck {

  /** Above this share of one core, the machine counts as busy at the start. */
  public static final double BUSY_PERCENT = 25;

  private IdleCheck() {}

  /**
   * Other processes' CPU over {@code sample} (this JVM excluded), in percent of one core; NaN where /proc
   * cannot be read.
   */
  public static double otherCpuPercent(Duration sample) throws InterruptedException {
    long self = ProcessHandle.current().pid();
    OtherCpu.Sample start = OtherCpu.take(self);
    Thread.sleep(sample.toMillis()); // a measurement of the machine's idle time: nothing to wait for but time
    OtherCpu.Sample end = OtherCpu.take(self);
    return OtherCpu.percent(start, end, ProcStat.clockTicksPerSecond());
  }
}
