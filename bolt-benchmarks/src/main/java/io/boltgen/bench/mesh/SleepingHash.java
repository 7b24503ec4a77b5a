package io.boltgen.bench.mesh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A provider's {@link HashService}: sleeps {@code delayMillis} on the calling thread (a thread of the provider's pool
 * is held for the whole call, as in the contest), then answers {@code text.hashCode()}. It counts the calls it
 * answered and the calls running at once: the most since {@link #takeMostAtOnce()} was last asked, and ever.
 */
final class SleepingHash implements HashService {

  private final long delayMillis;
  private final AtomicLong answered = new AtomicLong();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger mostSinceAsked = new AtomicInteger();
  private final AtomicInteger mostEver = new AtomicInteger();

  SleepingHash(long delayMillis) {
    this.delayMillis = delayMillis;
  }

  @Override
  public int hash(String text) {
    int now = running.incrementAndGet();
    mostSinceAsked.accumulateAndGet(now, Math::max);
    mostEver.accumulateAndGet(now, Math::max);
    try {
      TimeUnit.MILLISECONDS.sleep(delayMillis); // the provider's work: the contest's fixed 50 ms
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      running.decrementAndGet();
    }
    answered.incrementAndGet();
    return text.hashCode();
  }

  /** Calls answered so far. */
  long answered() {
    return answered.get();
  }

  /** Calls running now. */
  int running() {
    return running.get();
  }

  /** The most calls that ran at once since the previous time this was asked (or since start), then starts over. */
  int takeMostAtOnce() {
    return mostSinceAsked.getAndSet(running.get());
  }

  /** The most calls that ever ran at once. */
  int mostEver() {
    return mostEver.get();
  }
}
