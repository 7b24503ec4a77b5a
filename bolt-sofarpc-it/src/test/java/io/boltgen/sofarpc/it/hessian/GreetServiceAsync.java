package io.boltgen.sofarpc.it.hessian;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.annotation.BoltMethod;
import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.SofaRpcService;
import java.util.concurrent.CompletableFuture;

/** The same SOFARPC service called the future way, and the callback way. */
@BoltService(name = "sofa.GreetAsync")
@SofaRpcService(interfaceName = "com.example.sofa.hessian.GreetService")
public interface GreetServiceAsync {

  @BoltMethod(name = "greet")
  CompletableFuture<Greeting> greetFuture(Greeting g);

  @BoltMethod(name = "join")
  void joinWithCallback(String a, int b, BoltCallback<String> callback);

  @BoltMethod(name = "refuse")
  CompletableFuture<Greeting> refuseFuture(String why) throws GreetingRefused;

  /** A method the SOFARPC provider does not have. */
  String missing(String text);
}
