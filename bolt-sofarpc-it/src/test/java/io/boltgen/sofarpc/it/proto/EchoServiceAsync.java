package io.boltgen.sofarpc.it.proto;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.annotation.BoltMethod;
import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.SofaRpcService;
import java.util.concurrent.CompletableFuture;

/** The same SOFARPC service called the future way, and the callback way. */
@BoltService(name = "sofa.demo.EchoAsync")
@SofaRpcService(interfaceName = "com.example.sofa.proto.EchoService",
    serializer = SofaRpcService.Serializer.PROTOBUF)
public interface EchoServiceAsync {

  @BoltMethod(name = "echo")
  CompletableFuture<EchoReply> echoFuture(EchoRequest r);

  @BoltMethod(name = "pings")
  void pingsWithCallback(EchoRequest r, BoltCallback<EchoReply> callback);

  /** A method the SOFARPC provider does not have. */
  EchoReply missing(EchoRequest r);
}
