package io.boltgen.bench.codec.model;

/** One line of an {@link Order}. */
public record LineItem(String sku, String title, long quantity, long priceCents) {}
