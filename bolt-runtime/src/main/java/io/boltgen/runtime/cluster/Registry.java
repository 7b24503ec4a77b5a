package io.boltgen.runtime.cluster;

/**
 * A service registry: servers {@linkplain #register register} their instances in it, clients resolve
 * through it (it is a {@link NameResolver}). Implementations keep a registration alive while its process
 * lives (a lease, an ephemeral node) so that an instance that dies leaves the set on its own, and register
 * it again after losing it.
 *
 * <p>A server given a registry ({@code BoltServer.Builder.registry}) registers every service once it
 * listens, and on close deregisters first, then keeps serving while clients move away, then drains.
 *
 * <p>Implementations are thread-safe.
 */
public interface Registry extends NameResolver, AutoCloseable {

  /**
   * Registers {@code instance} as one of {@code service}'s and returns once the registry has it.
   *
   * @throws java.io.UncheckedIOException if the registry could not be reached in time
   * @throws IllegalArgumentException if {@code service} is not a name this registry accepts
   */
  Registration register(String service, ServiceInstance instance);

  /**
   * Stops every watch and keep-alive of this registry and deregisters what is still registered. Idempotent.
   */
  @Override
  void close();
}
