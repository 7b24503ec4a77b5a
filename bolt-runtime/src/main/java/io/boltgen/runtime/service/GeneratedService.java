package io.boltgen.runtime.service;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.ServiceDescriptor;

/**
 * What the processor generates per {@code @BoltService} interface and registers with
 * {@link java.util.ServiceLoader}, so that {@link BoltServices} finds every generated service without
 * reflection or class-path scanning.
 *
 * @param <T> the service interface
 */
public interface GeneratedService<T> {

  /** The annotated interface. */
  Class<T> serviceInterface();

  /** The service's descriptor. */
  ServiceDescriptor descriptor();

  /** A client stub sending every call over {@code channel}. */
  T newClient(BoltChannel channel);

  /** A definition that serves calls with {@code implementation}. */
  ServiceDefinition bind(T implementation);
}
