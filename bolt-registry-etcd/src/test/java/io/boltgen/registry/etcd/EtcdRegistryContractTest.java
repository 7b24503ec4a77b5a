package io.boltgen.registry.etcd;

import io.boltgen.registry.tck.RegistryContract;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.testing.EtcdProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The registry contract, on a real one-member etcd. */
class EtcdRegistryContractTest extends RegistryContract {

  private static EtcdProcess etcd;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() {
    if (etcd != null) {
      etcd.close();
    }
  }

  @Override
  protected Registry openRegistry() {
    return EtcdRegistry.builder().endpoints(etcd.endpoint()).build();
  }
}
