package io.boltgen.example.guice;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The server's implementation of {@link Pricing}: a fixed price list. */
public final class PriceList implements Pricing {

  private final Map<String, Long> unitCents = Map.of("apple", 40L, "pear", 55L);

  /** A price list of apples and pears; a container constructs it through this public constructor. */
  public PriceList() {}

  @Override
  public Quote quote(String sku, int quantity) {
    Long unit = unitCents.get(sku);
    if (unit == null) {
      throw new IllegalArgumentException("no price for " + sku);
    }
    return new Quote(sku, quantity, unit * quantity);
  }

  @Override
  public CompletableFuture<Long> unitPrice(String sku) {
    return CompletableFuture.completedFuture(unitCents.getOrDefault(sku, -1L));
  }
}
