package io.boltgen.runtime.internal;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a call's outcome reaches the code its caller gave (a callback, a started call's listener): on the
 * executor named for it, or on the completing thread when that executor refuses, and whatever that code
 * throws is one log line, never lost and never thrown into the thread that runs it. Stateless.
 */
final class Callbacks {

  private static final Logger log = LoggerFactory.getLogger(Callbacks.class);
  private static final RateLimitedLog failures = RateLimitedLog.of(log);
  private static final RateLimitedLog refusals = RateLimitedLog.of(log);

  private Callbacks() {}

  /** Runs {@code task}, the {@code kind} of {@code method}'s call, on {@code executor}, or here if it refuses. */
  static void execute(Executor executor, Runnable task, String kind, MethodDescriptor<?, ?> method) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      refusals.warn("callback executor refused the {} of {} ({}); running it on {}", kind, method.toString(), e,
          Thread.currentThread().getName());
      task.run();
    }
  }

  /** What the {@code kind} of {@code method}'s call threw: one rate-limited line. */
  static void threw(String kind, MethodDescriptor<?, ?> method, Throwable e) {
    failures.warn("{} of {} threw {}", kind, method.toString(), MessageText.shorten(e.toString()));
  }

  /** The failure a {@link CompletionException} wraps, else {@code error} itself. */
  static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
  }
}
