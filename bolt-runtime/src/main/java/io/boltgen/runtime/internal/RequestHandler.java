package io.boltgen.runtime.internal;

import io.boltgen.runtime.internal.wire.BoltFrame;
import java.util.List;

/** Takes the request frames (not heartbeats) a connection receives: the server-dispatch layer. */
public interface RequestHandler {

  /**
   * Handles {@code frames}, the requests and oneway requests that one read of {@code connection} brought,
   * in arrival order. Called on the connection's IO thread; takes ownership of every frame (releases each
   * on every path), never throws, and does not keep the list itself.
   */
  void onRequests(BoltConnection connection, List<BoltFrame> frames);
}
