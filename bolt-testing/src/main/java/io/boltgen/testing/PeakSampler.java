package io.boltgen.testing;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The peak of a value (bytes held, a pool's memory) sampled every 2 ms on a thread of its own while a test
 * runs: a measurement, never a wait. {@code closer.track(PeakSampler.start(...))}, then {@link #peak()}.
 */
public final class PeakSampler implements AutoCloseable {

  private final AtomicLong peak;
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "peak-sampler");
    t.setDaemon(true);
    return t;
  });

  private PeakSampler(LongSupplier value) {
    this.peak = new AtomicLong(value.getAsLong());
    @SuppressWarnings("unused") // sampling a value cannot fail; close() stops it
    var unused = sampler.scheduleAtFixedRate(() -> peak.accumulateAndGet(value.getAsLong(), Math::max), 0, 2,
        TimeUnit.MILLISECONDS);
  }

  /** Starts sampling {@code value}. */
  public static PeakSampler start(LongSupplier value) {
    return new PeakSampler(value);
  }

  /** The largest value sampled so far. */
  public long peak() {
    return peak.get();
  }

  @Override
  public void close() {
    sampler.shutdownNow();
  }
}
