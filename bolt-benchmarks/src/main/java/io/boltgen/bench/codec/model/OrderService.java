package io.boltgen.bench.codec.model;

import io.boltgen.annotation.BoltService;

/**
 * Exists so that the processor generates the codecs of {@link Order} and its parts; the JMH benchmark
 * measures them through this service's method descriptor (see {@link io.boltgen.bench.codec.OrderCodecs}).
 */
@BoltService(name = "bench.Orders", version = "1.0")
public interface OrderService {

  /** Returns {@code order}. */
  Order echoOrder(Order order);
}
