package io.boltgen.runtime.codec.protobuf;

/**
 * Malformed protobuf input: a truncated value, a bad length, an invalid tag or wire type, a nesting deeper
 * than the recursion limit, or a value out of range for its Java type. The runtime reports it as a codec
 * error of the call.
 */
public final class ProtoDecodeException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** A decode failure described by {@code message}. */
  public ProtoDecodeException(String message) {
    super(message);
  }

  /** A decode failure described by {@code message}, caused by {@code cause}. */
  public ProtoDecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
