package io.boltgen.bench.report;

import java.time.Duration;
import java.util.Locale;

/** Number formatting shared by the console table and the Markdown report. */
public final class Fmt {

  private Fmt() {}

  /** Calls per second: {@code 812}, {@code 53.1k}, {@code 1.52M}. */
  public static String rate(double perSecond) {
    if (perSecond >= 1_000_000) {
      return String.format(Locale.ROOT, "%.2fM", perSecond / 1_000_000);
    }
    if (perSecond >= 1_000) {
      return String.format(Locale.ROOT, "%.1fk", perSecond / 1_000);
    }
    return String.format(Locale.ROOT, "%.0f", perSecond);
  }

  /** Microseconds, with a unit: {@code 85 µs}, {@code 1.23 ms}. */
  public static String micros(double us) {
    if (us >= 10_000) {
      return String.format(Locale.ROOT, "%.1f ms", us / 1_000);
    }
    if (us >= 1_000) {
      return String.format(Locale.ROOT, "%.2f ms", us / 1_000);
    }
    if (us >= 100) {
      return String.format(Locale.ROOT, "%.0f µs", us);
    }
    return String.format(Locale.ROOT, "%.1f µs", us);
  }

  /** A plain number with {@code digits} decimals. */
  public static String num(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  /** A percentage with one decimal, {@code 3.2%}; {@code n/a} for NaN. */
  public static String percent(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "n/a";
    }
    return String.format(Locale.ROOT, "%.1f%%", v);
  }

  /** Bytes, with a unit: {@code 312 B}, {@code 4.1 KiB}, {@code 2.3 MiB}; {@code n/a} for NaN. */
  public static String bytes(double b) {
    if (Double.isNaN(b)) {
      return "n/a";
    }
    if (b >= 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f MiB", b / 1024 / 1024);
    }
    if (b >= 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", b / 1024);
    }
    return String.format(Locale.ROOT, "%.0f B", b);
  }

  /** A ratio: {@code 1.83×}. */
  public static String ratio(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "n/a";
    }
    return String.format(Locale.ROOT, "%.2f×", v);
  }

  /** A duration as {@code 1h 02m}, {@code 12m 30s} or {@code 45s}. */
  public static String duration(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s >= 3600) {
      return String.format(Locale.ROOT, "%dh %02dm", s / 3600, s % 3600 / 60);
    }
    if (s >= 60) {
      return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
    }
    return s + "s";
  }

  /** Seconds of a duration, without trailing zeros: {@code 10}, {@code 0.5}. */
  public static String seconds(Duration d) {
    double s = d.toMillis() / 1000.0;
    return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
  }
}
