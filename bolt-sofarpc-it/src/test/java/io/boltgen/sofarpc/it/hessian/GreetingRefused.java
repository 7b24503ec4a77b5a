package io.boltgen.sofarpc.it.hessian;

import io.boltgen.annotation.SofaRpcClass;

/** The checked exception the SOFARPC side knows as {@code com.example.sofa.hessian.GreetingRefused}. */
@SofaRpcClass("com.example.sofa.hessian.GreetingRefused")
public class GreetingRefused extends Exception {

  private static final long serialVersionUID = 1L;

  public GreetingRefused(String message) {
    super(message);
  }
}
