package io.boltgen.sofarpc.it.proto;

import io.boltgen.annotation.SofaRpcClass;

/** The checked exception the SOFARPC side knows as {@code com.example.sofa.proto.EchoRefusedException}. */
@SofaRpcClass("com.example.sofa.proto.EchoRefusedException")
public class EchoRefusedException extends Exception {

  private static final long serialVersionUID = 1L;

  public EchoRefusedException(String message) {
    super(message);
  }
}
