package io.boltgen.runtime.internal;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.protobuf.ProtoDecoder;
import io.boltgen.runtime.codec.protobuf.ProtoEncoder;
import io.boltgen.runtime.codec.protobuf.ProtoMarshaller;
import io.boltgen.runtime.codec.protobuf.ProtoSizes;
import io.boltgen.testing.RawFrames;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The order service of the frame fuzzer: {@code bench.Orders:1.0/echoOrder}, which answers with the order it
 * read. Its codec is written by hand in the shape of the processor's output for the benchmark module's
 * {@code OrderService} (this module's tests cannot run the processor): the same messages and field numbers,
 * read with {@link ProtoDecoder} in the generated loop (a switch on the tag, unknown fields skipped) and
 * written back with {@link ProtoEncoder}. A request the generated codec wrote ({@link #CAPTURED_REQUEST})
 * therefore decodes here field for field, and content mutated behind a correct header and CRC reaches the
 * runtime's protobuf decoder: varints, strings (UTF-8), nested and repeated messages, map entries, an enum.
 */
final class FuzzOrders {

  /** {@code bench.orders.Order}. */
  record Order(long id, String customerId, Address shipTo, List<LineItem> items, Map<String, Long> attributes,
      Status status, long createdAtMillis, String note) {}

  /** {@code bench.orders.Address}. */
  record Address(String street, String city, String zip, String country) {}

  /** {@code bench.orders.LineItem}. */
  record LineItem(String sku, String title, long quantity, long priceCents) {}

  /** {@code bench.orders.Status}; the constant order is the wire numbering. */
  enum Status { NEW, PAID, SHIPPED, CANCELLED }

  private static final Status[] STATUS_VALUES = Status.values();

  // EchoOrderRequest and EchoOrderResponse are both { Order order = 1; }
  static final Marshaller<Order> REQUEST =
      ProtoMarshaller.of("bench.orders.EchoOrderRequest", FuzzOrders::sizeWrapper, FuzzOrders::writeWrapper,
          FuzzOrders::readWrapper);
  static final Marshaller<Order> RESPONSE =
      ProtoMarshaller.of("bench.orders.EchoOrderResponse", FuzzOrders::sizeWrapper, FuzzOrders::writeWrapper,
          FuzzOrders::readWrapper);

  static final MethodDescriptor<Order, Order> ECHO_ORDER = MethodDescriptor.newBuilder(REQUEST, RESPONSE)
      .serviceName("bench.Orders")
      .serviceVersion("1.0")
      .methodName("echoOrder")
      .type(MethodType.REQUEST_RESPONSE)
      .timeoutMillis(3000)
      .build();

  /**
   * The request frame the generated codec of the benchmark module wrote for its one benchmark order (eight
   * line items, four attributes, status PAID, two non-ASCII strings): V2 version 2 with the CRC switch,
   * request id 1, timeout 3000 ms, 636 bytes of content.
   */
  static final String CAPTURED_REQUEST = "020201000101000000010b0100000bb8001a00000000027c"
      + "\"bench.Orders:1.0/echoOrder\""
      + "0af90408eaadc0e5241212637573746f6d65722d303034322d373738311a280a114c656f706f6c6473747261c39f6520"
      + "313212084dc3bc6e6368656e1a0538303830322202444522370a0a534b552d3130343732391224537461696e6c657373"
      + "20737465656c20776174657220626f74746c652c20373530206d6c180120f30322370a0a534b552d3230393435381224"
      + "4d6572696e6f20776f6f6c20736f636b73202870616972292c2073697a652034322d3435180220d50d22350a0a534b55"
      + "2d33313431383712225553422d43206368617267696e67206361626c652c20627261696465642c2032206d180320b717"
      + "22320a0a534b552d343138393136121f4e6f7465626f6f6b2c20646f747465642c2041352c2031323020706167657318"
      + "0120992122360a0a534b552d3532333634351223457370726573736f206265616e732c2073696e676c65206f72696769"
      + "6e2c2031206b67180220fb2a222b0a0a534b552d3632383337341218436173742069726f6e20736b696c6c65742c2032"
      + "3620636d180320dd3422340a0a534b552d3733333130331221486561646c616d702c20343030206c756d656e2c207265"
      + "63686172676561626c65180120bf3e22300a0a534b552d383337383332121d4c696e656e2074656120746f77656c2c20"
      + "736574206f66207468726565180220a1482a120a0d6c6f79616c7479506f696e747310b0092a0c0a0867696674577261"
      + "7010012a0d0a0977617265686f75736510072a0f0a0863616d706169676e1095b4d30930013880d8f7ec9d32423e4c65"
      + "617665207468652070617263656c20776974682074686520636f6e636965726765206966206e6f626f647920616e7377"
      + "6572732e205468616e6b7321"
      + "45a56c66";

  private FuzzOrders() {}

  /** The service: answers each order with the order read. */
  static ServiceDefinition definition() {
    return ServiceDefinition.builder("bench.Orders", "1.0")
        .method(ECHO_ORDER, (order, call) -> call.respond(order))
        .build();
  }

  /** {@link #CAPTURED_REQUEST} as bytes. */
  static byte[] capturedRequest() {
    return Hex.bytes(CAPTURED_REQUEST);
  }

  /** The content of {@link #CAPTURED_REQUEST}: what the generated codec wrote for the order. */
  static byte[] capturedContent() {
    byte[] frame = capturedRequest();
    int start = RawFrames.V2_REQUEST_HEADER + ECHO_ORDER.wireName().length();
    return Arrays.copyOfRange(frame, start, frame.length - 4);
  }

  private static int sizeWrapper(Order order, ProtoEncoder e) {
    return order == null ? 0 : 1 + e.nested(e.reserve(), sizeOrder(order, e));
  }

  private static void writeWrapper(Order order, ProtoEncoder e) {
    if (order != null) {
      e.writeTag(10);
      e.writeLength();
      writeOrder(order, e);
    }
  }

  private static Order readWrapper(ProtoDecoder d) {
    Order order = null;
    for (int tag = d.readTag(); tag != 0; tag = d.readTag()) {
      if (tag == 10) {
        order = d.readMessage(FuzzOrders::readOrder);
      } else {
        d.skipField(tag);
      }
    }
    return order;
  }

  @SuppressWarnings("EnumOrdinal") // numbered by ordinal, as the generated codecs number an enum
  private static int sizeOrder(Order v, ProtoEncoder e) {
    int size = 0;
    if (v.id() != 0) {
      size += 1 + ProtoSizes.int64(v.id());
    }
    if (v.customerId() != null) {
      size += 1 + e.string(v.customerId());
    }
    if (v.shipTo() != null) {
      size += 1 + e.nested(e.reserve(), sizeAddress(v.shipTo(), e));
    }
    for (LineItem item : v.items()) {
      size += 1 + e.nested(e.reserve(), sizeLineItem(ProtoEncoder.element(item), e));
    }
    for (Map.Entry<String, Long> entry : v.attributes().entrySet()) {
      int slot = e.reserve();
      int length = 1 + e.string(ProtoEncoder.element(entry.getKey())) + 1
          + ProtoSizes.int64(ProtoEncoder.element(entry.getValue()));
      size += 1 + e.nested(slot, length);
    }
    if (v.status() != null) {
      size += 1 + ProtoSizes.varint32(v.status().ordinal());
    }
    if (v.createdAtMillis() != 0) {
      size += 1 + ProtoSizes.int64(v.createdAtMillis());
    }
    if (v.note() != null) {
      size += 1 + e.string(v.note());
    }
    return size;
  }

  @SuppressWarnings("EnumOrdinal") // numbered by ordinal, as the generated codecs number an enum
  private static void writeOrder(Order v, ProtoEncoder e) {
    if (v.id() != 0) {
      e.writeTag(8);
      e.writeInt64(v.id());
    }
    if (v.customerId() != null) {
      e.writeTag(18);
      e.writeString(v.customerId());
    }
    if (v.shipTo() != null) {
      e.writeTag(26);
      e.writeLength();
      writeAddress(v.shipTo(), e);
    }
    for (LineItem item : v.items()) {
      e.writeTag(34);
      e.writeLength();
      writeLineItem(item, e);
    }
    for (Map.Entry<String, Long> entry : v.attributes().entrySet()) {
      e.writeTag(42);
      e.writeLength();
      e.writeTag(10);
      e.writeString(entry.getKey());
      e.writeTag(16);
      e.writeInt64(entry.getValue());
    }
    if (v.status() != null) {
      e.writeTag(48);
      e.writeVarint32(v.status().ordinal());
    }
    if (v.createdAtMillis() != 0) {
      e.writeTag(56);
      e.writeInt64(v.createdAtMillis());
    }
    if (v.note() != null) {
      e.writeTag(66);
      e.writeString(v.note());
    }
  }

  private static Order readOrder(ProtoDecoder d) {
    long id = 0;
    String customerId = null;
    Address shipTo = null;
    List<LineItem> items = null;
    Map<String, Long> attributes = null;
    Status status = null;
    long createdAtMillis = 0;
    String note = null;
    for (int tag = d.readTag(); tag != 0; tag = d.readTag()) {
      switch (tag) {
        case 8 -> id = d.readInt64();
        case 18 -> customerId = d.readString();
        case 26 -> shipTo = d.readMessage(FuzzOrders::readAddress);
        case 34 -> items = ProtoDecoder.add(items, d.readMessage(FuzzOrders::readLineItem));
        case 42 -> {
          int outer = d.enter();
          String key = "";
          Long value = 0L;
          for (int t = d.readTag(); t != 0; t = d.readTag()) {
            switch (t) {
              case 10 -> key = d.readString();
              case 16 -> value = d.readInt64();
              default -> d.skipField(t);
            }
          }
          d.exit(outer);
          attributes = ProtoDecoder.put(attributes, key, value);
        }
        case 48 -> status = ProtoDecoder.enumValue(STATUS_VALUES, d.readInt32());
        case 56 -> createdAtMillis = d.readInt64();
        case 66 -> note = d.readString();
        default -> d.skipField(tag);
      }
    }
    return new Order(id, customerId, shipTo, ProtoDecoder.list(items), ProtoDecoder.map(attributes), status,
        createdAtMillis, note);
  }

  private static int sizeAddress(Address v, ProtoEncoder e) {
    int size = 0;
    for (String s : new String[] {v.street(), v.city(), v.zip(), v.country()}) {
      if (s != null) {
        size += 1 + e.string(s);
      }
    }
    return size;
  }

  private static void writeAddress(Address v, ProtoEncoder e) {
    String[] fields = {v.street(), v.city(), v.zip(), v.country()};
    for (int i = 0; i < fields.length; i++) {
      if (fields[i] != null) {
        e.writeTag((i + 1) << 3 | 2);
        e.writeString(fields[i]);
      }
    }
  }

  private static Address readAddress(ProtoDecoder d) {
    String[] fields = new String[4];
    for (int tag = d.readTag(); tag != 0; tag = d.readTag()) {
      switch (tag) {
        case 10, 18, 26, 34 -> fields[(tag >>> 3) - 1] = d.readString();
        default -> d.skipField(tag);
      }
    }
    return new Address(fields[0], fields[1], fields[2], fields[3]);
  }

  private static int sizeLineItem(LineItem v, ProtoEncoder e) {
    int size = 0;
    if (v.sku() != null) {
      size += 1 + e.string(v.sku());
    }
    if (v.title() != null) {
      size += 1 + e.string(v.title());
    }
    if (v.quantity() != 0) {
      size += 1 + ProtoSizes.int64(v.quantity());
    }
    if (v.priceCents() != 0) {
      size += 1 + ProtoSizes.int64(v.priceCents());
    }
    return size;
  }

  private static void writeLineItem(LineItem v, ProtoEncoder e) {
    if (v.sku() != null) {
      e.writeTag(10);
      e.writeString(v.sku());
    }
    if (v.title() != null) {
      e.writeTag(18);
      e.writeString(v.title());
    }
    if (v.quantity() != 0) {
      e.writeTag(24);
      e.writeInt64(v.quantity());
    }
    if (v.priceCents() != 0) {
      e.writeTag(32);
      e.writeInt64(v.priceCents());
    }
  }

  private static LineItem readLineItem(ProtoDecoder d) {
    String sku = null;
    String title = null;
    long quantity = 0;
    long priceCents = 0;
    for (int tag = d.readTag(); tag != 0; tag = d.readTag()) {
      switch (tag) {
        case 10 -> sku = d.readString();
        case 18 -> title = d.readString();
        case 24 -> quantity = d.readInt64();
        case 32 -> priceCents = d.readInt64();
        default -> d.skipField(tag);
      }
    }
    return new LineItem(sku, title, quantity, priceCents);
  }
}
