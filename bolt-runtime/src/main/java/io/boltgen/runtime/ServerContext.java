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

  /**
   * The call's deadline: the caller's timeout from the request's arrival on this server's clock; {@code null}
   * when the caller set none (a oneway call). The calls a handler makes on its own thread inherit it unless their
   * own is shorter; to pass it on to calls made elsewhere, give it to them
   * ({@link CallOptions#withDeadline}).
   */
  Deadline deadline();

  /**
   * Whether the call was cancelled: its caller went away before it was answered. Over HTTP/2 its stream was
   * reset; over HTTP/1.1 and Bolt its connection closed. A cancelled call's answer is not written; the call
   * is counted in {@link BoltServer#cancelledCalls()}, and interceptors' listeners are told
   * {@link ResponseStatus#CONNECTION_CLOSED} with a {@link java.util.concurrent.CancellationException}, never
   * a timeout. A call still queued when it is cancelled is dropped without running its handler; a handler
   * doing long work can check this (or listen, {@link #onCancel}) and stop.
   */
  boolean isCancelled();

  /**
   * Runs {@code listener} once if the call is cancelled (see {@link #isCancelled()}), on the IO thread that
   * notices, so it must be quick and must not block; at once, on this thread, if the call is cancelled
   * already. It is not run for a call answered first. A listener that throws is logged; the others still run.
   */
  void onCancel(Runnable listener);
}
