package io.boltgen.bench.load;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** How a closed-loop load ends: the calls still in flight are given a bounded time to complete. */
final class InFlight {

  private InFlight() {}

  /**
   * Waits up to 10 s for {@code inFlight} to reach 0 (the load already stopped issuing calls), then stops
   * {@code trampoline}, the thread that issued calls past a recursion depth.
   */
  static void drain(AtomicInteger inFlight, ExecutorService trampoline) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // polling a counter the callbacks decrement
    }
    trampoline.shutdownNow();
  }
}
