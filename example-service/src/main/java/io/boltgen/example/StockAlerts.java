package io.boltgen.example;

import io.boltgen.annotation.BoltService;

/**
 * Served by inventory clients, called by the inventory server over the connection the client opened
 * (duplex): the server needs no address of its clients.
 */
@BoltService(name = "demo.StockAlerts", version = "1.0", timeoutMillis = 2000)
public interface StockAlerts {

  /** A SKU the client reserved is running low; the client says whether it will restock. */
  AlertAck lowStock(LowStockAlert alert);
}
