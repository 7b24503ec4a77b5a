package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.sofarpc.it.hessian.GreetService;
import io.boltgen.sofarpc.it.hessian.GreetServiceBolt;
import io.boltgen.sofarpc.it.hessian.GreetServiceImpl;
import io.boltgen.sofarpc.it.proto.EchoReply;
import io.boltgen.sofarpc.it.proto.EchoRequest;
import io.boltgen.sofarpc.it.proto.EchoService;
import io.boltgen.sofarpc.it.proto.EchoServiceBolt;
import io.boltgen.sofarpc.it.proto.EchoServiceImpl;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Both ways through SOFARPC's ZooKeeper layout (Curator's in-process ZooKeeper): a SOFARPC consumer finds two
 * boltgen providers and spreads its calls by their weights; a boltgen client finds two SOFARPC providers and
 * spreads its calls by theirs.
 */
class SofaRpcRegistryInteropTest {

  private static final Pattern SPREAD = Pattern.compile("SPREAD (\\S+) (\\d+)");
  private static final int CALLS = 400;

  @Test
  @Timeout(240)
  void sofaRpcConsumerFindsBoltProvidersAndSpreadsByWeight() throws Exception {
    try (TestingServer zk = new TestingServer(true);
        ZooKeeperRegistry lightRegistry = sofaRpcLayout(zk);
        ZooKeeperRegistry heavyRegistry = sofaRpcLayout(zk)) {
      BoltServer light = boltProvider("bolt-light", 1, lightRegistry);
      BoltServer heavy = boltProvider("bolt-heavy", 3, heavyRegistry);
      try {
        for (String serializer : new String[] {"hessian2", "protobuf"}) {
          SofaRpcPeer.ConsumerRun run = SofaRpcPeer.runConsumer("--serializer", serializer,
              "--registry", "zookeeper://" + zk.getConnectString(), "--calls", "sync,spread");
          assertThat(run.done()).as(run.toString()).isEqualTo("DONE 2 0");
          Map<String, Integer> spread = spread(run);
          assertThat(spread).as(run.toString()).containsOnlyKeys("bolt-light", "bolt-heavy");
          assertThat(spread.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(CALLS);
          // weights 1:3 — the heavier instance takes clearly more (300 expected of 400)
          assertThat(spread.get("bolt-heavy")).as(run.toString()).isGreaterThan(spread.get("bolt-light") * 3 / 2);
        }
      } finally {
        light.close();
        heavy.close();
      }
    }
  }

  @Test
  @Timeout(240)
  void boltClientFindsSofaRpcProvidersAndSpreadsByWeight() throws Exception {
    try (TestingServer zk = new TestingServer(true)) {
      String registry = "zookeeper://" + zk.getConnectString();
      try (SofaRpcPeer light = SofaRpcPeer.providerOnFreePort("--id", "sofa-light", "--registry", registry,
              "--weight", "1");
          SofaRpcPeer heavy = SofaRpcPeer.providerOnFreePort("--id", "sofa-heavy", "--registry", registry,
              "--weight", "3");
          ZooKeeperRegistry resolver = sofaRpcLayout(zk);
          BoltClient client = BoltClient.builder().nameResolver(resolver)
              .balancingPolicy(BalancingPolicy.WEIGHTED_RANDOM).build()) {
        String greetTarget = "zookeeper:///com.example.sofa.hessian.GreetService:1.0";
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.instances(greetTarget).size() == 2);
        GreetService greet = GreetServiceBolt.newClient(client, greetTarget);
        Map<String, Integer> byHessian = new TreeMap<>();
        for (int i = 0; i < CALLS; i++) {
          byHessian.merge(greet.whoami(), 1, Integer::sum);
        }
        assertThat(byHessian).containsOnlyKeys("sofa-light", "sofa-heavy");
        assertThat(byHessian.get("sofa-heavy")).as("%s", byHessian).isGreaterThan(byHessian.get("sofa-light") * 3 / 2);

        String echoTarget = "zookeeper:///com.example.sofa.proto.EchoService:1.0";
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.instances(echoTarget).size() == 2);
        EchoService echo = EchoServiceBolt.newClient(client, echoTarget);
        Map<String, Integer> byProtobuf = new TreeMap<>();
        for (int i = 0; i < CALLS; i++) {
          EchoReply reply = echo.echo(new EchoRequest("w", 1));
          byProtobuf.merge(reply.server(), 1, Integer::sum);
        }
        assertThat(byProtobuf).containsOnlyKeys("sofa-light", "sofa-heavy");
        assertThat(byProtobuf.get("sofa-heavy")).as("%s", byProtobuf)
            .isGreaterThan(byProtobuf.get("sofa-light") * 3 / 2);
        assertThat(light.isAlive()).isTrue();
        assertThat(heavy.isAlive()).isTrue();
      }
    }
  }

  private static ZooKeeperRegistry sofaRpcLayout(TestingServer zk) {
    return ZooKeeperRegistry.builder().connectString(zk.getConnectString())
        .layout(ZooKeeperRegistry.Layout.SOFARPC).build();
  }

  private static BoltServer boltProvider(String id, int weight, ZooKeeperRegistry registry) {
    return BoltServer.builder().bind("127.0.0.1", 0).advertisedHost("127.0.0.1")
        .registry(registry).instance(weight, "", Map.of())
        .service(GreetServiceBolt.bind(new GreetServiceImpl(id)))
        .service(EchoServiceBolt.bind(new EchoServiceImpl(id)))
        .build().start();
  }

  private static Map<String, Integer> spread(SofaRpcPeer.ConsumerRun run) {
    Map<String, Integer> counts = new TreeMap<>();
    for (String line : run.lines()) {
      Matcher m = SPREAD.matcher(line);
      if (m.matches()) {
        counts.put(m.group(1), Integer.parseInt(m.group(2)));
      }
    }
    return counts;
  }
}
