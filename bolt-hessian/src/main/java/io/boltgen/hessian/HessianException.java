package io.boltgen.hessian;

/**
 * Malformed or over-limit Hessian: a truncated value, an unknown or unexpected tag, a length larger than the
 * bytes left, invalid UTF-8, a bad reference, a class other than the one expected, or a stream past one of
 * {@link HessianReader}'s limits. The only exception {@link HessianReader} throws; {@link HessianWriter}
 * throws it for values nested deeper than {@link HessianReader#MAX_DEPTH}.
 *
 * <p>Its message never holds text the peer sent: such text (the class name of an unexpected object) is kept
 * apart in {@link #peerText}, raw, for the caller to quote with its own helper before it shows it.
 *
 * <p>An expected failure of untrusted input: it carries no stack trace.
 */
public final class HessianException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Text the peer sent that the message is about, as sent (unquoted, unescaped); null when there is none. */
  private final String peerText;

  /** A failure described by {@code message}. */
  public HessianException(String message) {
    this(message, null, null);
  }

  /** A failure described by {@code message}, caused by {@code cause}. */
  public HessianException(String message, Throwable cause) {
    this(message, cause, null);
  }

  private HessianException(String message, Throwable cause, String peerText) {
    super(message, cause, false, false);
    this.peerText = peerText;
  }

  /**
   * A failure described by {@code message} (none of the peer's text in it) about {@code peerText}, text the peer
   * sent, returned raw by {@link #peerText}.
   */
  public static HessianException about(String message, String peerText) {
    return new HessianException(message, null, peerText);
  }

  /**
   * The text the peer sent that this failure is about (a class name), raw: quote it before it goes into a message
   * or a log line. Null when the message says all.
   */
  public String peerText() {
    return peerText;
  }
}
