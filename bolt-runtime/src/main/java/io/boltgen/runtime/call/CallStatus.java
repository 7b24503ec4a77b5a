package io.boltgen.runtime.call;

import io.boltgen.runtime.ResponseStatus;
import java.util.Map;
import java.util.Objects;

/**
 * How a call ended, as the one call path tells its transport: what {@link ServerStream#close} writes (or
 * does not) in the transport's own terms, a Bolt status and error frame, a Connect error, an HTTP status. It
 * says what happened ({@link #kind()}), with the Bolt status every protocol's codes map from, a message, the
 * exception behind it and the trailers that go with it.
 *
 * <p>Immutable.
 */
public final class CallStatus {

  /** What kind of end a call came to. */
  public enum Kind {
    /** Answered: the messages written before the close are the answer. */
    OK,
    /** The handler failed: {@link #cause()} is its exception, which the caller is told of. */
    FAILED,
    /** The runtime refused the call: a request that does not decode, an interceptor's refusal, an answer that cannot be encoded. */
    REFUSED,
    /** The executor was full: the call never ran. */
    BUSY,
    /** The deadline passed first: a transport answers it if its caller still waits, or drops it. */
    DEADLINE_EXCEEDED,
    /** The caller went away first: nothing is written. */
    CANCELLED
  }

  /** The end of an answered call. */
  public static final CallStatus OK = new CallStatus(Kind.OK, ResponseStatus.SUCCESS, null, null, Map.of());

  private final Kind kind;
  private final ResponseStatus code;
  private final String message;
  private final Throwable cause;
  private final Map<String, String> trailers;

  private CallStatus(Kind kind, ResponseStatus code, String message, Throwable cause, Map<String, String> trailers) {
    this.kind = kind;
    this.code = code;
    this.message = message;
    this.cause = cause;
    this.trailers = trailers;
  }

  /** The handler failed with {@code cause}: {@link ResponseStatus#SERVER_EXCEPTION}, with its message. */
  public static CallStatus failed(Throwable cause) {
    Objects.requireNonNull(cause, "cause");
    return new CallStatus(Kind.FAILED, ResponseStatus.SERVER_EXCEPTION, cause.getMessage(), cause, Map.of());
  }

  /**
   * The runtime refused the call with {@code code} (not {@code SUCCESS}); {@code cause} is the exception behind
   * it, whose class a transport may name to the caller, or {@code null}.
   */
  public static CallStatus refused(ResponseStatus code, String message, Throwable cause) {
    if (code == ResponseStatus.SUCCESS) {
      throw new IllegalArgumentException("a refusal needs a failing status");
    }
    return new CallStatus(Kind.REFUSED, code, message, cause, Map.of());
  }

  /** The executor could not take the call: {@link ResponseStatus#SERVER_THREADPOOL_BUSY}. */
  public static CallStatus busy(String message) {
    return new CallStatus(Kind.BUSY, ResponseStatus.SERVER_THREADPOOL_BUSY, message, null, Map.of());
  }

  /** The deadline passed before the call was answered: {@link ResponseStatus#TIMEOUT}. */
  public static CallStatus deadlineExceeded(String message) {
    return new CallStatus(Kind.DEADLINE_EXCEEDED, ResponseStatus.TIMEOUT, message, null, Map.of());
  }

  /** The caller went away before the answer: {@link ResponseStatus#CONNECTION_CLOSED}. */
  public static CallStatus cancelled(String message) {
    return new CallStatus(Kind.CANCELLED, ResponseStatus.CONNECTION_CLOSED, message, null, Map.of());
  }

  /** This status with {@code trailers}, the metadata that goes with it (copied, in their order). */
  public CallStatus withTrailers(Map<String, String> trailers) {
    return new CallStatus(kind, code, message, cause, Map.copyOf(trailers));
  }

  /** What kind of end the call came to. */
  public Kind kind() {
    return kind;
  }

  /** Whether the call was answered. */
  public boolean isOk() {
    return kind == Kind.OK;
  }

  /** The Bolt status every protocol's own code maps from. */
  public ResponseStatus code() {
    return code;
  }

  /** What went wrong, for the caller; {@code null} when answered (or when the exception had no message). */
  public String message() {
    return message;
  }

  /** The exception behind the status (the handler's, an interceptor's refusal, a codec's), or {@code null}. */
  public Throwable cause() {
    return cause;
  }

  /** The trailers that go with the status; empty unless set. */
  public Map<String, String> trailers() {
    return trailers;
  }

  @Override
  public String toString() {
    return "CallStatus{" + kind + ", " + code + (message != null ? ", " + message : "")
        + (cause != null ? ", " + cause.getClass().getName() : "") + (trailers.isEmpty() ? "" : ", " + trailers) + '}';
  }
}
