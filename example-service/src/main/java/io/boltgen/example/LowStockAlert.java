package io.boltgen.example;

/** Tells a client that a SKU it reserved is running low. */
public record LowStockAlert(SkuId sku, int available, String reservationId) {}
