package io.boltgen.runtime;

import java.net.SocketAddress;

/**
 * One TCP connection speaking Bolt, on either side. Obtained from {@link ConnectionListener} events,
 * {@link ServerContext#connection()} or {@link BoltServer#connections()}.
 *
 * <p>Thread-safe.
 */
public interface Connection {

  /** The peer's address. */
  SocketAddress remoteAddress();

  /** This side's address. */
  SocketAddress localAddress();

  /** Whether the connection is open. */
  boolean isActive();

  /**
   * Whether the connection takes calls without delay now: false while its write buffer is above its high
   * water mark or its write queue holds its budget of bytes. Calls made meanwhile wait in the queue (within
   * their own timeout); only a call that would take the queue past its budget fails, with
   * {@link ResponseStatus#CLIENT_SEND_ERROR}.
   */
  boolean isWritable();

  /** The number of calls sent on this connection that still wait for their response. */
  int pendingCalls();

  /**
   * Encoded bytes waiting to reach the socket: in this connection's write queue and in the channel's
   * buffer (a moment's reading, for gauges).
   */
  long queuedBytes();

  /**
   * A channel that sends calls over exactly this connection. On a server this is how a handler calls back
   * into the client that called it (duplex); the client answers through the services it registered with
   * {@link BoltClient.Builder#service}.
   */
  BoltChannel channel();

  /**
   * Who the peer proved to be in the TLS handshake: its verified certificate chain; {@code null} without TLS,
   * before the handshake completed, or when the peer sent no certificate (a server's clients send one only
   * when it asks: {@link Tls.ClientAuth}).
   */
  PeerIdentity peerIdentity();

  /** Closes the connection; calls still pending on it fail at once with {@link ResponseStatus#CONNECTION_CLOSED}. */
  void close();
}
