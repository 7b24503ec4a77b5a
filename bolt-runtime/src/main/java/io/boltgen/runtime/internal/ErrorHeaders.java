package io.boltgen.runtime.internal;

/**
 * The header keys a boltgen server adds to its error responses (SOFARPC's key/value header layout), so
 * that a boltgen client reads the remote exception's class and message exactly; SOFABolt clients ignore
 * the header and read the Hessian body instead.
 */
final class ErrorHeaders {

  /** The binary class name of the exception raised on the server. */
  public static final String ERROR_CLASS = "boltgen.error.class";

  /** Its message (absent when the exception had none). */
  public static final String ERROR_MESSAGE = "boltgen.error.message";

  private ErrorHeaders() {}
}
