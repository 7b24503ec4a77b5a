package io.boltgen.sofarpc.it.hessian;

import io.boltgen.annotation.SofaRpcClass;

/**
 * The checked exception the SOFARPC side knows as {@code com.example.sofa.hessian.GreetingRefused}, with its
 * fields: they travel both ways, by name.
 */
@SofaRpcClass("com.example.sofa.hessian.GreetingRefused")
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

  public int code() {
    return code;
  }

  public String reason() {
    return reason;
  }
}
