package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls of one connection that wait for their response, by request id, and their deadlines. Once
 * {@link #closeAll} ran, every call registered before or after fails at once: none waits for its timeout
 * on a dead connection.
 *
 * <p>Deadlines: a call that times out on the endpoint's timer (one started with a future or a callback)
 * gets no timer entry of its own once it waits here. One <em>sweep</em> per table is armed on the timer at
 * the earliest deadline it knows of; when it fires it times out every call whose deadline passed and arms
 * itself again at the earliest deadline left. Calls with the same timeout arrive in deadline order, so
 * registering one costs a read of the armed deadline and a comparison: the sweep is only re-armed when a
 * call's deadline is earlier than the armed one (the first call, or one with a shorter timeout). The timer
 * ticks every 10 ms, as the per-call entries it replaces did; a sweep scans the table once per deadline it
 * fires for, not per call.
 *
 * <p>Thread-safe.
 */
final class CallTable {

  private static final Logger log = LoggerFactory.getLogger(CallTable.class);
  private static final RateLimitedLog sweepFailures = RateLimitedLog.of(log);

  private static final long NOT_ARMED = Long.MAX_VALUE;

  private final ConcurrentHashMap<Integer, PendingCall<?>> calls = new ConcurrentHashMap<>();
  private final Timer timer;
  private final Ticker ticker;
  private final Sweep sweep = new Sweep();
  private volatile Supplier<BoltException> closedError;
  // the deadline (ticker nanos) the sweep is armed for, NOT_ARMED when it is not; changed under `sweep`
  private volatile long armedFor = NOT_ARMED;
  private Timeout armed; // guarded by `sweep`

  /** A table whose deadlines are measured on {@code ticker} and swept on {@code timer}. */
  CallTable(Timer timer, Ticker ticker) {
    this.timer = timer;
    this.ticker = ticker;
  }

  /**
   * Registers {@code call} under {@code requestId}; returns false (and fails the call) when the table is
   * already closed.
   */
  boolean register(int requestId, PendingCall<?> call) {
    calls.put(requestId, call);
    Supplier<BoltException> closed = closedError;
    if (closed != null) {
      // closeAll may have swept the map before our put: fail the call here (completion happens once)
      if (calls.remove(requestId, call)) {
        call.fail(closed.get());
      }
      return false;
    }
    return true;
  }

  /**
   * Makes the sweep time out {@code call} (registered here) at {@code deadlineNanos} on the ticker, unless
   * it completes first.
   */
  void watchDeadline(long deadlineNanos) {
    if (deadlineNanos < armedFor) {
      arm(deadlineNanos);
    }
  }

  private void arm(long deadlineNanos) {
    synchronized (sweep) {
      if (deadlineNanos >= armedFor || closedError != null) {
        return;
      }
      if (armed != null) {
        armed.cancel();
      }
      long delay = Math.max(0, deadlineNanos - ticker.nanoTime());
      try {
        armed = timer.newTimeout(sweep, delay, TimeUnit.NANOSECONDS);
        armedFor = deadlineNanos;
      } catch (RejectedExecutionException | IllegalStateException e) {
        // the timer is stopping: the process is shutting down, and closeAll fails what still waits
        armed = null;
        armedFor = NOT_ARMED;
      }
    }
  }

  /** Times out the calls whose deadline passed, then arms the sweep for the earliest deadline left. */
  private final class Sweep implements TimerTask {
    @Override
    public void run(Timeout timeout) {
      synchronized (this) {
        if (armed != timeout) {
          return; // replaced by an earlier deadline
        }
        armed = null;
        armedFor = NOT_ARMED; // from here on, a new call arms for itself: it is not missed by this scan
      }
      long earliest = NOT_ARMED;
      try {
        long now = ticker.nanoTime();
        for (PendingCall<?> call : calls.values()) {
          if (!call.hasSweptDeadline() || call.isDone()) {
            continue;
          }
          long deadline = call.deadlineNanos();
          if (deadline - now <= 0) {
            call.timeoutNow();
          } else if (deadline < earliest) {
            earliest = deadline;
          }
        }
      } catch (Throwable e) {
        // a bug or a failing listener: keep the deadlines of the other calls alive
        sweepFailures.warn("timing out calls failed unexpectedly: {}", e.toString(), e);
        earliest = Math.min(earliest, ticker.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10));
      }
      if (earliest != NOT_ARMED) {
        arm(earliest);
      }
    }
  }

  /** Takes the call waiting for {@code requestId}, or returns {@code null} (late or unknown response). */
  PendingCall<?> take(int requestId) {
    return calls.remove(requestId);
  }

  /** Forgets {@code call} (it completed some other way). */
  void forget(int requestId, PendingCall<?> call) {
    calls.remove(requestId, call);
  }

  /** The number of calls waiting. */
  int size() {
    return calls.size();
  }

  /** A snapshot of the calls waiting. */
  List<PendingCall<?>> snapshot() {
    return new ArrayList<>(calls.values());
  }

  /** Fails every waiting call, now and later, with the error {@code error} makes, and disarms the sweep. Idempotent. */
  void closeAll(Supplier<BoltException> error) {
    if (closedError == null) {
      closedError = error;
    }
    synchronized (sweep) {
      if (armed != null) {
        armed.cancel();
        armed = null;
      }
      armedFor = NOT_ARMED;
    }
    for (Integer id : calls.keySet()) {
      PendingCall<?> call = calls.remove(id);
      if (call != null) {
        call.fail(error.get());
      }
    }
  }
}
