package io.boltgen.example;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.ServerContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server side of {@link Inventory}: an in-memory inventory. Thread-safe (one lock per SKU).
 */
public final class InventoryService implements Inventory {

  /** At or below this many units a SKU is {@link StockLevel#LOW} and reservers are alerted. */
  static final int LOW_WATER = 5;

  private final Map<String, Item> items = new ConcurrentHashMap<>();
  private final BlockingQueue<AuditEvent> auditLog = new LinkedBlockingQueue<>();
  private final AtomicInteger reservations = new AtomicInteger();
  private final Executor reservationWork;
  private final long reportMillis;

  /**
   * An inventory with the demo's SKUs.
   *
   * @param reservationWork where reservations run (they complete the caller's future from there)
   * @param reportMillis how long {@link #report} takes
   */
  public InventoryService(Executor reservationWork, long reportMillis) {
    this.reservationWork = reservationWork;
    this.reportMillis = reportMillis;
    add("apple", Map.of("north", 8, "south", 4));
    add("pear", Map.of("north", 3));
    add("plum", Map.of());
  }

  private void add(String sku, Map<String, Integer> byWarehouse) {
    items.put(sku, new Item(new SkuId(sku), new TreeMap<>(byWarehouse))); // warehouses in name order
  }

  /** The audit events received so far, oldest first. */
  public BlockingQueue<AuditEvent> auditLog() {
    return auditLog;
  }

  @Override
  public Stock get(SkuId sku) throws UnknownSkuException {
    return item(sku).snapshot();
  }

  @Override
  public CompletableFuture<Reservation> reserve(ReservationRequest request) {
    // the connection this request came on, to call the client back over it (read it on this thread)
    BoltChannel caller = ServerContext.current().connection().channel();
    return CompletableFuture.supplyAsync(() -> {
      Item item;
      try {
        item = item(request.sku());
      } catch (UnknownSkuException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
      String id = "R-" + reservations.incrementAndGet();
      int left = item.reserve(request.customer(), request.quantity());
      if (left <= LOW_WATER) {
        // duplex: the server calls the client's StockAlerts over the same connection
        StockAlertsBolt.newClient(caller).lowStock(new LowStockAlert(request.sku(), left, id));
      }
      return new Reservation(id, request.sku(), request.quantity(), System.currentTimeMillis() + 600_000);
    }, reservationWork);
  }

  @Override
  public void watch(SkuId sku, BoltCallback<Stock> callback) {
    try {
      callback.onResponse(get(sku));
    } catch (UnknownSkuException e) {
      callback.onError(e);
    }
  }

  @Override
  public void audit(AuditEvent event) {
    auditLog.add(event);
  }

  @Override
  public StockReport report(boolean includeEmpty) {
    try {
      TimeUnit.MILLISECONDS.sleep(reportMillis); // the expensive part of a real report
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Stock> stocks = new ArrayList<>();
    long total = 0;
    for (Item item : items.values()) {
      Stock stock = item.snapshot();
      if (includeEmpty || stock.available() > 0) {
        stocks.add(stock);
        total += stock.available();
      }
    }
    return new StockReport(stocks, total);
  }

  private Item item(SkuId sku) throws UnknownSkuException {
    Item item = sku == null ? null : items.get(sku.value());
    if (item == null) {
      throw new UnknownSkuException("no such SKU: " + (sku == null ? null : sku.value()));
    }
    return item;
  }

  /** One SKU's state. */
  private static final class Item {
    private final SkuId sku;
    private final Map<String, Integer> byWarehouse;
    private final Map<String, Long> reserved = new LinkedHashMap<>();

    Item(SkuId sku, Map<String, Integer> byWarehouse) {
      this.sku = sku;
      this.byWarehouse = byWarehouse;
    }

    synchronized int reserve(String customer, int quantity) {
      int available = available();
      if (quantity <= 0 || quantity > available) {
        throw new IllegalArgumentException("cannot reserve " + quantity + " of " + sku.value() + ": "
            + available + " available");
      }
      reserved.merge(customer, (long) quantity, Long::sum);
      return available - quantity;
    }

    private int available() {
      int total = byWarehouse.values().stream().mapToInt(Integer::intValue).sum();
      long taken = reserved.values().stream().mapToLong(Long::longValue).sum();
      return (int) (total - taken);
    }

    synchronized Stock snapshot() {
      int available = available();
      StockLevel level = available == 0 ? StockLevel.OUT_OF_STOCK
          : available <= LOW_WATER ? StockLevel.LOW : StockLevel.IN_STOCK;
      List<WarehouseStock> warehouses = new ArrayList<>();
      byWarehouse.forEach((name, quantity) -> warehouses.add(new WarehouseStock(name, quantity)));
      return new Stock(sku, available, level, warehouses, new LinkedHashMap<>(reserved));
    }
  }
}
