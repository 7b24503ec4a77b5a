package io.boltgen.bench.sofarpc;

import io.boltgen.annotation.BoltMethod;
import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.SofaRpcService;
import java.util.concurrent.CompletableFuture;

/** The same SOFARPC service called the future way. */
@BoltService(name = "bench.sofa.EchoAsync")
@SofaRpcService(interfaceName = "com.example.sofa.proto.EchoService", serializer = SofaRpcService.Serializer.PROTOBUF)
public interface SofaEchoServiceAsync {

  @BoltMethod(name = "echo")
  CompletableFuture<EchoReply> echoFuture(EchoRequest r);
}
