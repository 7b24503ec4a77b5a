package io.boltgen.example.guice;

import jakarta.inject.Inject;
import java.util.List;

/** An application class calling {@link Pricing}: it neither knows nor cares that its client is generated. */
public final class Checkout {

  private final Pricing pricing;

  /**
   * Called by the container.
   *
   * @param pricing the client, from {@code PricingBoltClientProvider}
   */
  @Inject
  public Checkout(Pricing pricing) {
    this.pricing = pricing;
  }

  /** What {@code quantity} units of each of {@code skus} cost together, in cents. */
  public long total(List<String> skus, int quantity) {
    long total = 0;
    for (String sku : skus) {
      total += pricing.quote(sku, quantity).totalCents();
    }
    return total;
  }

  /** The unit price of {@code sku}, asked without blocking a thread on the answer. */
  public long unitPrice(String sku) {
    return pricing.unitPrice(sku).join();
  }
}
