package io.boltgen.runtime.internal;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Timer} on virtual time, with the clock it keeps: {@link #advance} moves the clock and runs, on the
 * calling thread, every task whose time came. For tests of time-driven behaviour in milliseconds of wall time
 * (public for the tests of the call package too).
 */
public final class FakeTimer implements Timer {

  private final List<Entry> entries = new ArrayList<>();
  private volatile long nanos = 1_000_000_000L;

  /** The virtual clock, in nanoseconds. */
  public long nanoTime() {
    return nanos;
  }

  /** The virtual clock as a Netty {@link Ticker}, for an {@code EmbeddedChannel} and the runtime's deadlines. */
  public Ticker ticker() {
    return new Ticker() {
      @Override
      public long initialNanoTime() {
        return 0;
      }

      @Override
      public long nanoTime() {
        return nanos;
      }

      @Override
      public void sleep(long delay, TimeUnit unit) {
        advance(delay, unit);
      }
    };
  }

  /** Tasks waiting. */
  public synchronized int pending() {
    int n = 0;
    for (Entry e : entries) {
      if (!e.cancelled) {
        n++;
      }
    }
    return n;
  }

  /** Moves the clock by {@code amount} and runs the tasks that became due, in order. */
  public void advance(long amount, TimeUnit unit) {
    long target = nanos + unit.toNanos(amount);
    for (;;) {
      Entry next = null;
      synchronized (this) {
        for (Entry e : entries) {
          if (!e.cancelled && e.deadline <= target && (next == null || e.deadline < next.deadline)) {
            next = e;
          }
        }
        if (next == null) {
          nanos = target;
          return;
        }
        entries.remove(next);
        nanos = Math.max(nanos, next.deadline);
        next.expired = true;
      }
      try {
        next.task.run(next);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
  }

  @Override
  public synchronized Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
    Entry entry = new Entry(task, nanos + unit.toNanos(delay));
    entries.add(entry);
    return entry;
  }

  @Override
  public synchronized Set<Timeout> stop() {
    Set<Timeout> left = new HashSet<>(entries);
    entries.clear();
    return left;
  }

  private final class Entry implements Timeout {
    final TimerTask task;
    final long deadline;
    volatile boolean cancelled;
    volatile boolean expired;

    Entry(TimerTask task, long deadline) {
      this.task = task;
      this.deadline = deadline;
    }

    @Override
    public Timer timer() {
      return FakeTimer.this;
    }

    @Override
    public TimerTask task() {
      return task;
    }

    @Override
    public boolean isExpired() {
      return expired;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean cancel() {
      synchronized (FakeTimer.this) {
        if (expired || cancelled) {
          return false;
        }
        cancelled = true;
        entries.remove(this);
        return true;
      }
    }
  }
}
