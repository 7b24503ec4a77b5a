package io.boltgen.example;

/** A client's answer to a {@link LowStockAlert}. */
public record AlertAck(String client, boolean willRestock) {}
