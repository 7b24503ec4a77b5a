package io.boltgen.bench.codec;

import io.boltgen.bench.codec.model.Order;
import io.boltgen.bench.codec.model.OrderService;
import io.boltgen.bench.codec.model.OrderServiceBolt;
import io.boltgen.runtime.codec.Marshaller;

/**
 * The boltgen codec the JMH benchmark measures: the processor's generated codec of {@link Order}, reached
 * through the generated {@link OrderService} descriptor: {@code echoOrder}'s response marshaller, which
 * carries an {@link Order} as field 1 of the method's result message (what a boltgen server sends and a
 * client reads for a method returning an Order: three bytes more than the bare order, and one more nested
 * size). protobuf-java and Hessian2 are measured on the bare order, as gRPC and SOFABolt would send it.
 */
public final class OrderCodecs {

  private OrderCodecs() {}

  /** The generated result codec of {@code Order echoOrder(Order)}. */
  public static Marshaller<Order> boltgen() {
    return OrderServiceBolt.METHOD_ECHO_ORDER.responseMarshaller();
  }

  /** One line saying which code the boltgen codec rows measure. */
  public static String describe() {
    return "the generated codec of the result of Order echoOrder(Order) (" + OrderServiceBolt.class.getSimpleName()
        + ".METHOD_ECHO_ORDER's response marshaller: the order as field 1 of the result message)";
  }
}
