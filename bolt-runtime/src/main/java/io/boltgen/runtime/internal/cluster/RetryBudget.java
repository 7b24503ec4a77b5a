package io.boltgen.runtime.internal.cluster;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many calls a cluster may send again: a bucket of tokens, full at first, that every retry empties by
 * one and every call started refills by {@code refillPerCall} (so, in the long run, retries add at most that
 * share of calls to the load, and a burst of failures can retry at most {@code capacity} calls at once).
 * A broken cluster therefore sees little more traffic than a healthy one.
 *
 * <p>Thread-safe and lock-free; a full bucket (the usual case) costs a call one volatile read.
 */
final class RetryBudget {

  private static final long SCALE = 1000; // tokens are counted in thousandths

  private final long capacity;
  private final long refill;
  private final AtomicLong tokens;

  RetryBudget(int capacity, double refillPerCall) {
    this.capacity = capacity * SCALE;
    this.refill = Math.round(refillPerCall * SCALE);
    this.tokens = new AtomicLong(this.capacity);
  }

  /** A call started. */
  void onCall() {
    long now = tokens.get();
    while (now < capacity && !tokens.compareAndSet(now, Math.min(capacity, now + refill))) {
      now = tokens.get();
    }
  }

  /** Takes a token for one retry; false if none is left. */
  boolean tryRetry() {
    long now = tokens.get();
    while (now >= SCALE) {
      if (tokens.compareAndSet(now, now - SCALE)) {
        return true;
      }
      now = tokens.get();
    }
    return false;
  }
}
