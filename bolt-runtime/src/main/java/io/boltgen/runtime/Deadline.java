package io.boltgen.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The instant by which a call must be answered: an absolute point on a monotonic clock (by default
 * {@link System#nanoTime()}), never on the wall clock, so that it cannot jump. Every call has one deadline,
 * made from whichever timeout applies (the call's {@link CallOptions}, the method's or service's annotation,
 * Bolt's timeout field, {@code Connect-Timeout-Ms}); the calls a handler makes inherit what is left of its own
 * ({@link ServerContext#deadline()}) unless theirs is shorter. A <em>timeout</em> is only the duration a user
 * sets; the deadline is the budget it makes.
 *
 * <p>Immutable and thread-safe. Two deadlines compare by the instants they stand for.
 */
public final class Deadline implements Comparable<Deadline> {

  /** The longest a deadline may lie ahead: about 146 years, so that no sum on the clock overflows. */
  private static final long MAX_NANOS = Long.MAX_VALUE / 2;

  private static final Ticker SYSTEM = new Ticker() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }
  };

  private final Ticker ticker;
  private final long nanos;

  private Deadline(Ticker ticker, long nanos) {
    this.ticker = ticker;
    this.nanos = nanos;
  }

  /** The deadline {@code duration} from now, on the system's monotonic clock. */
  public static Deadline after(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    long n;
    try {
      n = duration.toNanos();
    } catch (ArithmeticException e) {
      n = duration.isNegative() ? -MAX_NANOS : MAX_NANOS;
    }
    return after(n, TimeUnit.NANOSECONDS, SYSTEM);
  }

  /** The deadline {@code duration} {@code unit}s from now, on the system's monotonic clock. */
  public static Deadline after(long duration, TimeUnit unit) {
    return after(duration, unit, SYSTEM);
  }

  /** The deadline {@code duration} {@code unit}s from now on {@code ticker}'s clock (a test's virtual one, say). */
  public static Deadline after(long duration, TimeUnit unit, Ticker ticker) {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(ticker, "ticker");
    long offset = Math.max(-MAX_NANOS, Math.min(MAX_NANOS, unit.toNanos(duration)));
    return new Deadline(ticker, ticker.nanoTime() + offset);
  }

  /** The system's monotonic clock, {@link System#nanoTime()}, which deadlines are measured on unless told. */
  public static Ticker systemTicker() {
    return SYSTEM;
  }

  /** Whether the deadline has passed. */
  public boolean isExpired() {
    return nanos - ticker.nanoTime() <= 0;
  }

  /** The time left before the deadline, in {@code unit}s, rounded down; zero or less once it has passed. */
  public long timeRemaining(TimeUnit unit) {
    return unit.convert(nanos - ticker.nanoTime(), TimeUnit.NANOSECONDS);
  }

  /** Whether this deadline comes before {@code other}. */
  public boolean isBefore(Deadline other) {
    return compareTo(other) < 0;
  }

  /** The earlier of this deadline and {@code other}. */
  public Deadline minimum(Deadline other) {
    return isBefore(other) ? this : other;
  }

  /** This deadline moved by {@code offset} {@code unit}s (earlier when negative). */
  public Deadline offset(long offset, TimeUnit unit) {
    long by = Math.max(-MAX_NANOS, Math.min(MAX_NANOS, unit.toNanos(offset)));
    return new Deadline(ticker, nanos + by);
  }

  /** The clock the deadline is measured on. */
  public Ticker ticker() {
    return ticker;
  }

  @Override
  public int compareTo(Deadline other) {
    long difference = other.ticker == ticker ? nanos - other.nanos
        : timeRemaining(TimeUnit.NANOSECONDS) - other.timeRemaining(TimeUnit.NANOSECONDS);
    return Long.signum(difference);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Deadline other && other.ticker == ticker && other.nanos == nanos;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(nanos) * 31 + System.identityHashCode(ticker);
  }

  /** For example {@code Deadline{2.500 s from now}} or {@code Deadline{12 ms ago}}. */
  @Override
  public String toString() {
    long left = nanos - ticker.nanoTime();
    long micros = Math.abs(left) / 1_000;
    String amount = micros >= 1_000_000 ? String.format("%d.%03d s", micros / 1_000_000, micros / 1_000 % 1_000)
        : micros >= 1_000 ? micros / 1_000 + " ms" : micros + " µs";
    return "Deadline{" + amount + (left >= 0 ? " from now}" : " ago}");
  }

  /**
   * A monotonic clock in nanoseconds: {@link #systemTicker()} outside tests. Its readings only mean something
   * relative to each other.
   */
  public abstract static class Ticker {

    /** Now, in nanoseconds from an arbitrary origin. */
    public abstract long nanoTime();
  }
}
