package io.boltgen.runtime.cluster;

/** One instance kept registered in a {@link Registry}. Thread-safe. */
public interface Registration extends AutoCloseable {

  /** The instance registered. */
  ServiceInstance instance();

  /**
   * Deregisters the instance and stops keeping it alive; watchers see it leave. Returns once the registry
   * confirmed it, or after a bounded wait (an instance whose registry cannot be reached leaves when its
   * lease or session expires). Idempotent.
   */
  @Override
  void close();
}
