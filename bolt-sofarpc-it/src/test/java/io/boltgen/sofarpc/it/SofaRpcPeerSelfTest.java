package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The harness against itself: a real SOFARPC consumer against a real SOFARPC provider, both in peer JVMs, with
 * every check passing. If this fails, interop tests against boltgen cannot be trusted.
 */
class SofaRpcPeerSelfTest {

  private static final List<String> SERIALIZERS = List.of("protobuf", "hessian2");
  private static final String DEFAULT_CHECKS = "sync,future,callback,oneway,exception,timeout";

  @Test
  @Timeout(300)
  void consumerPassesEveryCheckAgainstAProviderDirectly() throws Exception {
    try (SofaRpcPeer provider = SofaRpcPeer.providerOnFreePort("--id", "direct-1")) {
      for (String serializer : SERIALIZERS) {
        // and each serializer's own check: every integer type (protobuf), undeclared exceptions (Hessian2)
        SofaRpcPeer.ConsumerRun run = SofaRpcPeer.runConsumer("--serializer", serializer,
            "--direct", provider.address(), "--calls", DEFAULT_CHECKS + ",unknown,unknownservice,"
                + (serializer.equals("protobuf") ? "numbers" : "undeclared,chars,moments,arrays"));
        assertAllPassed(run, serializer.equals("protobuf") ? 9 : 12);
      }
    }
  }

  @Test
  @Timeout(300)
  void consumerSpreadsItsCallsOverProvidersFoundInZooKeeper() throws Exception {
    try (TestingServer zk = new TestingServer(true)) {
      String registry = "zookeeper://" + zk.getConnectString();
      try (SofaRpcPeer light = SofaRpcPeer.providerOnFreePort("--id", "zk-light", "--registry", registry,
              "--weight", "1");
          SofaRpcPeer heavy = SofaRpcPeer.providerOnFreePort("--id", "zk-heavy", "--registry", registry,
              "--weight", "3")) {
        for (String serializer : SERIALIZERS) {
          SofaRpcPeer.ConsumerRun run = SofaRpcPeer.runConsumer("--serializer", serializer,
              "--registry", registry, "--calls", DEFAULT_CHECKS + ",spread");
          assertAllPassed(run, 7);
          assertThat(run.lines()).as(run.toString())
              .anySatisfy(l -> assertThat(l).startsWith("SPREAD zk-light "))
              .anySatisfy(l -> assertThat(l).startsWith("SPREAD zk-heavy "));
        }
        assertThat(light.isAlive()).isTrue();
        assertThat(heavy.isAlive()).isTrue();
      }
    }
  }

  private static void assertAllPassed(SofaRpcPeer.ConsumerRun run, int checks) {
    assertThat(run.checks()).as(run.toString()).hasSize(checks)
        .allSatisfy(l -> assertThat(l).contains(" PASS "));
    assertThat(run.done()).as(run.toString()).isEqualTo("DONE " + checks + " 0");
    assertThat(run.exitCode()).as(run.toString()).isZero();
  }
}
