package io.boltgen.runtime.call;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.PeerNotAuthorizedException;
import io.boltgen.runtime.ResponseStatus;
import java.util.Locale;

/**
 * The status codes of the RPC protocols that speak them (gRPC by number, Connect by name; the two share one
 * list), and the one table by which a served call's end becomes one: every such protocol fails a call the same
 * way, and as a Bolt caller is failed. A handler's declared exception is {@link #FAILED_PRECONDITION} (an
 * answer, not a bug), any other exception {@link #INTERNAL}, a refused peer {@link #PERMISSION_DENIED}, a passed
 * deadline {@link #DEADLINE_EXCEEDED}, and a Bolt status its row of {@link #of(ResponseStatus)}.
 */
public enum StatusCode {
  OK(0),
  CANCELLED(1),
  UNKNOWN(2),
  INVALID_ARGUMENT(3),
  DEADLINE_EXCEEDED(4),
  NOT_FOUND(5),
  ALREADY_EXISTS(6),
  PERMISSION_DENIED(7),
  RESOURCE_EXHAUSTED(8),
  FAILED_PRECONDITION(9),
  ABORTED(10),
  OUT_OF_RANGE(11),
  UNIMPLEMENTED(12),
  INTERNAL(13),
  UNAVAILABLE(14),
  DATA_LOSS(15),
  UNAUTHENTICATED(16);

  private final int number;
  private final String connectName;

  StatusCode(int number) {
    this.number = number;
    // Connect spells CANCELLED with one L
    this.connectName = number == 1 ? "canceled" : name().toLowerCase(Locale.ROOT);
  }

  /** The code's number, as gRPC's {@code grpc-status} carries it. */
  public int number() {
    return number;
  }

  /** The code's name in Connect's error body ({@code "invalid_argument"}, {@code "canceled"}). */
  public String connectName() {
    return connectName;
  }

  /** The code of a Bolt status that is not {@code SUCCESS}. */
  public static StatusCode of(ResponseStatus status) {
    return switch (status) {
      case SUCCESS -> OK;
      case SERVER_DESERIAL_EXCEPTION, CODEC_EXCEPTION -> INVALID_ARGUMENT;
      case TIMEOUT -> DEADLINE_EXCEEDED;
      case NO_PROCESSOR -> UNIMPLEMENTED;
      case SERVER_THREADPOOL_BUSY, CONNECTION_CLOSED, CLIENT_SEND_ERROR, ERROR_COMM -> UNAVAILABLE;
      case SERVER_SERIAL_EXCEPTION, SERVER_EXCEPTION, ERROR -> INTERNAL;
      default -> UNKNOWN;
    };
  }

  /** The code a served call's end is told to its caller with. */
  public static StatusCode of(CallStatus status) {
    Throwable cause = status.cause();
    return switch (status.kind()) {
      case OK -> OK;
      case CANCELLED -> CANCELLED;
      case DEADLINE_EXCEEDED -> DEADLINE_EXCEEDED;
      case FAILED -> {
        if (cause instanceof BoltException bolt) {
          yield bolt instanceof PeerNotAuthorizedException ? PERMISSION_DENIED : of(bolt.status());
        }
        yield isDeclared(status) ? FAILED_PRECONDITION : INTERNAL;
      }
      default -> cause instanceof PeerNotAuthorizedException ? PERMISSION_DENIED : of(status.code());
    };
  }

  /**
   * Whether the call failed with an exception its handler declares (checked, not a {@link BoltException}): an
   * answer the caller may map back to that exception, whose class a protocol names in the error's details.
   */
  public static boolean isDeclared(CallStatus status) {
    Throwable cause = status.cause();
    return status.kind() == CallStatus.Kind.FAILED && cause != null && !(cause instanceof BoltException)
        && !(cause instanceof RuntimeException) && !(cause instanceof Error);
  }
}
