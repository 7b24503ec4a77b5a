package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Deadline;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.call.ServerCalls;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The time a call has from its start, which makes its deadline: its own (its options' timeout or deadline, the
 * earlier of the two when both are set, else its method's timeout), or less when the deadline of the served
 * call whose handler makes it on its own thread ends it sooner ({@link ServerCalls#inheritedNanos()}). And what
 * its timeout failure says.
 */
final class CallBudget {

  private CallBudget() {}

  /** The nanoseconds a call has of its own: {@code options}' timeout or deadline, else {@code methodMillis}. */
  static long ownNanos(CallOptions options, long methodMillis) {
    Deadline set = options.deadline();
    long timeout = TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis() > 0 ? options.timeoutMillis() : methodMillis);
    if (set == null) {
      return timeout;
    }
    long left = set.timeRemaining(TimeUnit.NANOSECONDS);
    return options.timeoutMillis() > 0 ? Math.min(timeout, left) : left;
  }

  /**
   * The {@link ResponseStatus#TIMEOUT} of a call to {@code method} that had {@code budgetNanos}: where it was
   * ({@code remote} is {@code null} before it was sent), and whose deadline ended it: the one it inherited
   * ({@code inherited}), the one of its options, or its timeout of {@code timeoutMillis}.
   */
  static BoltException timedOut(String method, long budgetNanos, long timeoutMillis, boolean inherited,
      CallOptions options, SocketAddress remote, int requestId, boolean written) {
    String origin = inherited ? "what was left of the deadline of the call its handler serves"
        : options.deadline() != null ? "its deadline" : null;
    String where = remote == null ? " before it was sent"
        : written ? " (" + remote + ", request id " + requestId + ")"
        : " (" + remote + ", request id " + requestId + ") before it was written: it waited for the"
            + " connection, whose peer reads slower than calls arrive";
    String message = budgetNanos == 0
        ? "call to " + method + " was not sent: its deadline had passed when it started (" + origin + ")"
        : "call to " + method + " timed out after " + (origin != null ? TimeUnit.NANOSECONDS.toMillis(budgetNanos)
            + " ms (" + origin + ")" : timeoutMillis + " ms") + where;
    return new BoltException(ResponseStatus.TIMEOUT, message, null, null, remote, requestId, null);
  }
}
