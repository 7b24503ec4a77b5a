package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.EtcdCluster;
import io.boltgen.testing.EtcdProcess;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A three-member cluster loses the member a registry talks to; registrations and watches carry on. */
class ClusterTest {

  private static final Duration TTL = Duration.ofSeconds(2);
  private EtcdCluster cluster;
  private final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startCluster() {
    cluster = EtcdCluster.start(3);
  }

  @AfterEach
  void stopCluster() throws Exception {
    try {
      for (int i = opened.size() - 1; i >= 0; i--) {
        opened.get(i).close();
      }
    } finally {
      cluster.close();
    }
  }

  private EtcdRegistry registry(String... endpoints) {
    EtcdRegistry registry = EtcdRegistry.builder().endpoints(endpoints).leaseTtl(TTL).build();
    opened.add(registry);
    return registry;
  }

  private static ServiceInstance instance(int port) {
    return ServiceInstance.of(new InetSocketAddress("127.0.0.1", port));
  }

  @Test
  void registrationsAndWatchesOutliveTheLeadersDeath() {
    String service = "cluster.Killed-" + System.nanoTime();
    EtcdProcess leader = cluster.leader();
    // both registries talk to the leader first: requests, keep-alives and the watch stream
    EtcdRegistry servers = registry(cluster.endpointsStartingWith(leader));
    EtcdRegistry clients = registry(cluster.endpointsStartingWith(leader));
    servers.register(service, instance(20001));
    Recorder seen = new Recorder();
    opened.add(clients.watch(service, seen));
    seen.awaitPorts(Duration.ofSeconds(5), 20001);

    leader.kill();

    // writes wait for a new leader (an election timeout, 1 s by default): a registration may fail meanwhile
    await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
        .until(() -> servers.register(service, instance(20002)) != null);
    seen.awaitPorts(Duration.ofSeconds(5), 20001, 20002);
    // keep-alives go on through the others: nothing expires over two TTLs
    await().during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(3))
        .until(() -> seen.ports().equals(Set.of(20001, 20002)));
    servers.register(service, instance(20003));
    seen.awaitPorts(Duration.ofSeconds(1), 20001, 20002, 20003);
    assertThat(seen.errors).hasSizeLessThanOrEqualTo(1);
  }

  @Test
  void aWatchLeavesAFrozenMember() {
    String service = "cluster.Frozen-" + System.nanoTime();
    EtcdProcess frozen = cluster.follower();
    EtcdRegistry servers = registry(cluster.endpointsWithout(frozen));
    EtcdRegistry clients = registry(cluster.endpointsStartingWith(frozen));
    Recorder seen = new Recorder();
    opened.add(clients.watch(service, seen));
    servers.register(service, instance(20011));
    seen.awaitPorts(Duration.ofSeconds(5), 20011);

    // the member the watch streams from stops answering but keeps its connections open
    frozen.pause();
    try {
      servers.register(service, instance(20012));
      // a probe (every 3 s, 2 s timeout) finds the member silent and the watch moves to another
      seen.awaitPorts(Duration.ofSeconds(10), 20011, 20012);
      servers.register(service, instance(20013));
      seen.awaitPorts(Duration.ofSeconds(1), 20011, 20012, 20013);
    } finally {
      frozen.resume();
    }
  }
}
