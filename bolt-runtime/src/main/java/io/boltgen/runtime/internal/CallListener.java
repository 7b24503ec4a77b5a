package io.boltgen.runtime.internal;

/**
 * Told once when a {@link PendingCall} completes, on the thread that completed it.
 *
 * @param <R> the response type
 */
public interface CallListener<R> {
  void onComplete(R value, Throwable error);
}
