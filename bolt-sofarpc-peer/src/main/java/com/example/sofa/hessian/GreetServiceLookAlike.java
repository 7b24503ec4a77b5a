package com.example.sofa.hessian;

/**
 * The consumer's proxy for the "unknown" check only: called under {@link GreetService}'s interface name, with a
 * method the provider does not have.
 */
public interface GreetServiceLookAlike {

  String missing(String text);
}
