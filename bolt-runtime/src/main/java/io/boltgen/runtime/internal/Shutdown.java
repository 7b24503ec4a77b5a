package io.boltgen.runtime.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/** The graceful end of an executor a client or server owns. *
 * <p>Stateless.
 */
public final class Shutdown {

  private Shutdown() {}

  /**
   * Lets {@code executor} finish what it runs and has queued, waiting up to {@code timeoutMillis}, then
   * interrupts whatever still runs.
   */
  public static void executor(ExecutorService executor, long timeoutMillis, Logger log, String what) {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS)) {
        log.warn("{} still running after {} ms; interrupting them", what, timeoutMillis);
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
