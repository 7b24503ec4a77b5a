package io.boltgen.runtime;

import java.net.SocketAddress;
import java.util.Objects;

/**
 * The one exception type of a failed call: a {@link ResponseStatus} saying what went wrong, and for errors
 * raised by the server the remote exception's class name and message.
 *
 * <p>Declared exceptions of a service method are rethrown as their own type by the generated stub; all
 * other failures reach the caller as this unchecked exception (sync calls), as the exceptional completion
 * of a future, or through {@code BoltCallback.onError}.
 *
 * <p>Immutable once thrown.
 */
public class BoltException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final ResponseStatus status;
  private final String remoteClassName;
  private final String remoteMessage;
  private final transient SocketAddress remoteAddress;
  private final int requestId;
  private final Throwable remoteException;

  /** A failure with no remote exception (timeouts, closed connections, busy servers…). */
  public BoltException(ResponseStatus status, String message) {
    this(status, message, null, null, null, 0, null);
  }

  /** A failure with no remote exception, caused by a local one. */
  public BoltException(ResponseStatus status, String message, Throwable cause) {
    this(status, message, null, null, null, 0, cause);
  }

  /**
   * The full form.
   *
   * @param status what went wrong
   * @param message the readable summary (becomes {@link #getMessage()})
   * @param remoteClassName the class name of the exception the server raised, or {@code null}
   * @param remoteMessage that exception's message, or {@code null}
   * @param remoteAddress the peer, or {@code null} when no connection was involved
   * @param requestId the Bolt request id, or 0 when the call never got one
   * @param cause a local cause, or {@code null}
   */
  public BoltException(
      ResponseStatus status,
      String message,
      String remoteClassName,
      String remoteMessage,
      SocketAddress remoteAddress,
      int requestId,
      Throwable cause) {
    this(status, message, remoteClassName, remoteMessage, remoteAddress, requestId, cause, null);
  }

  /**
   * The full form, with the remote exception itself when the protocol carries it whole.
   *
   * @param remoteException the exception the server raised, rebuilt on this side with its fields (SOFARPC's
   *     Hessian2 answers carry a declared exception's fields), or {@code null}
   * @see #BoltException(ResponseStatus, String, String, String, SocketAddress, int, Throwable)
   */
  public BoltException(
      ResponseStatus status,
      String message,
      String remoteClassName,
      String remoteMessage,
      SocketAddress remoteAddress,
      int requestId,
      Throwable cause,
      Throwable remoteException) {
    super(message, cause);
    this.status = Objects.requireNonNull(status, "status");
    this.remoteClassName = remoteClassName;
    this.remoteMessage = remoteMessage;
    this.remoteAddress = remoteAddress;
    this.requestId = requestId;
    this.remoteException = remoteException;
  }

  /** What went wrong. */
  public ResponseStatus status() {
    return status;
  }

  /** The binary class name of the exception the server raised, or {@code null}. */
  public String remoteClassName() {
    return remoteClassName;
  }

  /** The message of the exception the server raised, or {@code null}. */
  public String remoteMessage() {
    return remoteMessage;
  }

  /**
   * The exception the server raised, rebuilt with its fields, when the protocol carries it whole (a declared
   * exception in SOFARPC's Hessian2 dialect); else {@code null}. A generated stub throws it as the method's
   * declared exception.
   */
  public Throwable remoteException() {
    return remoteException;
  }

  /** The peer the call went to, or {@code null} when it never reached a connection. */
  public SocketAddress remoteAddress() {
    return remoteAddress;
  }

  /** The Bolt request id of the call, or 0 when it never got one. */
  public int requestId() {
    return requestId;
  }
}
