package io.boltgen.runtime.internal;

import java.net.SocketAddress;

/** Where a {@link CallChannel} sends calls: one connection, or a pool of them. */
public interface CallTarget {

  /**
   * Sends {@code call}, now or once a connection is up, or completes it with the reason it cannot be sent.
   * Never blocks.
   */
  void send(PendingCall<?> call);

  /** The peer calls go to. */
  SocketAddress remoteAddress();
}
