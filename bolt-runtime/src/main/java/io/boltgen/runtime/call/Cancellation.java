package io.boltgen.runtime.call;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a served call was cancelled (its caller went away: its HTTP/2 stream was reset, its connection
 * closed), and the listeners its handler registered through {@link io.boltgen.runtime.ServerContext#onCancel}.
 * Cancelled once; each listener runs once, on the thread that cancels (an IO thread) or, registered after
 * the cancellation, at once on the registering thread. A listener that throws is logged (one rate-limited
 * line) and the others still run.
 *
 * <p>Thread-safe.
 */
final class Cancellation {

  private static final Logger log = LoggerFactory.getLogger(Cancellation.class);
  private static final RateLimitedLog listenerFailures = RateLimitedLog.of(log);

  private final ReentrantLock lock = new ReentrantLock();
  private volatile boolean cancelled;
  @GuardedBy("lock")
  private List<Runnable> listeners;

  /** Whether {@link #cancel} was called. */
  boolean isCancelled() {
    return cancelled;
  }

  /** Runs {@code listener} when the call is cancelled: at once if it is already. */
  void listen(Runnable listener) {
    lock.lock();
    try {
      if (!cancelled) {
        if (listeners == null) {
          listeners = new ArrayList<>(2);
        }
        listeners.add(listener);
        return;
      }
    } finally {
      lock.unlock();
    }
    run(listener);
  }

  /** Cancels, running the listeners; true the first time only. */
  boolean cancel() {
    List<Runnable> toRun;
    lock.lock();
    try {
      if (cancelled) {
        return false;
      }
      cancelled = true;
      toRun = listeners;
      listeners = null;
    } finally {
      lock.unlock();
    }
    if (toRun != null) {
      for (Runnable listener : toRun) {
        run(listener);
      }
    }
    return true;
  }

  private static void run(Runnable listener) {
    try {
      listener.run();
    } catch (Throwable e) {
      listenerFailures.warn("a cancellation listener failed: {}", MessageText.shorten(e.toString()));
      log.debug("stack trace of the failure above", e);
      if (e instanceof VirtualMachineError vmError && !(e instanceof StackOverflowError)) {
        throw vmError;
      }
    }
  }
}
