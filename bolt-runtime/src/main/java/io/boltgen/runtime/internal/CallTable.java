package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The calls of one connection that wait for their response, by request id. Once {@link #closeAll} ran,
 * every call registered before or after fails at once: none waits for its timeout on a dead connection.
 *
 * <p>Thread-safe.
 */
final class CallTable {

  private final ConcurrentHashMap<Integer, PendingCall<?>> calls = new ConcurrentHashMap<>();
  private volatile Supplier<BoltException> closedError;

  /**
   * Registers {@code call} under {@code requestId}; returns false (and fails the call) when the table is
   * already closed.
   */
  boolean register(int requestId, PendingCall<?> call) {
    calls.put(requestId, call);
    Supplier<BoltException> closed = closedError;
    if (closed != null) {
      // closeAll may have swept the map before our put: fail the call here (completion happens once)
      if (calls.remove(requestId, call)) {
        call.fail(closed.get());
      }
      return false;
    }
    return true;
  }

  /** Takes the call waiting for {@code requestId}, or returns {@code null} (late or unknown response). */
  PendingCall<?> take(int requestId) {
    return calls.remove(requestId);
  }

  /** Forgets {@code call} (it completed some other way). */
  void forget(int requestId, PendingCall<?> call) {
    calls.remove(requestId, call);
  }

  /** The number of calls waiting. */
  int size() {
    return calls.size();
  }

  /** A snapshot of the calls waiting. */
  List<PendingCall<?>> snapshot() {
    return new ArrayList<>(calls.values());
  }

  /** Fails every waiting call, now and later, with the error {@code error} makes. Idempotent. */
  void closeAll(Supplier<BoltException> error) {
    if (closedError == null) {
      closedError = error;
    }
    for (Integer id : calls.keySet()) {
      PendingCall<?> call = calls.remove(id);
      if (call != null) {
        call.fail(error.get());
      }
    }
  }
}
