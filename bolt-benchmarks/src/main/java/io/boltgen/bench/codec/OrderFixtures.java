package io.boltgen.bench.codec;

import io.boltgen.bench.codec.hessian.HAddress;
import io.boltgen.bench.codec.hessian.HLineItem;
import io.boltgen.bench.codec.hessian.HOrder;
import io.boltgen.bench.codec.hessian.HStatus;
import io.boltgen.bench.codec.model.Address;
import io.boltgen.bench.codec.model.LineItem;
import io.boltgen.bench.codec.model.Order;
import io.boltgen.bench.codec.model.Status;
import io.boltgen.bench.codec.proto.OrderProto;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one order every codec benchmark encodes, built as a record, as a protoc message and as Hessian2
 * classes from the same values, plus conversions back to the record for equality checks.
 */
public final class OrderFixtures {

  /** Line items in the benchmark order. */
  public static final int ITEMS = 8;

  private static final String[] TITLES = {
    "Stainless steel water bottle, 750 ml",
    "Merino wool socks (pair), size 42-45",
    "USB-C charging cable, braided, 2 m",
    "Notebook, dotted, A5, 120 pages",
    "Espresso beans, single origin, 1 kg",
    "Cast iron skillet, 26 cm",
    "Headlamp, 400 lumen, rechargeable",
    "Linen tea towel, set of three",
  };

  private OrderFixtures() {}

  /** The benchmark order as records. */
  public static Order order() {
    Address address = new Address("Leopoldstraße 12", "München", "80802", "DE");
    List<LineItem> items = new ArrayList<>();
    for (int i = 0; i < ITEMS; i++) {
      items.add(new LineItem(String.format("SKU-%06d", 104_729 * (i + 1) % 1_000_000), TITLES[i % TITLES.length],
          1 + i % 3, 499 + 1_250L * i));
    }
    Map<String, Long> attributes = new LinkedHashMap<>();
    attributes.put("loyaltyPoints", 1_200L);
    attributes.put("giftWrap", 1L);
    attributes.put("warehouse", 7L);
    attributes.put("campaign", 20_240_917L);
    return new Order(9_876_543_210L, "customer-0042-7781", address, Collections.unmodifiableList(items),
        Collections.unmodifiableMap(attributes), Status.PAID, 1_726_000_000_000L,
        "Leave the parcel with the concierge if nobody answers. Thanks!");
  }

  /** The same order as a protoc-generated message. */
  @SuppressWarnings("EnumOrdinal") // the proto's Status numbers are the ordinals, as boltgen numbers an enum
  public static OrderProto.Order proto(Order o) {
    OrderProto.Order.Builder b = OrderProto.Order.newBuilder()
        .setId(o.id())
        .setCustomerId(o.customerId())
        .setShipTo(OrderProto.Address.newBuilder()
            .setStreet(o.shipTo().street())
            .setCity(o.shipTo().city())
            .setZip(o.shipTo().zip())
            .setCountry(o.shipTo().country()))
        .putAllAttributes(o.attributes())
        .setStatus(OrderProto.Status.forNumber(o.status().ordinal()))
        .setCreatedAtMillis(o.createdAtMillis())
        .setNote(o.note());
    for (LineItem item : o.items()) {
      b.addItems(OrderProto.LineItem.newBuilder()
          .setSku(item.sku())
          .setTitle(item.title())
          .setQuantity(item.quantity())
          .setPriceCents(item.priceCents()));
    }
    return b.build();
  }

  /** The same order as Hessian2 classes. */
  public static HOrder hessian(Order o) {
    HOrder h = new HOrder();
    h.id = o.id();
    h.customerId = o.customerId();
    h.shipTo = new HAddress();
    h.shipTo.street = o.shipTo().street();
    h.shipTo.city = o.shipTo().city();
    h.shipTo.zip = o.shipTo().zip();
    h.shipTo.country = o.shipTo().country();
    h.items = new ArrayList<>();
    for (LineItem item : o.items()) {
      HLineItem hi = new HLineItem();
      hi.sku = item.sku();
      hi.title = item.title();
      hi.quantity = item.quantity();
      hi.priceCents = item.priceCents();
      h.items.add(hi);
    }
    h.attributes = new LinkedHashMap<>(o.attributes());
    h.status = HStatus.valueOf(o.status().name());
    h.createdAtMillis = o.createdAtMillis();
    h.note = o.note();
    return h;
  }

  /** A protoc message as records (for equality checks). */
  @SuppressWarnings("EnumOrdinal") // the proto's Status numbers are the ordinals, as boltgen numbers an enum
  public static Order fromProto(OrderProto.Order p) {
    List<LineItem> items = new ArrayList<>();
    for (OrderProto.LineItem i : p.getItemsList()) {
      items.add(new LineItem(i.getSku(), i.getTitle(), i.getQuantity(), i.getPriceCents()));
    }
    OrderProto.Address a = p.getShipTo();
    return new Order(p.getId(), p.getCustomerId(), new Address(a.getStreet(), a.getCity(), a.getZip(), a.getCountry()),
        items, new LinkedHashMap<>(p.getAttributesMap()), Status.values()[p.getStatusValue()],
        p.getCreatedAtMillis(), p.getNote());
  }

  /** Hessian2 classes as records (for equality checks). */
  public static Order fromHessian(HOrder h) {
    List<LineItem> items = new ArrayList<>();
    for (HLineItem i : h.items) {
      items.add(new LineItem(i.sku, i.title, i.quantity, i.priceCents));
    }
    return new Order(h.id, h.customerId, new Address(h.shipTo.street, h.shipTo.city, h.shipTo.zip, h.shipTo.country),
        items, new LinkedHashMap<>(h.attributes), Status.valueOf(h.status.name()), h.createdAtMillis, h.note);
  }
}
