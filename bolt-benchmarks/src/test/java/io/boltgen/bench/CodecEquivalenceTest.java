package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.codec.OrderCodecBenchmark;
import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.codec.OrderFixtures;
import io.boltgen.bench.codec.model.Order;
import io.boltgen.bench.codec.proto.OrderProto;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The codec benchmark compares like with like: every variant carries the same order, and the boltgen codec
 * and protobuf-java write the same protobuf wire format (each reads the other's bytes, and sizes agree). The
 * boltgen codec is a method's result codec: the order as field 1 of a result message ({@code OrderResult}
 * in order.proto).
 */
class CodecEquivalenceTest {

  private final Order order = OrderFixtures.order();

  @Test
  void everyVariantRoundTripsTheSameOrder() throws Exception {
    Map<String, Order> decoded = OrderCodecBenchmark.roundTripOnce();
    assertThat(decoded).containsOnlyKeys("boltgen", "protobufBytes", "protobufDirect", "hessian2");
    decoded.forEach((codec, value) -> assertThat(value).as(codec).isEqualTo(order));
  }

  @Test
  void boltgenBytesAreProtobufWireFormatOfTheMirrorMessage() throws Exception {
    byte[] bytes = OrderCodecBenchmark.boltgenBytes();
    OrderProto.OrderResult parsed = OrderProto.OrderResult.parseFrom(bytes);
    assertThat(parsed.getValue()).isEqualTo(OrderFixtures.proto(order));
    assertThat(parsed.getUnknownFields().asMap()).isEmpty();
    assertThat(parsed.getValue().getUnknownFields().asMap()).isEmpty();
    assertThat(bytes).hasSize(result().getSerializedSize());
  }

  @Test
  void boltgenReadsProtobufJavaBytes() {
    ByteBuf in = Unpooled.wrappedBuffer(result().toByteArray());
    try {
      assertThat(OrderCodecs.boltgen().read(in)).isEqualTo(order);
    } finally {
      in.release();
    }
  }

  private OrderProto.OrderResult result() {
    return OrderProto.OrderResult.newBuilder().setValue(OrderFixtures.proto(order)).build();
  }

  @Test
  void encodedSizesAreReported() {
    Map<String, Integer> sizes = OrderCodecBenchmark.encodedSizes();
    assertThat(sizes.get("protobufBytes")).isEqualTo(OrderFixtures.proto(order).getSerializedSize()).isGreaterThan(300);
    assertThat(sizes.get("boltgen")).isEqualTo(result().getSerializedSize());
    assertThat(sizes.get("hessian2")).isPositive();
  }
}
