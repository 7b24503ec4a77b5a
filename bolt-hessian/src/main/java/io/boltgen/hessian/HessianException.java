package io.boltgen.hessian;

/**
 * Malformed or over-limit Hessian: a truncated value, an unknown or unexpected tag, a length larger than the
 * bytes left, invalid UTF-8, a bad reference, a class other than the one expected, or a stream past one of
 * {@link HessianReader}'s limits. The only exception {@link HessianReader} throws; {@link HessianWriter}
 * throws it for values nested deeper than {@link HessianReader#MAX_DEPTH}.
 *
 * <p>An expected failure of untrusted input: it carries no stack trace.
 */
public final class HessianException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** A failure described by {@code message}. */
  public HessianException(String message) {
    super(message, null, false, false);
  }

  /** A failure described by {@code message}, caused by {@code cause}. */
  public HessianException(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
