package io.boltgen.registry.zookeeper;

import io.boltgen.registry.tck.RegistryContract;
import io.boltgen.runtime.cluster.Registry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The registry contract with the watches a ZooKeeper server before 3.6 takes ({@code persistentWatches(false)}:
 * set again after every event), on an in-process ZooKeeper; bolt-sofarpc-it runs them on a real 3.5.7 server.
 */
class ZooKeeperCompatibleWatchesContractTest extends RegistryContract {

  private static TestingServer server;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    server = new TestingServer(true);
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    server.close();
  }

  @Override
  protected Registry openRegistry() {
    return ZooKeeperRegistry.builder().connectString(server.getConnectString()).persistentWatches(false).build();
  }
}
