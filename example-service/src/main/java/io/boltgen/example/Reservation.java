package io.boltgen.example;

/** A granted reservation. */
public record Reservation(String reservationId, SkuId sku, int quantity, long expiresAtMillis) {}
