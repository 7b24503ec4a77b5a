package io.boltgen.example.guice;

import io.boltgen.annotation.BoltService;
import java.util.concurrent.CompletableFuture;

/** Prices of SKUs. */
@BoltService(name = "demo.Pricing", version = "1.0", timeoutMillis = 3000)
public interface Pricing {

  /** The price of {@code quantity} units of {@code sku} (sync). */
  Quote quote(String sku, int quantity);

  /** The unit price of {@code sku} in cents, or -1 when it has none (future). */
  CompletableFuture<Long> unitPrice(String sku);
}
