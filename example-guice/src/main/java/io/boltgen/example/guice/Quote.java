package io.boltgen.example.guice;

/**
 * A price.
 *
 * @param sku the SKU
 * @param quantity the number of units
 * @param totalCents what they cost together, in cents
 */
public record Quote(String sku, int quantity, long totalCents) {}
