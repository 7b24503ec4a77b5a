package io.boltgen.cluster.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.testing.EtcdCluster;
import io.boltgen.testing.EtcdProcess;
import io.boltgen.testing.ReadyProcess;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster scenarios on a real etcd (one member started for the class), and one of etcd's own: a
 * three-member etcd cluster that loses a member under load.
 */
class EtcdClusterTest extends ClusterContract {

  private static EtcdProcess etcd;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  @Override
  String registryUri() {
    return "etcd://" + etcd.endpoint().replace("http://", "");
  }

  @Override
  Registry clientRegistry() {
    return EtcdRegistry.builder().endpoints(etcd.clientUrl()).build();
  }

  @Test
  void discoveryKeepsWorkingAndNoCallFailsWhenAnEtcdMemberIsLost() throws Exception {
    EtcdCluster cluster = closer.track(EtcdCluster.start(3));
    String uri = "etcd://" + String.join(",",
        Arrays.stream(cluster.endpoints()).map(e -> e.replace("http://", "")).toArray(String[]::new));
    ReadyProcess[] nodes = {
      closer.track(NodeProcess.start(uri, TTL_MILLIS, 100)),
      closer.track(NodeProcess.start(uri, TTL_MILLIS, 100)),
      closer.track(NodeProcess.start(uri, TTL_MILLIS, 100))
    };
    Registry registry = closer.track(EtcdRegistry.builder().endpoints(cluster.endpoints()).build());
    BoltClient client = client(registry);
    String target = target(registry);
    awaitInstances(client, target, Duration.ofSeconds(10), nodes);
    Load load = closer.track(new Load(CounterBolt.newClient(client.channel(target)), 6));
    load.awaitMore(500);

    cluster.member(0).kill(); // the first endpoint of every registry: they all move to another
    load.awaitMore(1000);

    // discovery still works: a new instance is seen, one that leaves is dropped
    ReadyProcess added = closer.track(NodeProcess.start(uri, TTL_MILLIS, 100));
    awaitInstances(client, target, Duration.ofSeconds(5), nodes[0], nodes[1], nodes[2], added);
    load.awaitMore(300);
    assertThat(nodes[0].stop()).isTrue();
    awaitInstances(client, target, Duration.ofSeconds(5), nodes[1], nodes[2], added);
    load.awaitMore(300);
    load.close();
    assertThat(load.failures).isEmpty();
  }
}
