package io.boltgen.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the benchmark ran on, read from /proc and the JVM. */
public final class MachineInfo {

  private MachineInfo() {}

  /** Label → value, in report order. */
  public static Map<String, String> read() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("CPU", cpuModel());
    m.put("cores", Runtime.getRuntime().availableProcessors() + " available to the JVM (" + onlineCpus() + " online)");
    m.put("memory", memory());
    m.put("kernel", System.getProperty("os.name") + " "
        + firstLine("/proc/sys/kernel/osrelease", System.getProperty("os.version")));
    m.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
        + System.getProperty("java.vendor") + ")");
    m.put("load average at start", loadAverage());
    return m;
  }

  /** The 1, 5 and 15 minute load averages now. */
  public static String loadAverage() {
    String line = firstLine("/proc/loadavg", "");
    String[] parts = line.split(" ");
    return parts.length >= 3 ? parts[0] + " " + parts[1] + " " + parts[2] : "unknown";
  }

  /** The 1-minute load average now, or 0 if unknown. */
  public static double loadAverage1() {
    try {
      return Double.parseDouble(firstLine("/proc/loadavg", "0").split(" ")[0]);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }

  private static String onlineCpus() {
    return firstLine("/sys/devices/system/cpu/online", "?");
  }

  private static String memory() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux
    }
    return "unknown";
  }

  private static String firstLine(String file, String fallback) {
    try {
      List<String> lines = Files.readAllLines(Path.of(file));
      return lines.isEmpty() ? fallback : lines.get(0).trim();
    } catch (IOException e) {
      return fallback;
    }
  }
}
