package io.boltgen.runtime;

import java.net.SocketAddress;
import java.util.Map;

/**
 * The server side's view of one call: who sent it, over which connection, with which headers, and how
 * much of the caller's timeout is left. {@link #current()} returns it inside a handler; it stays valid
 * (and usable from other threads) for the whole call, for example to call the client back over
 * {@code connection().channel()}.
 */
public interface ServerContext {

  /**
   * The context of the call the current thread is handling.
   *
   * @throws IllegalStateException outside a handler (or on another thread than the one it was called on)
   */
  static ServerContext current() {
    return Runtimes.PROVIDER.currentServerContext();
  }

  /** The connection the request arrived on. */
  Connection connection();

  /**
   * Who the caller proved to be in the TLS handshake (subject, subject alternative names, chain); {@code null}
   * without TLS or without a client certificate. The same as {@code connection().peerIdentity()}.
   */
  default PeerIdentity peerIdentity() {
    return connection().peerIdentity();
  }

  /** The caller's address. */
  SocketAddress remoteAddress();

  /** The method called. */
  MethodDescriptor<?, ?> method();

  /** The request id on the wire. */
  int requestId();

  /** The request's header entries (SOFARPC layout), read-only; empty when it had none. */
  Map<String, String> headers();

  /** Whether the caller expects no response. */
  boolean isOneway();

  /** The caller's timeout in milliseconds as sent in the frame; -1 for oneway calls. */
  int clientTimeoutMillis();

  /**
   * Milliseconds left of the caller's timeout, measured from the request's arrival on this server's
   * clock; 0 when it has passed (the caller no longer waits), {@code Long.MAX_VALUE} for oneway calls.
   */
  long remainingMillis();
}
