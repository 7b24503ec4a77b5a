package io.boltgen.example;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** The client's side of {@link StockAlerts}: remembers each alert and promises to restock. */
public final class RecordingStockAlerts implements StockAlerts {

  private final String client;
  private final BlockingQueue<LowStockAlert> alerts = new LinkedBlockingQueue<>();

  /** Alerts answered in the name of {@code client}. */
  public RecordingStockAlerts(String client) {
    this.client = client;
  }

  /** The alerts received so far. */
  public BlockingQueue<LowStockAlert> alerts() {
    return alerts;
  }

  @Override
  public AlertAck lowStock(LowStockAlert alert) {
    alerts.add(alert);
    return new AlertAck(client, alert.available() < 3);
  }
}
