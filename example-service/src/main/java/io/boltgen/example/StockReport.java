package io.boltgen.example;

import java.util.List;

/** A report over every SKU; building it is slow. */
public record StockReport(List<Stock> stocks, long totalUnits) {}
