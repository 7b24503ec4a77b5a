package io.boltgen.bench.sofarpc;

import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.SofaRpcService;

/** SOFARPC's {@code com.example.sofa.hessian.GreetService} (Hessian2) as bolt-sofarpc-peer's provider serves it. */
@BoltService(name = "bench.sofa.Greet")
@SofaRpcService(interfaceName = "com.example.sofa.hessian.GreetService")
public interface SofaGreetService {

  Greeting greet(Greeting g);
}
