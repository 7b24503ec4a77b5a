package io.boltgen.runtime.service;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;
import java.util.List;

/**
 * What the processor generates per {@code @BoltService} interface and registers with
 * {@link java.util.ServiceLoader}, so that {@link #of} finds every generated service without reflection or
 * class-path scanning.
 *
 * @param <T> the service interface
 */
public interface GeneratedService<T> {

  /**
   * The generated service of {@code serviceInterface}, looked up with the interface's class loader.
   *
   * @throws IllegalArgumentException if none was generated (or registered)
   */
  static <T> GeneratedService<T> of(Class<T> serviceInterface) {
    return ServiceLookup.of(serviceInterface);
  }

  /** Every generated service {@code loader} finds, in no particular order. */
  static List<GeneratedService<?>> all(ClassLoader loader) {
    return ServiceLookup.all(loader);
  }

  /** The annotated interface. */
  Class<T> serviceInterface();

  /** The service's descriptor. */
  ServiceDescriptor descriptor();

  /** A client stub sending every call over {@code channel}. */
  T newClient(BoltChannel channel);

  /** A definition that serves calls with {@code implementation}. */
  ServiceDefinition bind(T implementation);
}
