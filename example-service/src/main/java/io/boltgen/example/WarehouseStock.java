package io.boltgen.example;

/** The quantity of a SKU held in one warehouse. */
public record WarehouseStock(String warehouse, int quantity) {}
