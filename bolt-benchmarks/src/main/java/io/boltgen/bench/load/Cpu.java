package io.boltgen.bench.load;

import java.time.Duration;
import java.util.Optional;

/**
 * CPU time (user + system, all threads) of a process, as the kernel accounts it: on Linux
 * {@link ProcessHandle.Info#totalCpuDuration()} reads {@code /proc/<pid>/stat} (clock-tick resolution,
 * usually 10 ms: well below 0.1% of a measured window of a few seconds on two busy cores).
 */
public final class Cpu {

  private Cpu() {}

  /** The CPU time of process {@code pid} in nanoseconds, or -1 if it cannot be read. */
  public static long nanos(long pid) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty()) {
      return -1;
    }
    return handle.get().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }

  /** The CPU time of this process in nanoseconds, or -1 if it cannot be read. */
  public static long selfNanos() {
    return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }
}
