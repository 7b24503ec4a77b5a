package io.boltgen.runtime.transport;

import io.boltgen.runtime.protocol.BoltFrame;

/** Takes the request frames (not heartbeats) a connection receives: the server-dispatch layer. */
public interface RequestHandler {

  /**
   * Handles {@code frame}, a request or oneway request that arrived on {@code connection}. Called on the
   * connection's IO thread; takes ownership of the frame (releases it on every path) and never throws.
   */
  void onRequest(BoltConnection connection, BoltFrame frame);
}
