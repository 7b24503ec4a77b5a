package io.boltgen.bench.codec.model;

import java.util.List;
import java.util.Map;

/**
 * An order-shaped message for the codec benchmark: longs, strings (one non-ASCII), a nested record, a list
 * of records, a map and an enum. Mirrored field for field by {@code order.proto} (protoc) and by
 * {@link io.boltgen.bench.codec.hessian.HOrder} (Hessian2).
 */
public record Order(
    long id,
    String customerId,
    Address shipTo,
    List<LineItem> items,
    Map<String, Long> attributes,
    Status status,
    long createdAtMillis,
    String note) {}
