package io.boltgen.runtime.call;

import io.boltgen.runtime.ServerContext;

/** The call a handler thread is serving, behind {@link ServerContext#current()}. */
final class CurrentCall {

  private static final ThreadLocal<ServerContext> CURRENT = new ThreadLocal<>();

  private CurrentCall() {}

  /** The current call's context. */
  static ServerContext get() {
    ServerContext call = CURRENT.get();
    if (call == null) {
      throw new IllegalStateException("ServerContext.current() called outside a boltgen service handler");
    }
    return call;
  }

  static void set(ServerContext call) {
    CURRENT.set(call);
  }

  static void clear() {
    CURRENT.remove();
  }
}
