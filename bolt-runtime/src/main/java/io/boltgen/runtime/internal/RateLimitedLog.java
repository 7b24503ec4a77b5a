package io.boltgen.runtime.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The log lines of one cause (a bad frame, an unknown className, a timeout…), limited to
 * {@value #DEFAULT_LINES} per minute unless told otherwise. Lines beyond the limit are counted, not written;
 * the first line written after them says how many were left out, so a flood of one failure (an attack, a
 * broken peer) costs a bounded number of lines while nothing goes unnoticed.
 *
 * <p>Thread-safe; the lock is held only to count, never while logging.
 */
final class RateLimitedLog {

  /** Lines per period unless told otherwise. */
  static final int DEFAULT_LINES = 10;

  /** The period unless told otherwise. */
  static final long DEFAULT_PERIOD_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Logger log;
  private final int lines;
  private final long periodNanos;
  private final LongSupplier nanoClock;
  // guarded by this
  private long periodStart;
  private int used;
  private long suppressed;
  private boolean started;

  /** At most {@code lines} lines per {@code periodNanos} of {@code nanoClock} go to {@code log}. */
  RateLimitedLog(Logger log, int lines, long periodNanos, LongSupplier nanoClock) {
    if (lines <= 0 || periodNanos <= 0) {
      throw new IllegalArgumentException("lines and period must be positive: " + lines + ", " + periodNanos);
    }
    this.log = log;
    this.lines = lines;
    this.periodNanos = periodNanos;
    this.nanoClock = nanoClock;
  }

  /** The default limit ({@value #DEFAULT_LINES} lines a minute) on the system clock. */
  static RateLimitedLog of(Logger log) {
    return new RateLimitedLog(log, DEFAULT_LINES, DEFAULT_PERIOD_NANOS, System::nanoTime);
  }

  /** Writes a WARN line unless this cause used up its lines for the period. */
  void warn(String format, Object... args) {
    if (log.isWarnEnabled()) {
      long skipped = acquire();
      if (skipped >= 0) {
        log.warn(withSuppressed(format, skipped), args);
      }
    }
  }

  /** Writes an INFO line unless this cause used up its lines for the period. */
  void info(String format, Object... args) {
    if (log.isInfoEnabled()) {
      long skipped = acquire();
      if (skipped >= 0) {
        log.info(withSuppressed(format, skipped), args);
      }
    }
  }

  /** Lines left out so far in this period and not yet reported (for tests and metrics). */
  synchronized long suppressed() {
    return suppressed;
  }

  /**
   * Takes one line of the period: returns how many lines were left out since the last line written (to
   * report with this one), or -1 when this line must be left out too.
   */
  private long acquire() {
    long now = nanoClock.getAsLong();
    synchronized (this) {
      if (!started || now - periodStart >= periodNanos) {
        started = true;
        periodStart = now;
        used = 0;
      }
      if (used < lines) {
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
    return skipped == 0 ? format : format + " (" + skipped + " more line(s) of this kind were left out before this one)";
  }
}
