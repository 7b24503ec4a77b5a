package com.example.sofa.proto;

/**
 * The consumer's proxy for the "unknown" check only: called under {@link EchoService}'s interface name, with a
 * method the provider does not have.
 */
public interface EchoServiceLookAlike {

  EchoReply missing(EchoRequest r);
}
