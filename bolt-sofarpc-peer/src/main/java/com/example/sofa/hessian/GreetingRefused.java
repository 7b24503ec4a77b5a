package com.example.sofa.hessian;

/** What {@link GreetService#refuse} throws. */
public class GreetingRefused extends Exception {
  private static final long serialVersionUID = 1L;

  public GreetingRefused(String message) {
    super(message);
  }
}
