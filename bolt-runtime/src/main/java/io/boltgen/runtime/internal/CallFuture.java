package io.boltgen.runtime.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The future a future-style call hands to its caller: it completes when the call does, with its outcome.
 * Completing it by hand changes only this view, never the call; cancelling it abandons the call (it leaves
 * its connection's table and its timer at once, and a late answer is dropped).
 *
 * <p>Thread-safe, as every {@code CompletableFuture}; the call it abandons on cancel is set before the
 * future is handed out.
 *
 * @param <R> the response type
 */
final class CallFuture<R> extends CompletableFuture<R> implements CallListener<R> {

  private final Executor defaultExecutor;
  private PendingCall<R> call;

  CallFuture(Executor defaultExecutor) {
    this.defaultExecutor = defaultExecutor;
  }

  void attach(PendingCall<R> call) {
    this.call = call;
  }

  @Override
  public void onComplete(R value, Throwable error) {
    if (error == null) {
      complete(value);
    } else {
      completeExceptionally(error);
    }
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled && call != null) {
      call.cancel(false);
    }
    return cancelled;
  }

  /** Where {@code *Async} stages without an executor run: the client's callback executor. */
  @Override
  public Executor defaultExecutor() {
    return defaultExecutor;
  }
}
