package io.boltgen.runtime.internal;

import io.boltgen.runtime.ServerContext;

/** The call a handler thread is serving, behind {@link ServerContext#current()}. */
final class CurrentCall {

  private static final ThreadLocal<InboundCall> CURRENT = new ThreadLocal<>();

  private CurrentCall() {}

  /** The current call's context. */
  static ServerContext get() {
    InboundCall call = CURRENT.get();
    if (call == null) {
      throw new IllegalStateException("ServerContext.current() called outside a boltgen service handler");
    }
    return call;
  }

  static void set(InboundCall call) {
    CURRENT.set(call);
  }

  static void clear() {
    CURRENT.remove();
  }
}
