package io.boltgen.runtime.internal.cluster;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.internal.ConnectionPool;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.LoggerFactory;

/**
 * One instance of a cluster as a client sees it: what the resolver said of it, the pool of connections to
 * it, and its health. An instance whose connects or calls fail {@code failuresToEject} times in a row is
 * <em>ejected</em>: no call is sent to it for a backoff that doubles with every ejection in a row (from the
 * minimum up to the maximum). Once the backoff passes it takes calls again as a probe: its next success
 * clears its record, its next failure ejects it again at once, for twice as long.
 *
 * <p>It also counts the attempts on it, against the capacity its instance states
 * ({@link ServiceInstance#maxConcurrentCalls}), and tells whether it is <em>stalled</em>: owing an answer for
 * longer than the client's stall timeout.
 *
 * <p>Thread-safe; the counters are updated under the member's lock (failures are rare, successes only write
 * when there was something to clear).
 */
public final class ClusterMember {

  private static final RateLimitedLog ejections = RateLimitedLog.of(LoggerFactory.getLogger(ClusterMember.class));

  private volatile ServiceInstance instance;
  private volatile int capacity; // the instance's maxConcurrentCalls, 0 for none
  private final AtomicInteger inFlight = new AtomicInteger(); // attempts sent here and not yet done
  // when the member was first owed an answer since its last one (0: owes none); see isStalled
  private volatile long owedSinceNanos;
  private volatile long lastSentNanos = Long.MIN_VALUE / 2; // when an attempt last took a place
  private final ConnectionPool pool;
  private final Ejection rules;
  private final ReentrantLock lock = new ReentrantLock(); // counts failures and ejections
  private volatile int failuresInARow; // read without the lock by succeeded()
  @GuardedBy("lock")
  private int ejectionsInARow;
  private volatile long ejectedUntilNanos;
  private volatile boolean ejected;

  /** The ejection settings of a cluster. */
  public record Ejection(int failuresToEject, long minNanos, long maxNanos) {}

  ClusterMember(ServiceInstance instance, ConnectionPool pool, Ejection rules) {
    this.instance = instance;
    this.capacity = instance.maxConcurrentCalls();
    this.pool = pool;
    this.rules = rules;
  }

  ServiceInstance instance() {
    return instance;
  }

  /** The resolver said something new of this instance (its weight, say); health and connections stay. */
  void update(ServiceInstance newer) {
    instance = newer;
    capacity = newer.maxConcurrentCalls();
  }

  /**
   * Whether another attempt may go to this member at {@code nowNanos}: it is under its capacity, or, while
   * it is stalled, it has nothing in flight and was sent nothing for {@code stallNanos} (one probe per stall
   * timeout, which its answer ends).
   */
  boolean hasRoom(boolean stalled, long nowNanos, long stallNanos) {
    int now = inFlight.get();
    if (stalled) {
      return now == 0 && nowNanos - lastSentNanos >= stallNanos;
    }
    return capacity == 0 || now < capacity;
  }

  /**
   * Takes a place for one attempt if {@link #hasRoom} says there is one; every place taken is given back by
   * {@link #release} once the attempt is done.
   */
  boolean tryAcquire(boolean stalled, long nowNanos, long stallNanos) {
    int limit = stalled ? 1 : capacity;
    while (true) {
      int now = inFlight.get();
      if ((limit != 0 && now >= limit) || (stalled && nowNanos - lastSentNanos < stallNanos)) {
        return false;
      }
      if (inFlight.compareAndSet(now, now + 1)) {
        lastSentNanos = nowNanos;
        if (owedSinceNanos == 0) {
          owedSinceNanos = nowNanos == 0 ? 1 : nowNanos;
        }
        return true;
      }
    }
  }

  /** An attempt that took a place is done, answered or not. */
  void release() {
    inFlight.decrementAndGet();
  }

  /** Attempts sent here and not yet done. */
  int inFlight() {
    return inFlight.get();
  }

  /** The instance answered a call (any answer): it owes nothing older than the calls still in flight. */
  void answered(long nowNanos) {
    owedSinceNanos = inFlight.get() > 0 ? (nowNanos == 0 ? 1 : nowNanos) : 0;
  }

  /**
   * Whether the member owes an answer for longer than {@code stallNanos} (a frozen process, a stuck host):
   * calls it was sent went unanswered, even those given up on, since its last answer. 0 turns this off.
   */
  boolean isStalled(long nowNanos, long stallNanos) {
    long since = owedSinceNanos;
    return stallNanos > 0 && since != 0 && nowNanos - since > stallNanos;
  }

  ConnectionPool pool() {
    return pool;
  }

  /** Whether calls may go to this instance at {@code nowNanos}. */
  boolean isAvailable(long nowNanos) {
    return !ejected || nowNanos - ejectedUntilNanos >= 0;
  }

  /** Calls waiting for their answer from this instance. */
  int pendingCalls() {
    return pool.pendingCalls();
  }

  /** A call was answered (whatever the answer): the instance works. */
  void succeeded() {
    if (ejected || failuresInARow != 0) {
      lock.lock();
      try {
        failuresInARow = 0;
        ejectionsInARow = 0;
        ejected = false;
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * A connect or call failed for a reason of the instance or the network ({@code why}): counts towards
   * ejection. {@code service} names the cluster in the one log line an ejection leaves.
   */
  @SuppressWarnings("NonAtomicVolatileUpdate") // written under lock only; volatile for succeeded()'s look
  void failed(long nowNanos, String service, String why) {
    long backoff;
    lock.lock();
    try {
      boolean probing = ejectionsInARow > 0;
      failuresInARow++;
      if (!probing && failuresInARow < rules.failuresToEject()) {
        return;
      }
      if (ejected && nowNanos - ejectedUntilNanos < 0) {
        return; // already out: calls that were in flight when it was ejected
      }
      failuresInARow = 0;
      ejectionsInARow++;
      backoff = rules.minNanos() << Math.min(20, ejectionsInARow - 1);
      if (backoff <= 0 || backoff > rules.maxNanos()) {
        backoff = rules.maxNanos();
      }
      ejectedUntilNanos = nowNanos + backoff;
      ejected = true;
    } finally {
      lock.unlock();
    }
    ejections.warn("{} of {} ejected for {} ms: {}", instance.hostAndPort(), service,
        TimeUnit.NANOSECONDS.toMillis(backoff), why);
  }

  @Override
  public String toString() {
    return instance.hostAndPort() + (ejected ? " (ejected)" : "") + " " + inFlight.get() + "/"
        + (capacity == 0 ? "unlimited" : Integer.toString(capacity));
  }
}
