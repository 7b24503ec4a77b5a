package io.boltgen.example;

/** How much of a SKU is left. Constant 0 is the proto3 default, so it means "not known". */
public enum StockLevel {
  UNKNOWN,
  IN_STOCK,
  LOW,
  OUT_OF_STOCK
}
