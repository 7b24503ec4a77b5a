package io.boltgen.registry.zookeeper;

import io.boltgen.runtime.cluster.Registry;

/**
 * The registry contract with the watches a ZooKeeper server before 3.6 takes ({@code persistentWatches(false)}:
 * set again after every event), on the same in-process ZooKeeper; bolt-sofarpc-it runs them on a real 3.5.7 server.
 */
class ZooKeeperCompatibleWatchesContractTest extends ZooKeeperRegistryContractTest {

  @Override
  protected Registry openRegistry() {
    return ZooKeeperRegistry.builder().connectString(server.getConnectString()).persistentWatches(false).build();
  }
}
