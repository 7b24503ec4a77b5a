package io.boltgen.registry.etcd;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The log lines of one cause (etcd unreachable, a garbled value, a failing listener…): at most
 * {@value #LINES} a minute. Lines beyond that are counted; the next line written says how many were left
 * out, so a flood costs a bounded number of lines and nothing goes unnoticed. Thread-safe.
 */
final class RateLimitedLog {

  /** Lines per minute per cause. */
  static final int LINES = 5;

  private static final long PERIOD_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Logger log;
  private final LongSupplier nanoClock;
  // guarded by this
  private long periodStart;
  private int used;
  private long suppressed;
  private boolean started;

  RateLimitedLog(Logger log) {
    this(log, System::nanoTime);
  }

  RateLimitedLog(Logger log, LongSupplier nanoClock) {
    this.log = log;
    this.nanoClock = nanoClock;
  }

  /** A WARN line, unless this cause used up its lines for the minute. */
  void warn(String format, Object... args) {
    if (log.isWarnEnabled()) {
      long skipped = acquire();
      if (skipped >= 0) {
        log.warn(withSuppressed(format, skipped), args);
      }
    }
  }

  /** An INFO line, unless this cause used up its lines for the minute. */
  void info(String format, Object... args) {
    if (log.isInfoEnabled()) {
      long skipped = acquire();
      if (skipped >= 0) {
        log.info(withSuppressed(format, skipped), args);
      }
    }
  }

  /** How many lines were left out since the last one written, or -1 if this one must be left out too. */
  private long acquire() {
    long now = nanoClock.getAsLong();
    synchronized (this) {
      if (!started || now - periodStart >= PERIOD_NANOS) {
        started = true;
        periodStart = now;
        used = 0;
      }
      if (used < LINES) {
        used++;
        long skipped = suppressed;
        suppressed = 0;
        return skipped;
      }
      suppressed++;
      return -1;
    }
  }

  private static String withSuppressed(String format, long skipped) {
    return skipped == 0 ? format : format + " (" + skipped + " more such line(s) left out before this one)";
  }
}
