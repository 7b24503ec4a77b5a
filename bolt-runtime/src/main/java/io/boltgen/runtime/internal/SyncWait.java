package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How a sync caller waits for its call: parked on the call's own future until it completes or its deadline
 * passes, with no timer entry and no lock held (a virtual thread that waits here unmounts from its carrier).
 * Stateless.
 */
final class SyncWait {

  private SyncWait() {}

  /**
   * Blocks until {@code call} completes or its deadline passes.
   *
   * @throws BoltException or the declared exception its method's error mapper made of one, thrown as itself
   */
  static <R> R await(PendingCall<R> call) {
    try {
      long left = call.budget().nanosLeft();
      if (left > 0) {
        return call.get(left, TimeUnit.NANOSECONDS);
      }
    } catch (TimeoutException e) {
      // fall through: time out the call unless a response raced us
    } catch (InterruptedException e) {
      call.fail(new BoltException(ResponseStatus.ERROR, "interrupted while waiting for " + call.method().toString(),
          null, null, call.remoteAddress(), call.requestId(), e));
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    }
    call.timeoutNow();
    try {
      return call.getNow(null);
    } catch (CompletionException e) {
      throw rethrow(e.getCause());
    }
  }

  /**
   * The failure of a sync call, thrown as itself: a {@code BoltException}, or the declared exception its
   * method's error mapper made of one. A checked one is thrown although {@link #await} does not declare it:
   * the stub's method does, and it is the exception the caller catches.
   */
  private static RuntimeException rethrow(Throwable cause) {
    return SyncWait.<RuntimeException>sneaky(cause);
  }

  // the cast is erased: any Throwable leaves as itself; T is inferred at the call to let a checked one through
  @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"})
  private static <T extends Throwable> T sneaky(Throwable cause) throws T {
    throw (T) cause;
  }
}
