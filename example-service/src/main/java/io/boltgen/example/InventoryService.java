package io.boltgen.example;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.Publishers;
import io.boltgen.runtime.ServerContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of {@link Inventory}: an in-memory inventory. Thread-safe (one lock per SKU).
 *
 * <p>A reservation is a hold, like an item in a shopping cart: its units stay set aside only while the
 * connection that asked for them stays open, and at most until the reservation's expiry. When the client
 * closes its connection, exits or is killed, its units are available again, so any number of clients can run
 * one after the other, or at the same time, against one server without draining it. Holds are checked on
 * every read of a SKU (a closed connection is no longer {@link Connection#isActive active}), so no listener
 * has to be registered with the server, and a connection that closes while its reservation is being made
 * leaves nothing behind either.
 */
public final class InventoryService implements Inventory {

  private static final Logger LOG = LoggerFactory.getLogger(InventoryService.class);

  /** At or below this many units a SKU is {@link StockLevel#LOW} and reservers are alerted. */
  static final int LOW_WATER = 5;

  /** How long a reservation is held at most, even on a connection that stays open. */
  static final long HOLD_MILLIS = 600_000;

  private final Map<String, Item> items = new ConcurrentHashMap<>();
  private final BlockingQueue<AuditEvent> auditLog = new LinkedBlockingQueue<>();
  private final AtomicInteger reservations = new AtomicInteger();
  private final Executor reservationWork;
  private final long reportMillis;
  private final long holdMillis;

  /**
   * An inventory with the demo's SKUs.
   *
   * @param reservationWork where reservations run (they complete the caller's future from there)
   * @param reportMillis how long {@link #report} takes
   */
  public InventoryService(Executor reservationWork, long reportMillis) {
    this(reservationWork, reportMillis, HOLD_MILLIS);
  }

  /** The same, holding each reservation {@code holdMillis} at most. */
  InventoryService(Executor reservationWork, long reportMillis, long holdMillis) {
    this.reservationWork = reservationWork;
    this.reportMillis = reportMillis;
    this.holdMillis = holdMillis;
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
    // the connection this request came on: the reservation is held while it stays open, and the server calls
    // the client back over it (read it on this thread)
    Connection caller = ServerContext.current().connection();
    return CompletableFuture.supplyAsync(() -> {
      Item item;
      try {
        item = item(request.sku());
      } catch (UnknownSkuException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
      String id = "R-" + reservations.incrementAndGet();
      long expiresAt = System.currentTimeMillis() + holdMillis;
      int left = item.reserve(new Hold(id, request.customer(), request.quantity(), caller, expiresAt));
      if (left <= LOW_WATER) {
        // duplex: the server calls the client's StockAlerts over the same connection
        try {
          StockAlertsBolt.newClient(caller.channel()).lowStock(new LowStockAlert(request.sku(), left, id));
        } catch (RuntimeException e) {
          // an alert is advice: the reservation stands whether or not the client took it
          LOG.warn("could not alert {} that {} is low: {}", caller.remoteAddress(), request.sku().value(),
              e.toString());
        }
      }
      return new Reservation(id, request.sku(), request.quantity(), expiresAt);
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

  @Override
  public Flow.Publisher<Stock> browse(boolean includeEmpty) {
    List<Stock> stocks = new ArrayList<>();
    for (Item item : new TreeMap<>(items).values()) {
      Stock stock = item.snapshot();
      if (includeEmpty || stock.available() > 0) {
        stocks.add(stock);
      }
    }
    return Publishers.of(stocks);
  }

  @Override
  public CompletableFuture<StockReport> tally(Flow.Publisher<SkuId> skus) {
    CompletableFuture<StockReport> report = new CompletableFuture<>();
    skus.subscribe(new Flow.Subscriber<SkuId>() {
      private final List<Stock> stocks = new ArrayList<>();
      private Flow.Subscription subscription;

      @Override
      public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1); // one SKU at a time: the caller sends no faster than this reads
      }

      @Override
      public void onNext(SkuId sku) {
        try {
          stocks.add(get(sku));
          subscription.request(1);
        } catch (UnknownSkuException e) {
          subscription.cancel();
          report.completeExceptionally(e);
        }
      }

      @Override
      public void onError(Throwable error) {
        report.completeExceptionally(error);
      }

      @Override
      public void onComplete() {
        report.complete(new StockReport(stocks, stocks.stream().mapToLong(Stock::available).sum()));
      }
    });
    return report;
  }

  @Override
  public Flow.Publisher<Stock> lookup(Flow.Publisher<SkuId> skus) {
    // each SKU as it comes, at the pace the caller reads the answers
    return Publishers.map(skus, sku -> {
      try {
        return get(sku);
      } catch (UnknownSkuException e) {
        return new Stock(sku, 0, StockLevel.UNKNOWN, List.of(), Map.of());
      }
    });
  }

  private Item item(SkuId sku) throws UnknownSkuException {
    Item item = sku == null ? null : items.get(sku.value());
    if (item == null) {
      throw new UnknownSkuException("no such SKU: " + (sku == null ? null : sku.value()));
    }
    return item;
  }

  /** Units of a SKU set aside for {@code customer} while {@code owner} stays open, until {@code expiresAtMillis}. */
  private record Hold(String id, String customer, int quantity, Connection owner, long expiresAtMillis) {
    Hold {
      Objects.requireNonNull(owner, "owner");
    }

    boolean isHeld(long nowMillis) {
      return nowMillis < expiresAtMillis && owner.isActive();
    }
  }

  /** One SKU's state: what is on the shelves, and the holds on it. */
  private static final class Item {
    private final SkuId sku;
    private final Map<String, Integer> byWarehouse;
    private final int shelved;
    @GuardedBy("this")
    private final List<Hold> holds = new ArrayList<>();

    Item(SkuId sku, Map<String, Integer> byWarehouse) {
      this.sku = sku;
      this.byWarehouse = byWarehouse;
      this.shelved = byWarehouse.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Adds {@code hold}; returns the units left available. */
    synchronized int reserve(Hold hold) {
      int available = available();
      if (hold.quantity() <= 0 || hold.quantity() > available) {
        throw new IllegalArgumentException("cannot reserve " + hold.quantity() + " of " + sku.value() + ": "
            + available + " available");
      }
      holds.add(hold);
      return available - hold.quantity();
    }

    /** Units not held, once the holds of closed connections and past their expiry are given back. */
    @GuardedBy("this")
    private int available() {
      long now = System.currentTimeMillis();
      holds.removeIf(hold -> !hold.isHeld(now));
      return shelved - holds.stream().mapToInt(Hold::quantity).sum();
    }

    synchronized Stock snapshot() {
      int available = available();
      StockLevel level = available == 0 ? StockLevel.OUT_OF_STOCK
          : available <= LOW_WATER ? StockLevel.LOW : StockLevel.IN_STOCK;
      List<WarehouseStock> warehouses = new ArrayList<>();
      byWarehouse.forEach((name, quantity) -> warehouses.add(new WarehouseStock(name, quantity)));
      Map<String, Long> reserved = new LinkedHashMap<>();
      for (Hold hold : holds) {
        reserved.merge(hold.customer(), (long) hold.quantity(), Long::sum);
      }
      return new Stock(sku, available, level, warehouses, reserved);
    }
  }
}
