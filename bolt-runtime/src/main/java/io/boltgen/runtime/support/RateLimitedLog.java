package io.boltgen.runtime.support;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * The log lines of one cause (a bad frame, etcd unreachable, a garbled registry entry…), at most a number of
 * lines per period ({@value #DEFAULT_LINES} a minute unless told otherwise). Lines beyond the limit are counted,
 * not written; the first line written after them says how many were left out, so a flood of one failure (an
 * attack, a broken peer) costs a bounded number of lines while nothing goes unnoticed.
 *
 * <p>Where the causes are not known in advance (one per registry node, one per watched service), a
 * {@link PerKey} keeps one such log per key.
 *
 * <p>Thread-safe; the lock is held only to count, never while logging.
 */
@Internal
public final class RateLimitedLog {

  /** Lines per period unless told otherwise. */
  public static final int DEFAULT_LINES = 10;

  /** The period unless told otherwise: a minute. */
  public static final long DEFAULT_PERIOD_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Logger log;
  private final int lines;
  private final ReentrantLock lock = new ReentrantLock();
  private final long periodNanos;
  private final LongSupplier nanoClock;
  @GuardedBy("lock")
  private long periodStart;
  @GuardedBy("lock")
  private int used;
  @GuardedBy("lock")
  private long suppressed;
  @GuardedBy("lock")
  private boolean started;

  /**
   * At most {@code lines} lines per {@code periodNanos} of {@code nanoClock} go to {@code log}.
   *
   * @throws IllegalArgumentException if {@code lines} or {@code periodNanos} is not positive
   */
  public RateLimitedLog(Logger log, int lines, long periodNanos, LongSupplier nanoClock) {
    checkLimits(lines, periodNanos);
    this.log = log;
    this.lines = lines;
    this.periodNanos = periodNanos;
    this.nanoClock = nanoClock;
  }

  /** {@value #DEFAULT_LINES} lines a minute on the system clock. */
  public static RateLimitedLog of(Logger log) {
    return of(log, DEFAULT_LINES);
  }

  /** {@code linesPerMinute} lines a minute on the system clock. */
  public static RateLimitedLog of(Logger log, int linesPerMinute) {
    return new RateLimitedLog(log, linesPerMinute, DEFAULT_PERIOD_NANOS, System::nanoTime);
  }

  /**
   * One log per key, each of {@code linesPerKey} lines per {@code periodNanos} on the system clock. At most
   * {@value PerKey#MAX_KEYS} keys are remembered: past that they are all forgotten, so that a key may log
   * early once rather than memory grow without bound.
   */
  public static PerKey perKey(Logger log, int linesPerKey, long periodNanos) {
    return new PerKey(log, linesPerKey, periodNanos, System::nanoTime);
  }

  /** Writes a WARN line unless this cause used up its lines for the period. */
  public void warn(String format, Object... args) {
    if (log.isWarnEnabled()) {
      long skipped = acquire();
      if (skipped >= 0) {
        log.warn(withSuppressed(format, skipped), args);
      }
    }
  }

  /** Writes an INFO line unless this cause used up its lines for the period. */
  public void info(String format, Object... args) {
    if (log.isInfoEnabled()) {
      long skipped = acquire();
      if (skipped >= 0) {
        log.info(withSuppressed(format, skipped), args);
      }
    }
  }

  /** Lines left out so far in this period and not yet reported (for tests and metrics). */
  public long suppressed() {
    lock.lock();
    try {
      return suppressed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes one line of the period: returns how many lines were left out since the last line written (to
   * report with this one), or -1 when this line must be left out too.
   */
  private long acquire() {
    long now = nanoClock.getAsLong();
    lock.lock();
    try {
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
    } finally {
      lock.unlock();
    }
  }

  private static void checkLimits(int lines, long periodNanos) {
    if (lines <= 0 || periodNanos <= 0) {
      throw new IllegalArgumentException("lines and period must be positive: " + lines + ", " + periodNanos);
    }
  }

  private static String withSuppressed(String format, long skipped) {
    return skipped == 0 ? format
        : format + " (" + skipped + " more line(s) of this kind were left out before this one)";
  }

  /** A {@link RateLimitedLog} per key (a node's path, a watched service): each key is a cause of its own. */
  public static final class PerKey {

    /** The most keys remembered at once. */
    public static final int MAX_KEYS = 1024;

    private final Supplier<RateLimitedLog> newLog;
    private final Map<String, RateLimitedLog> logs = new ConcurrentHashMap<>();

    /** See {@link RateLimitedLog#perKey}; {@code nanoClock} is the clock of every key's period. */
    public PerKey(Logger log, int linesPerKey, long periodNanos, LongSupplier nanoClock) {
      checkLimits(linesPerKey, periodNanos);
      this.newLog = () -> new RateLimitedLog(log, linesPerKey, periodNanos, nanoClock);
    }

    /** Writes a WARN line unless {@code key} used up its lines for the period. */
    public void warn(String key, String format, Object... args) {
      of(key).warn(format, args);
    }

    /** Writes an INFO line unless {@code key} used up its lines for the period. */
    public void info(String key, String format, Object... args) {
      of(key).info(format, args);
    }

    private RateLimitedLog of(String key) {
      RateLimitedLog known = logs.get(key);
      if (known != null) {
        return known;
      }
      if (logs.size() >= MAX_KEYS) {
        logs.clear(); // a bound on memory; at worst some keys log early once
      }
      return logs.computeIfAbsent(key, k -> newLog.get());
    }
  }
}
