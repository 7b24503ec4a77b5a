package io.boltgen.bench.sofarpc;

import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.SofaRpcService;

/** SOFARPC's {@code com.example.sofa.proto.EchoService} (protobuf) as bolt-sofarpc-peer's provider serves it. */
@BoltService(name = "bench.sofa.Echo")
@SofaRpcService(interfaceName = "com.example.sofa.proto.EchoService", serializer = SofaRpcService.Serializer.PROTOBUF)
public interface SofaEchoService {

  EchoReply echo(EchoRequest r);
}
