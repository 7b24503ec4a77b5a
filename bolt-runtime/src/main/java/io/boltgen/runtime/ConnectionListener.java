package io.boltgen.runtime;

import java.net.SocketAddress;

/**
 * Observes connection events of a {@link BoltClient} or {@link BoltServer}. Events of one endpoint are
 * delivered one at a time, in order, on a thread of the runtime's (never an IO thread); a listener that
 * throws is logged and keeps receiving events.
 */
public interface ConnectionListener {

  /** A connection was established (accepted, on a server). */
  default void onConnect(Connection connection) {}

  /** A connection closed, for whatever reason; its pending calls have already failed. */
  default void onClose(Connection connection) {}

  /** A client could not connect to {@code address}. */
  default void onConnectFailed(SocketAddress address, Throwable cause) {}
}
