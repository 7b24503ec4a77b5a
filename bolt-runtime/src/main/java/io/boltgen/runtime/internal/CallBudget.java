package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.Deadline;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.call.ServerCalls;
import io.netty.util.concurrent.Ticker;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The time a call has from its start, which makes its deadline: its own (its options' timeout or deadline, the
 * earlier of the two when both are set, else its method's timeout), or less when the deadline of the served
 * call whose handler makes it on its own thread ends it sooner ({@link ServerCalls#inheritedNanos()}). And what
 * its timeout failure says. Made once per call, when the call is made; a cluster call's attempts share it.
 * Immutable.
 */
final class CallBudget {

  private final Ticker ticker;
  private final long startNanos;
  private final long budgetNanos;
  private final long timeoutMillis;
  private final boolean inherited; // what was left of the served call's ended it, not its own

  private CallBudget(Ticker ticker, long startNanos, long budgetNanos, long timeoutMillis, boolean inherited) {
    this.ticker = ticker;
    this.startNanos = startNanos;
    this.budgetNanos = budgetNanos;
    this.timeoutMillis = timeoutMillis;
    this.inherited = inherited;
  }

  /** The budget of a call of {@code method} with {@code options} that starts now on {@code ticker}. */
  static CallBudget of(MethodDescriptor<?, ?> method, CallOptions options, Ticker ticker) {
    long start = ticker.nanoTime();
    long timeoutMillis = options.timeoutMillis() > 0 ? options.timeoutMillis() : method.timeoutMillis();
    long own = ownNanos(options, timeoutMillis);
    long inherited = ServerCalls.inheritedNanos(); // the served call's, when its handler makes this call
    return new CallBudget(ticker, start, Math.max(0, Math.min(own, inherited)), timeoutMillis, inherited < own);
  }

  /** The nanoseconds a call has of its own: {@code options}' timeout or deadline, else {@code methodMillis}. */
  private static long ownNanos(CallOptions options, long methodMillis) {
    Deadline set = options.deadline();
    long timeout = TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis() > 0 ? options.timeoutMillis() : methodMillis);
    if (set == null) {
      return timeout;
    }
    long left = set.timeRemaining(TimeUnit.NANOSECONDS);
    return options.timeoutMillis() > 0 ? Math.min(timeout, left) : left;
  }

  /** The deadline on the ticker. */
  long deadlineNanos() {
    return startNanos + budgetNanos;
  }

  /** Nanoseconds left before the deadline (zero or negative once it has passed). */
  long nanosLeft() {
    return budgetNanos - (ticker.nanoTime() - startNanos);
  }

  /** Milliseconds left before the deadline, at least 1 while time remains, 0 once it has passed. */
  int remainingMillis() {
    long left = nanosLeft();
    return left <= 0 ? 0 : (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
  }

  /** Whether the deadline had passed before the call started: it fails at once, sending nothing. */
  boolean expiredAtStart() {
    return budgetNanos == 0;
  }

  /**
   * The {@link ResponseStatus#TIMEOUT} of a call to {@code method} with this budget: where it was ({@code
   * remote} is {@code null} before it was sent), and whose deadline ended it: the one it inherited, the one of
   * its {@code options}, or its timeout.
   */
  BoltException timedOut(String method, CallOptions options, SocketAddress remote, int requestId, boolean written) {
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
