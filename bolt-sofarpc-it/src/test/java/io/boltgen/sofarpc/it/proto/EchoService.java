package io.boltgen.sofarpc.it.proto;

import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.Oneway;
import io.boltgen.annotation.SofaRpcService;

/** SOFARPC's {@code com.example.sofa.proto.EchoService} (protobuf), called and served the sync way. */
@BoltService(name = "sofa.demo.Echo")
@SofaRpcService(interfaceName = "com.example.sofa.proto.EchoService",
    serializer = SofaRpcService.Serializer.PROTOBUF)
public interface EchoService {

  EchoReply echo(EchoRequest r);

  EchoReply refuse(EchoRequest r) throws EchoRefusedException;

  EchoReply slow(EchoRequest r);

  @Oneway
  void ping(EchoRequest r);

  EchoReply pings(EchoRequest r);

  Numbers negate(Numbers n);
}
