package com.example.sofa.proto;

/** What {@link EchoService#refuse} throws. */
public class EchoRefusedException extends Exception {
  private static final long serialVersionUID = 1L;

  public EchoRefusedException(String message) {
    super(message);
  }
}
