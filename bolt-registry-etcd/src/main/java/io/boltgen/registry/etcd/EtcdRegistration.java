package io.boltgen.registry.etcd;

import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.util.concurrent.atomic.AtomicBoolean;

/** One instance kept under its key on the registry's lease, until closed. */
final class EtcdRegistration implements Registration {

  private final LeaseKeeper keeper;
  private final String key;
  private final ServiceInstance instance;
  private final AtomicBoolean closed = new AtomicBoolean();

  EtcdRegistration(LeaseKeeper keeper, String key, ServiceInstance instance) {
    this.keeper = keeper;
    this.key = key;
    this.instance = instance;
  }

  @Override
  public ServiceInstance instance() {
    return instance;
  }

  String key() {
    return key;
  }

  /**
   * Deletes the key, unless a later registration of the same address replaced this one (then the key is
   * theirs) or another registry's lease holds it now. If etcd cannot be reached in time, the keep-alive
   * thread tries again, and the key leaves with the lease in any case.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      keeper.deregister(this);
    }
  }

  @Override
  public String toString() {
    return "etcd registration " + key;
  }
}
