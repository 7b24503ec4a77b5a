package io.boltgen.runtime.call;

import io.boltgen.runtime.ServerContext;

/**
 * The call a handler thread is serving, behind {@link ServerContext#current()}, and the deadline the calls it
 * makes inherit ({@link ServerCalls#inheritedNanos()}).
 */
final class CurrentCall {

  private static final ThreadLocal<ServedContext> CURRENT = new ThreadLocal<>();

  private CurrentCall() {}

  /** The current call's context. */
  static ServerContext get() {
    ServerContext call = CURRENT.get();
    if (call == null) {
      throw new IllegalStateException("ServerContext.current() called outside a boltgen service handler");
    }
    return call;
  }

  /** The current call's context, or {@code null} on a thread that serves none. */
  static ServedContext peek() {
    return CURRENT.get();
  }

  static void set(ServedContext call) {
    CURRENT.set(call);
  }

  static void clear() {
    CURRENT.remove();
  }
}
