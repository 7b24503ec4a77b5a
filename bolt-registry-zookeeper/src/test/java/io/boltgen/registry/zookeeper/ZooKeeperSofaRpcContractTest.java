package io.boltgen.registry.zookeeper;

import io.boltgen.registry.tck.RegistryContract;
import io.boltgen.runtime.cluster.Registry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The registry contract in SOFARPC's layout. Its service names ({@code tck.Service0-…:1.0}) are SOFARPC unique
 * names (interface {@code tck.Service0-…}, version 1.0). A provider URL holds no instance version or zone, and no
 * metadata value with {@code =} (the contract's rich instance has one), so the layout does not keep every field.
 */
class ZooKeeperSofaRpcContractTest extends RegistryContract {

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
    return ZooKeeperRegistry.builder().connectString(server.getConnectString())
        .layout(ZooKeeperRegistry.Layout.SOFARPC).build();
  }

  @Override
  protected boolean keepsEveryField() {
    return false;
  }
}
