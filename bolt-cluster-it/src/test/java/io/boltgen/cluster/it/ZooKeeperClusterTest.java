package io.boltgen.cluster.it;

import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.cluster.Registry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The cluster scenarios on ZooKeeper: Curator's in-process {@code TestingServer}, with a 200 ms tick so that
 * sessions may be as short as the tests need (ZooKeeper grants 2 to 20 ticks).
 */
class ZooKeeperClusterTest extends ClusterContract {

  private static TestingServer zookeeper;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    zookeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    zookeeper.close();
  }

  @Override
  String registryUri() {
    return "zookeeper://" + zookeeper.getConnectString();
  }

  @Override
  Registry clientRegistry() {
    return ZooKeeperRegistry.builder().connectString(zookeeper.getConnectString()).build();
  }
}
