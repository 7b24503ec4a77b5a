package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltServer;
import io.boltgen.sofarpc.it.hessian.GreetServiceBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceImpl;
import io.boltgen.sofarpc.it.own.EchoServiceOwnClassesBolt;
import io.boltgen.sofarpc.it.own.OwnClassesEcho;
import io.boltgen.sofarpc.it.proto.EchoServiceBolt;
import io.boltgen.sofarpc.it.proto.EchoServiceImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An unchanged SOFARPC 5.13.2 consumer (its own JVM) calling a boltgen server: both serializers, the four call
 * styles, a thrown business exception (its own class in the consumer with Hessian2), an unknown method and a
 * timeout. The consumer checks every value against the peer's contract and prints a line per check.
 */
class SofaRpcConsumerToBoltServerTest {

  static final String CHECKS = "sync,future,callback,oneway,exception,timeout,unknown,unknownservice";

  @Test
  @Timeout(240)
  void sofaRpcConsumerPassesEveryCheckAgainstABoltServer() throws Exception {
    BoltServer server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(GreetServiceBolt.bind(new GreetServiceImpl("bolt-1")))
        .service(EchoServiceBolt.bind(new EchoServiceImpl("bolt-1")))
        .build().start();
    try {
      for (String serializer : new String[] {"hessian2", "protobuf"}) {
        SofaRpcPeer.ConsumerRun run = SofaRpcPeer.runConsumer("--serializer", serializer,
            "--direct", "127.0.0.1:" + server.port(), "--calls", CHECKS);
        assertThat(run.checks()).as(run.toString()).hasSize(8).allSatisfy(l -> assertThat(l).contains(" PASS "));
        assertThat(run.done()).as(run.toString()).isEqualTo("DONE 8 0");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        if (serializer.equals("protobuf")) {
          // every protobuf integer type, from the consumer's own generated classes and back
          SofaRpcPeer.ConsumerRun numbers = SofaRpcPeer.runConsumer("--serializer", serializer,
              "--direct", "127.0.0.1:" + server.port(), "--calls", "numbers,defaults");
          assertThat(numbers.checks()).as(numbers.toString()).hasSize(2).allSatisfy(l -> assertThat(l)
              .contains(" PASS ")).first().satisfies(l -> assertThat(l).contains("sint32 42"));
          assertThat(numbers.exitCode()).as(numbers.toString()).isZero();
        }
        if (serializer.equals("hessian2")) {
          // exceptions the method does not declare reach the consumer typed, as a SOFARPC provider sends them;
          // chars, the JDK value types and arrays of every kind there and back
          SofaRpcPeer.ConsumerRun undeclared = SofaRpcPeer.runConsumer("--serializer", serializer,
              "--direct", "127.0.0.1:" + server.port(), "--calls", "undeclared,chars,moments,arrays");
          assertThat(undeclared.checks()).as(undeclared.toString()).hasSize(4)
              .allSatisfy(l -> assertThat(l).contains(" PASS "))
              .first().satisfies(l -> assertThat(l).contains("java.lang.IllegalStateException"));
          assertThat(undeclared.exitCode()).as(undeclared.toString()).isZero();
          assertThat(run.checks()).as(run.toString()).anySatisfy(l -> assertThat(l)
              .startsWith("CHECK exception PASS").contains("com.example.sofa.hessian.GreetingRefused")
              .contains("code=409 reason=customer no way is blocked"));
        }
      }
    } finally {
      server.close();
    }
  }

  @Test
  @Timeout(240)
  void sofaRpcConsumerPassesEveryCheckAgainstAServiceDeclaredWithItsOwnClasses() throws Exception {
    BoltServer server = BoltServer.builder().bind("127.0.0.1", 0)
        .service(EchoServiceOwnClassesBolt.bind(new OwnClassesEcho("bolt-own")))
        .build().start();
    try {
      SofaRpcPeer.ConsumerRun run = SofaRpcPeer.runConsumer("--serializer", "protobuf",
          "--direct", "127.0.0.1:" + server.port(), "--calls", CHECKS + ",numbers,defaults");
      assertThat(run.checks()).as(run.toString()).hasSize(10).allSatisfy(l -> assertThat(l).contains(" PASS "));
      assertThat(run.done()).as(run.toString()).isEqualTo("DONE 10 0");
      assertThat(run.exitCode()).as(run.toString()).isZero();
    } finally {
      server.close();
    }
  }
}
