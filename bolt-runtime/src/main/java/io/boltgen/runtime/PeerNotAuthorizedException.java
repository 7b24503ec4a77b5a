package io.boltgen.runtime;

import java.net.SocketAddress;

/**
 * A server refused a call because its peer is not allowed to make it ({@link PeerAllowList}, or any
 * {@link ServerInterceptor} that throws this). On the wire it is a {@link ResponseStatus#SERVER_EXCEPTION}
 * answer naming this class, so a SOFABolt client reads an ordinary server exception with this class name
 * and the reason in its message, and a boltgen client throws this type again. Never retried.
 */
public final class PeerNotAuthorizedException extends BoltException {

  private static final long serialVersionUID = 1L;

  /** Thrown by a server-side check, with the reason the caller will read. */
  public PeerNotAuthorizedException(String message) {
    super(ResponseStatus.SERVER_EXCEPTION, message);
  }

  /** As a client reads it from an answer. */
  public PeerNotAuthorizedException(String message, String remoteMessage, SocketAddress remote, int requestId) {
    super(ResponseStatus.SERVER_EXCEPTION, message, PeerNotAuthorizedException.class.getName(), remoteMessage,
        remote, requestId, null);
  }
}
