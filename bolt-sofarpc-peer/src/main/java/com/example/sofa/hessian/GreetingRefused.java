package com.example.sofa.hessian;

/**
 * What {@link GreetService#refuse} throws: a message, and fields a consumer branches on (sofa-hessian writes
 * them beside Throwable's).
 */
public class GreetingRefused extends Exception {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String reason;

  public GreetingRefused(String message) {
    this(message, 0, null);
  }

  public GreetingRefused(String message, int code, String reason) {
    super(message);
    this.code = code;
    this.reason = reason;
  }

  public int getCode() {
    return code;
  }

  public String getReason() {
    return reason;
  }
}
