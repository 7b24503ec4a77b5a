package io.boltgen.runtime.internal;

/**
 * Told once when a cluster's attempt of a call ({@link PendingCall#newAttempt}) has left its instance: with its
 * outcome, or, abandoned after its request was written, once its late answer arrives ({@code answered}) or its
 * connection closes (until then it may run).
 */
@FunctionalInterface
public interface Departure {
  void left(boolean answered);
}
