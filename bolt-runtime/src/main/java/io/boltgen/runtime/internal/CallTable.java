package io.boltgen.runtime.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.netty.util.concurrent.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls of one connection that wait for their response, by request id, and their deadlines.
 *
 * <p>Request ids of a connection are consecutive, so a call goes into a ring of {@value #RING} slots at
 * {@code id mod RING}: registering and taking it are one compare-and-set on its slot, with no hashing, no
 * boxing and no node per call (4 KiB per connection with compressed references). A call whose slot is still
 * held by a call {@value #RING} ids older (more than {@value #RING} in flight, or one very slow answer)
 * waits in an overflow map instead; a counter striped by thread keeps the number waiting for
 * {@link #size()}, which balancing reads on every pick.
 *
 * <p>Once
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

  /** Slots of the ring; a power of two. */
  static final int RING = 1024;

  private final AtomicReferenceArray<PendingCall<?>> ring = new AtomicReferenceArray<>(RING);
  private final ConcurrentHashMap<Integer, PendingCall<?>> overflow = new ConcurrentHashMap<>();
  private final LongAdder waiting = new LongAdder();
  private final Timer timer;
  private final Ticker ticker;
  private final BoltStreams streams;
  private final Sweep sweep = new Sweep();
  private volatile Supplier<BoltException> closedError;
  private final ReentrantLock armLock = new ReentrantLock(); // arms and disarms the sweep
  // the deadline (ticker nanos) the sweep is armed for, NOT_ARMED when it is not; changed under armLock
  private volatile long armedFor = NOT_ARMED;
  @GuardedBy("armLock")
  private Timeout armed;

  /**
   * A table whose deadlines are measured on {@code ticker} and swept on {@code timer}, whose streaming calls are
   * cancelled on the server through {@code streams} when they end before the server ended them.
   */
  CallTable(Timer timer, Ticker ticker, BoltStreams streams) {
    this.timer = timer;
    this.ticker = ticker;
    this.streams = streams;
  }

  /**
   * Registers {@code call} under {@code requestId}; returns false (and fails the call) when the table is
   * already closed.
   */
  boolean register(int requestId, PendingCall<?> call) {
    waiting.increment();
    if (!ring.compareAndSet(requestId & (RING - 1), null, call)) {
      overflow.put(requestId, call);
    }
    Supplier<BoltException> closed = closedError;
    if (closed != null) {
      // closeAll may have swept the table before we put the call: fail it here (completion happens once)
      if (remove(requestId, call)) {
        call.fail(closed.get());
      }
      return false;
    }
    return true;
  }

  /** Removes {@code call} if it still waits under {@code requestId}; true if this removed it. */
  private boolean remove(int requestId, PendingCall<?> call) {
    // a call that completed with its answer was taken already: its slot no longer holds it (a plain read
    // spares the locked compare-and-set that would fail), and the overflow map is almost always empty
    int slot = requestId & (RING - 1);
    if ((ring.get(slot) == call && ring.compareAndSet(slot, call, null))
        || (!overflow.isEmpty() && overflow.remove(requestId, call))) {
      waiting.decrement();
      return true;
    }
    return false;
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
    armLock.lock();
    try {
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
    } finally {
      armLock.unlock();
    }
  }

  /** Times out the calls whose deadline passed, then arms the sweep for the earliest deadline left. */
  private final class Sweep implements TimerTask {
    @Override
    public void run(Timeout timeout) {
      armLock.lock();
      try {
        if (armed != timeout) {
          return; // replaced by an earlier deadline
        }
        armed = null;
        armedFor = NOT_ARMED; // from here on, a new call arms for itself: it is not missed by this scan
      } finally {
        armLock.unlock();
      }
      long earliest = NOT_ARMED;
      try {
        long now = ticker.nanoTime();
        for (PendingCall<?> call : snapshot()) {
          if (!call.hasSweptDeadline() || call.isDone()) {
            continue;
          }
          long deadline = call.budget().deadlineNanos();
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
    int slot = requestId & (RING - 1);
    PendingCall<?> call = ring.get(slot);
    if (call != null && call.requestId() == requestId && ring.compareAndSet(slot, call, null)) {
      waiting.decrement();
      return call;
    }
    if (overflow.isEmpty()) {
      return null;
    }
    call = overflow.remove(requestId);
    if (call != null) {
      waiting.decrement();
    }
    return call;
  }

  /**
   * Forgets {@code call} (it completed some other way); a streaming call that still waited here was not ended by
   * its server, which is told to cancel it.
   */
  void forget(int requestId, PendingCall<?> call) {
    if (remove(requestId, call) && call.streams()) {
      streams.cancel(requestId);
    }
  }

  /** The number of calls waiting. */
  int size() {
    return (int) Math.max(0, waiting.sum());
  }

  /** A snapshot of the calls waiting. */
  List<PendingCall<?>> snapshot() {
    List<PendingCall<?>> all = new ArrayList<>(size() + 4);
    for (int i = 0; i < RING; i++) {
      PendingCall<?> call = ring.get(i);
      if (call != null) {
        all.add(call);
      }
    }
    all.addAll(overflow.values());
    return all;
  }

  /** Fails every waiting call, now and later, with the error {@code error} makes, and disarms the sweep. Idempotent. */
  void closeAll(Supplier<BoltException> error) {
    if (closedError == null) {
      closedError = error;
    }
    armLock.lock();
    try {
      if (armed != null) {
        armed.cancel();
        armed = null;
      }
      armedFor = NOT_ARMED;
    } finally {
      armLock.unlock();
    }
    for (PendingCall<?> call : snapshot()) {
      if (remove(call.requestId(), call)) {
        call.fail(error.get());
      }
    }
  }
}
