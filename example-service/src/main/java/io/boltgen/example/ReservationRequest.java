package io.boltgen.example;

import java.util.Optional;

/** Asks to set {@code quantity} units of {@code sku} aside for {@code customer}. */
public record ReservationRequest(SkuId sku, int quantity, String customer, Optional<String> note) {}
