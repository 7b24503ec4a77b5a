package io.boltgen.runtime.cluster;

import java.util.List;

/**
 * Turns a service name into the changing set of its instances: what a client's target
 * {@code scheme:///service} is resolved with. {@code static} is built in; registries
 * ({@link Registry}) are resolvers too. Give a client its resolvers with
 * {@code BoltClient.Builder.nameResolver}.
 *
 * <p>Implementations are thread-safe.
 */
public interface NameResolver {

  /** The scheme of the targets this resolver answers, such as {@code etcd} in {@code etcd:///demo.Inventory:1.0}. */
  String scheme();

  /**
   * Starts watching {@code service}: {@code listener} gets the whole current set soon (from another
   * thread, or before this returns) and again every time it changes, until the watch is closed. A resolver
   * that loses its source reports it through {@link Listener#onError} and keeps trying; the client keeps the
   * last set meanwhile.
   *
   * @throws IllegalArgumentException if {@code service} is not a name this resolver understands
   */
  Watch watch(String service, Listener listener);

  /** Hears of one watched service. Calls for one watch never overlap, and arrive in order. */
  interface Listener {

    /** The complete set of instances now, possibly empty; it replaces the previous one. */
    void onInstances(List<ServiceInstance> instances);

    /** The resolver cannot read its source now ({@code error} says why) and will try again. */
    default void onError(Throwable error) {}
  }

  /** A running watch. */
  interface Watch extends AutoCloseable {

    /** Stops the watch: its listener hears nothing more once this returns. Idempotent. */
    @Override
    void close();
  }
}
