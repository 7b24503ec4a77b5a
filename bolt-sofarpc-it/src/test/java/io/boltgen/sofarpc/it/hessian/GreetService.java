package io.boltgen.sofarpc.it.hessian;

import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.Oneway;
import io.boltgen.annotation.SofaRpcService;

/** SOFARPC's {@code com.example.sofa.hessian.GreetService} (Hessian2), called and served the sync way. */
@BoltService(name = "sofa.Greet")
@SofaRpcService(interfaceName = "com.example.sofa.hessian.GreetService")
public interface GreetService {

  Greeting greet(Greeting g);

  String join(String a, int b);

  Greeting refuse(String why) throws GreetingRefused;

  String slow(int millis);

  @Oneway
  void ping(String text);

  int pings(String text);

  String whoami();

  String fail(String kind);

  String initials(char c, Character boxed);

  Moments shift(Moments m);

  Tables turn(Tables t, int[] extra);
}
