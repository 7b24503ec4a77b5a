package io.boltgen.example;

/** A stock-keeping unit, such as {@code "apple"}. */
public record SkuId(String value) {}
