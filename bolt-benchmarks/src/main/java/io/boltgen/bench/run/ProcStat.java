package io.boltgen.bench.run;

import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;

/**
 * What the kernel and the JVM account: busy clock ticks of the whole machine ({@code /proc/stat}), CPU ticks of one
 * process ({@code /proc/<pid>/stat}), established TCP connections on a local port ({@code /proc/net/tcp},
 * {@code tcp6}), and the heap this JVM allocated. From these, the CPU other processes than the benchmark's JVMs
 * used in a window ({@link #otherPercent}). The parsers take the files' text, so they are tested on fixed samples;
 * the readers return -1 where there is no {@code /proc} (not Linux).
 */
public final class ProcStat {

  /** Above this share of one core taken by other processes, the machine counts as busy at the start. */
  public static final double BUSY_PERCENT = 25;

  /**
   * What the kernel said at one instant.
   *
   * @param nanos {@link System#nanoTime()} when taken
   * @param busyTicks the machine's busy ticks, or -1 if unknown
   * @param benchTicks the benchmark JVMs' CPU ticks summed, or -1 if any was unknown
   */
  public record Sample(long nanos, long busyTicks, long benchTicks) {}

  /** Clock ticks per second when {@code getconf CLK_TCK} cannot be asked: the value on every common Linux. */
  static final long DEFAULT_CLOCK_TICKS = 100;

  private static volatile long clockTicks;

  private ProcStat() {}

  /**
   * The busy ticks of all CPUs since boot in the text of {@code /proc/stat}: user + nice + system + irq +
   * softirq + steal of its aggregate {@code cpu} line (idle and iowait are not busy; guest time is already
   * part of user). -1 if there is no such line.
   */
  static long busyTicks(String procStat) {
    for (String line : procStat.split("\n")) {
      if (line.startsWith("cpu ")) {
        String[] f = line.trim().split("\\s+");
        // cpu user nice system idle iowait irq softirq steal [guest guest_nice]
        long busy = 0;
        int[] busyFields = {1, 2, 3, 6, 7, 8};
        for (int i : busyFields) {
          if (i < f.length) {
            busy += Long.parseLong(f[i]);
          }
        }
        return busy;
      }
    }
    return -1;
  }

  /**
   * utime + stime, in clock ticks, from the text of {@code /proc/<pid>/stat}. The command name (field 2) is in
   * brackets and may hold spaces and brackets itself, so fields are counted from the last {@code ')'}.
   */
  static long processTicks(String pidStat) {
    int close = pidStat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + pidStat);
    }
    String[] f = pidStat.substring(close + 1).trim().split("\\s+");
    // f[0] is field 3 (state): utime is field 14, stime field 15
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /**
   * utime + stime + cutime + cstime, in clock ticks, from the text of {@code /proc/<pid>/stat}: the process's CPU and
   * that of its children it has waited for (a child that ended and was reaped, such as a wrk run).
   */
  static long processAndChildrenTicks(String pidStat) {
    int close = pidStat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + pidStat);
    }
    String[] f = pidStat.substring(close + 1).trim().split("\\s+");
    // utime, stime, cutime, cstime: fields 14 to 17
    return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
  }

  /**
   * cutime + cstime, in clock ticks, from the text of {@code /proc/<pid>/stat}: the CPU of the process's children it
   * has waited for.
   */
  static long childrenTicks(String pidStat) {
    int close = pidStat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + pidStat);
    }
    String[] f = pidStat.substring(close + 1).trim().split("\\s+");
    return Long.parseLong(f[13]) + Long.parseLong(f[14]);
  }

  /**
   * How many rows of a {@code /proc/net/tcp} (or {@code tcp6}) table are established connections ({@code st}
   * 01) whose local port is {@code port}: on loopback, the server's ends of the connections to that port.
   */
  static int establishedOnPort(String tcpTable, int port) {
    int n = 0;
    String[] lines = tcpTable.split("\n");
    for (int i = 1; i < lines.length; i++) { // the first line is the header
      String[] f = lines[i].trim().split("\\s+");
      if (f.length < 4) {
        continue;
      }
      String local = f[1];
      int colon = local.lastIndexOf(':');
      if (colon < 0) {
        continue;
      }
      if (Integer.parseInt(local.substring(colon + 1), 16) == port && f[3].equals("01")) {
        n++;
      }
    }
    return n;
  }

  /** The machine's busy ticks now ({@link #busyTicks(String)}), or -1. */
  public static long readBusyTicks() {
    String text = read(Path.of("/proc/stat"));
    return text == null ? -1 : busyTicks(text);
  }

  /** The CPU ticks process {@code pid} has used ({@link #processTicks(String)}), or -1 if it cannot be read. */
  public static long readProcessTicks(long pid) {
    String text = read(Path.of("/proc", Long.toString(pid), "stat"));
    try {
      return text == null ? -1 : processTicks(text);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** {@link #processAndChildrenTicks(String)} of process {@code pid} now, or -1 if it cannot be read. */
  public static long readProcessAndChildrenTicks(long pid) {
    String text = read(Path.of("/proc", Long.toString(pid), "stat"));
    try {
      return text == null ? -1 : processAndChildrenTicks(text);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** {@link #childrenTicks(String)} of process {@code pid} now, in one read, or -1 if it cannot be read. */
  public static long readChildrenTicks(long pid) {
    String text = read(Path.of("/proc", Long.toString(pid), "stat"));
    try {
      return text == null ? -1 : childrenTicks(text);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** Established connections to local port {@code port} now, IPv4 and IPv6 ({@link #establishedOnPort}), or -1. */
  static int readEstablished(int port) {
    String v4 = read(Path.of("/proc/net/tcp"));
    if (v4 == null) {
      return -1;
    }
    String v6 = read(Path.of("/proc/net/tcp6"));
    return establishedOnPort(v4, port) + (v6 == null ? 0 : establishedOnPort(v6, port));
  }

  /** Clock ticks per second ({@code getconf CLK_TCK}, asked once), or {@link #DEFAULT_CLOCK_TICKS}. */
  public static long clockTicksPerSecond() {
    long t = clockTicks;
    if (t == 0) {
      t = DEFAULT_CLOCK_TICKS;
      try {
        try (ReadyProcess p = ReadyProcess.launcher(List.of("getconf", "CLK_TCK")).run()) {
          String out = p.nextLine(Duration.ofSeconds(10));
          if (p.finish(Duration.ofSeconds(10)) == 0 && out != null && out.strip().matches("[0-9]+")
              && Long.parseLong(out.strip()) > 0) {
            t = Long.parseLong(out.strip());
          }
        }
      } catch (IOException e) {
        // no getconf: the usual value
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      clockTicks = t;
    }
    return t;
  }

  /**
   * A sample now, the benchmark's processes being this JVM with the children it has reaped (a wrk run that ended)
   * and {@code others}.
   */
  public static Sample take(long... others) {
    long bench = readProcessAndChildrenTicks(ProcessHandle.current().pid());
    for (long pid : others) {
      long t = readProcessTicks(pid);
      bench = t < 0 || bench < 0 ? -1 : bench + t;
    }
    return new Sample(System.nanoTime(), readBusyTicks(), bench);
  }

  /** The CPUs online ({@code cpuN} lines of {@code /proc/stat}), or those available to the JVM where it cannot be read. */
  public static int onlineCpus() {
    String text = read(Path.of("/proc/stat"));
    long n = text == null ? 0 : text.lines().filter(l -> l.matches("cpu[0-9]+ .*")).count();
    return n > 0 ? (int) n : Runtime.getRuntime().availableProcessors();
  }

  /**
   * Other processes' CPU between {@code start} and {@code end} in percent of one core (100 = one core busy all
   * along): the machine's busy time minus the benchmark JVMs', never below 0 (the two accountings round differently
   * by a tick or two); NaN if unknown.
   */
  public static double otherPercent(Sample start, Sample end, long ticksPerSecond) {
    double seconds = (end.nanos() - start.nanos()) / 1e9;
    if (start.busyTicks() < 0 || end.busyTicks() < 0 || start.benchTicks() < 0 || end.benchTicks() < 0 || seconds <= 0) {
      return Double.NaN;
    }
    long other = (end.busyTicks() - start.busyTicks()) - (end.benchTicks() - start.benchTicks());
    return Math.max(0, other) / (double) ticksPerSecond / seconds * 100;
  }

  /**
   * Other processes' CPU over {@code sample} (this JVM excluded), in percent of one core; NaN where /proc cannot be
   * read. The 1-minute load average is no such measure: it still holds whatever ran in the minute before.
   */
  public static double otherCpuPercent(Duration sample) throws InterruptedException {
    Sample start = take();
    Thread.sleep(sample.toMillis()); // a measurement of the machine's idle time: nothing to wait for but time
    return otherPercent(start, take(), clockTicksPerSecond());
  }

  /** The CPU time (user + system, all threads) of process {@code pid} in nanoseconds, or -1 if unknown. */
  public static long cpuNanos(long pid) {
    return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos).orElse(-1L);
  }

  /**
   * Heap bytes this JVM's live threads have allocated so far ({@code ThreadMXBean#getThreadAllocatedBytes} summed:
   * JDK 17 has no per-JVM total, and a thread that ends takes its bytes with it), or -1 if the JVM cannot tell.
   */
  static long allocatedBytes() {
    if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean mx)
        || !mx.isThreadAllocatedMemorySupported() || !mx.isThreadAllocatedMemoryEnabled()) {
      return -1;
    }
    long sum = 0;
    for (long bytes : mx.getThreadAllocatedBytes(mx.getAllThreadIds())) {
      sum += Math.max(0, bytes);
    }
    return sum;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
