package io.boltgen.sofarpc.it.own;

import com.example.sofa.proto.EchoReply;
import com.example.sofa.proto.EchoRequest;
import com.example.sofa.proto.Numbers;
import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.Oneway;
import io.boltgen.annotation.SofaRpcService;
import io.boltgen.sofarpc.it.proto.EchoRefusedException;

/**
 * SOFARPC's {@code com.example.sofa.proto.EchoService} (protobuf) declared with the provider's own protobuf-java
 * classes, generated here from its {@code sofa_demo.proto}: no message is declared again.
 */
@BoltService(name = "sofa.own.Echo")
@SofaRpcService(interfaceName = "com.example.sofa.proto.EchoService",
    serializer = SofaRpcService.Serializer.PROTOBUF)
public interface EchoServiceOwnClasses {

  EchoReply echo(EchoRequest r);

  EchoReply refuse(EchoRequest r) throws EchoRefusedException;

  EchoReply slow(EchoRequest r);

  @Oneway
  void ping(EchoRequest r);

  EchoReply pings(EchoRequest r);

  Numbers negate(Numbers n);
}
