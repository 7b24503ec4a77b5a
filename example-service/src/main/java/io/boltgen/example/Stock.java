package io.boltgen.example;

import java.util.List;
import java.util.Map;

/**
 * The stock of one SKU.
 *
 * @param sku the SKU
 * @param available units that can still be reserved
 * @param level a summary of {@code available}
 * @param warehouses where the units are
 * @param reservedByCustomer units already reserved, per customer
 */
public record Stock(
    SkuId sku,
    int available,
    StockLevel level,
    List<WarehouseStock> warehouses,
    Map<String, Long> reservedByCustomer) {}
