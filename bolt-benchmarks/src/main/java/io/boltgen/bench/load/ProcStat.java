package io.boltgen.bench.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel's CPU and socket accounting in {@code /proc}, parsed: busy clock ticks of the whole machine
 * ({@code /proc/stat}), CPU ticks of one process ({@code /proc/<pid>/stat}), and established TCP connections
 * on a local port ({@code /proc/net/tcp}, {@code tcp6}). The parsers take the files' text, so they are tested
 * on fixed samples; the readers return -1 where there is no {@code /proc} (not Linux).
 */
final class ProcStat {

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
  static long readBusyTicks() {
    String text = read(Path.of("/proc/stat"));
    return text == null ? -1 : busyTicks(text);
  }

  /** The CPU ticks process {@code pid} has used ({@link #processTicks(String)}), or -1 if it cannot be read. */
  static long readProcessTicks(long pid) {
    String text = read(Path.of("/proc", Long.toString(pid), "stat"));
    try {
      return text == null ? -1 : processTicks(text);
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
  static long clockTicksPerSecond() {
    long t = clockTicks;
    if (t == 0) {
      t = DEFAULT_CLOCK_TICKS;
      try {
        Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
        try (InputStream in = p.getInputStream()) {
          String out = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
          if (p.waitFor() == 0 && out.matches("[0-9]+") && Long.parseLong(out) > 0) {
            t = Long.parseLong(out);
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

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
