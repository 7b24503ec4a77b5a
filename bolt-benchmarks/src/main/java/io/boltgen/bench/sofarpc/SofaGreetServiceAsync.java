package io.boltgen.bench.sofarpc;

import io.boltgen.annotation.BoltMethod;
import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.SofaRpcService;
import java.util.concurrent.CompletableFuture;

/** The same SOFARPC service called the future way. */
@BoltService(name = "bench.sofa.GreetAsync")
@SofaRpcService(interfaceName = "com.example.sofa.hessian.GreetService")
public interface SofaGreetServiceAsync {

  @BoltMethod(name = "greet")
  CompletableFuture<Greeting> greetFuture(Greeting g);
}
