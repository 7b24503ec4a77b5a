package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Deadline;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.call.ServerCalls;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The time a call has from its start, which makes its deadline: its own timeout (its options', else its
 * method's), or less when a deadline ends it sooner: the deadline of the served call whose handler makes it on
 * its own thread ({@link ServerCalls#inheritedNanos()}), or one its options carry
 * ({@link CallOptions#withDeadline}). And what its timeout failure says.
 */
final class CallBudget {

  private CallBudget() {}

  /** The nanoseconds a call whose own timeout is {@code ownMillis} has: zero when its deadline already passed. */
  static long nanos(long ownMillis, CallOptions options) {
    long own = TimeUnit.MILLISECONDS.toNanos(ownMillis);
    long inherited = ServerCalls.inheritedNanos();
    Deadline set = options.deadline();
    if (set != null) {
      inherited = Math.min(inherited, set.timeRemaining(TimeUnit.NANOSECONDS));
    }
    return inherited < own ? Math.max(0, inherited) : own;
  }

  /**
   * The {@link ResponseStatus#TIMEOUT} of a call to {@code method} that had {@code budgetNanos} of its own
   * timeout of {@code ownMillis}: where it was ({@code remote} is {@code null} before it was sent), and whose
   * deadline ended it when that was not its own timeout.
   */
  static BoltException timedOut(String method, long budgetNanos, long ownMillis, CallOptions options,
      SocketAddress remote, int requestId, boolean written) {
    String origin = options.deadline() != null ? "the deadline of its options"
        : "what was left of the deadline of the call its handler serves";
    String where = remote == null ? " before it was sent"
        : written ? " (" + remote + ", request id " + requestId + ")"
        : " (" + remote + ", request id " + requestId + ") before it was written: it waited for the"
            + " connection, whose peer reads slower than calls arrive";
    boolean inherited = budgetNanos < TimeUnit.MILLISECONDS.toNanos(ownMillis);
    String message = budgetNanos == 0
        ? "call to " + method + " was not sent: its deadline had passed when it started (" + origin + ")"
        : "call to " + method + " timed out after " + (inherited ? TimeUnit.NANOSECONDS.toMillis(budgetNanos)
            + " ms (" + origin + ")" : ownMillis + " ms") + where;
    return new BoltException(ResponseStatus.TIMEOUT, message, null, null, remote, requestId, null);
  }
}
