package io.boltgen.registry.zookeeper;

import io.boltgen.registry.tck.RegistryContract;
import io.boltgen.runtime.cluster.Registry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The registry contract, on an in-process ZooKeeper started once for the class. */
class ZooKeeperRegistryContractTest extends RegistryContract {

  static TestingServer server;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    server = new TestingServer(true); // a free port, a temporary data directory
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    server.close();
  }

  @Override
  protected Registry openRegistry() {
    return ZooKeeperRegistry.builder().connectString(server.getConnectString()).build();
  }
}
