package io.boltgen.runtime.internal.wire;

/**
 * How an error answer describes the failure, written by {@link ErrorFrames} and read by
 * {@link RemoteErrors}, in the one place both take it from:
 *
 * <ul>
 *   <li>two header entries a boltgen server adds (SOFARPC's key/value header layout), so that a boltgen
 *       client reads the remote exception's class and message exactly; SOFABolt clients ignore them;
 *   <li>the message of the Hessian {@code RpcServerException} in the body, in SOFABolt's own layout
 *       {@code [Server]OriginErrorMsg: <class>: <message>. AdditionalErrorMsg: <context>}, which a SOFABolt
 *       client shows and from which a boltgen client takes class and message when a SOFABolt server
 *       answered.
 * </ul>
 *
 * <p>Stateless.
 */
final class ErrorFormat {

  /** Header key: the binary class name of the exception raised on the server. */
  static final String ERROR_CLASS = "boltgen.error.class";

  /** Header key: its message (absent when the exception had none). */
  static final String ERROR_MESSAGE = "boltgen.error.message";

  private static final String ORIGIN = "[Server]OriginErrorMsg: ";
  private static final String ADDITIONAL = ". AdditionalErrorMsg: ";

  private ErrorFormat() {}

  /** The body's message for {@code errorClass} and {@code message} (either may be null) raised in {@code context}. */
  static String detail(String errorClass, String message, String context) {
    String origin = errorClass == null ? String.valueOf(message)
        : message == null ? errorClass : errorClass + ": " + message;
    return ORIGIN + origin + ADDITIONAL + context;
  }

  /**
   * The class (index 0) and message (index 1, may be null) that a SOFABolt-layout {@code detail} names, or
   * {@code null} when it is not in that layout.
   */
  static String[] origin(String detail) {
    if (detail == null || !detail.startsWith(ORIGIN)) {
      return null;
    }
    int end = detail.lastIndexOf(ADDITIONAL);
    String origin = end < 0 ? detail.substring(ORIGIN.length()) : detail.substring(ORIGIN.length(), end);
    int colon = origin.indexOf(": ");
    return colon < 0 ? new String[] {origin, null} : new String[] {origin.substring(0, colon), origin.substring(colon + 2)};
  }
}
