package io.boltgen.example;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Drives an {@link Inventory} through every call style and prints what happened. Each step checks its
 * outcome; {@link #run} returns whether all of them came out as expected.
 *
 * <p>The demo can run against one server any number of times in a row, and from up to three clients at
 * once: the checks look at what is on the shelves (which reservations do not change) and at this client's own
 * reservation and alert, never at the units other clients hold at that moment. The reservation is of one of
 * the three pears, a SKU already low, so the server's low-stock call back is for this client's own
 * reservation; the server holds it while this client stays connected and gives it back when it closes.
 */
public final class DemoClient {

  /** The SKU the demo reserves: {@link StockLevel#LOW}, with 3 units on the shelf. */
  private static final SkuId PEAR = new SkuId("pear");
  private static final int PEARS_SHELVED = 3;
  private static final SkuId APPLE = new SkuId("apple");
  private static final int APPLES_SHELVED = 12;

  private final Inventory inventory;
  private final RecordingStockAlerts alerts;
  private final PrintStream out;
  private boolean ok = true;

  /**
   * @param inventory the stub to call
   * @param alerts the client's alert service (the server calls it back during {@code reserve})
   * @param out where the story goes
   */
  public DemoClient(Inventory inventory, RecordingStockAlerts alerts, PrintStream out) {
    this.inventory = inventory;
    this.alerts = alerts;
    this.out = out;
  }

  /** Runs every step; true when each one gave the expected outcome. */
  public boolean run() throws InterruptedException {
    sync();
    duplex(future());
    callback();
    oneway();
    declaredError();
    timeout();
    out.println(ok ? "all calls behaved as expected" : "SOME CALLS DID NOT BEHAVE AS EXPECTED");
    return ok;
  }

  private void step(String style, String call, String outcome, boolean expected) {
    out.printf("%-9s %-34s -> %s%n", style, call, outcome);
    if (!expected) {
      out.println("          ^ unexpected");
      ok = false;
    }
  }

  private void sync() {
    try {
      Stock apple = inventory.get(APPLE);
      step("sync", "get(apple)", describe(apple), isShelved(apple, APPLES_SHELVED, 2));
    } catch (UnknownSkuException | BoltException e) {
      step("sync", "get(apple)", e.toString(), false);
    }
  }

  /** Reserves one pear; returns the reservation, or null if there is none. */
  private Reservation future() {
    ReservationRequest request = new ReservationRequest(PEAR, 1, "acme", Optional.of("rush"));
    CompletableFuture<Reservation> pending = inventory.reserve(request);
    out.printf("%-9s %-34s    (returned at once: done=%s)%n", "future", "reserve(pear x1 for acme)", pending.isDone());
    try {
      Reservation r = pending.get(5, TimeUnit.SECONDS);
      boolean expected = r.quantity() == 1 && PEAR.equals(r.sku());
      step("future", "reserve(pear x1 for acme)", r.reservationId() + ", " + r.quantity()
          + " unit, held while this client stays connected", expected);
      return expected ? r : null;
    } catch (Exception e) {
      step("future", "reserve(pear x1 for acme)", e.toString(), false);
      return null;
    }
  }

  /** The server's call back for {@code reservation}, which left pears low. */
  private void duplex(Reservation reservation) throws InterruptedException {
    String call = "server -> client lowStock(...)";
    if (reservation == null) {
      step("duplex", call, "no reservation, so no call back", false);
      return;
    }
    LowStockAlert alert = alertFor(reservation.reservationId(), TimeUnit.SECONDS.toNanos(5));
    step("duplex", call, alert == null ? "no call back for " + reservation.reservationId()
        : "the server called back over our connection: " + alert.sku().value() + " has " + alert.available()
            + " left after " + alert.reservationId(),
        alert != null && PEAR.equals(alert.sku()) && alert.available() >= 0 && alert.available() < PEARS_SHELVED);
  }

  /** The alert naming {@code reservationId}, waiting at most {@code nanos}; null if none came. */
  private LowStockAlert alertFor(String reservationId, long nanos) throws InterruptedException {
    long deadline = System.nanoTime() + nanos;
    for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
      LowStockAlert alert = alerts.alerts().poll(left, TimeUnit.NANOSECONDS);
      if (alert == null || alert.reservationId().equals(reservationId)) {
        return alert;
      }
    }
    return null;
  }

  private void callback() throws InterruptedException {
    LinkedBlockingQueue<Object> outcome = new LinkedBlockingQueue<>();
    inventory.watch(PEAR, new BoltCallback<Stock>() {
      @Override
      public void onResponse(Stock result) {
        outcome.add(List.of(result, Thread.currentThread().getName()));
      }

      @Override
      public void onError(Throwable error) {
        outcome.add(error);
      }
    });
    Object result = outcome.poll(5, TimeUnit.SECONDS);
    if (result instanceof List<?> answer && answer.get(0) instanceof Stock pear) {
      step("callback", "watch(pear)", describe(pear) + " (on thread " + answer.get(1) + ")",
          isShelved(pear, PEARS_SHELVED, 1));
    } else {
      step("callback", "watch(pear)", result == null ? "no answer" : "error " + result, false);
    }
  }

  private void oneway() {
    inventory.audit(new AuditEvent("demo", "looked around", Set.of("demo", "readonly"), Map.of("sku", "plum")));
    step("oneway", "audit(looked around)", "sent; no answer is expected", true);
  }

  private void declaredError() {
    try {
      Stock stock = inventory.get(new SkuId("durian"));
      step("error", "get(durian)", "unexpected " + describe(stock), false);
    } catch (UnknownSkuException e) {
      step("error", "get(durian)", "UnknownSkuException: " + e.getMessage(), e.getMessage().contains("durian"));
    }
  }

  private void timeout() {
    long start = System.nanoTime();
    try {
      StockReport report = inventory.report(true);
      step("timeout", "report() [500 ms timeout]", "unexpected answer " + report, false);
    } catch (BoltException e) {
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      step("timeout", "report() [500 ms timeout]", e.status() + " after " + millis + " ms",
          e.status() == ResponseStatus.TIMEOUT);
    }
  }

  /**
   * Whether {@code stock} is the demo's: {@code shelved} units in {@code warehouses} warehouses, each unit either
   * available or reserved (by whichever clients hold some now).
   */
  private static boolean isShelved(Stock stock, int shelved, int warehouses) {
    int onShelves = stock.warehouses().stream().mapToInt(WarehouseStock::quantity).sum();
    long reserved = stock.reservedByCustomer().values().stream().mapToLong(Long::longValue).sum();
    return onShelves == shelved && stock.warehouses().size() == warehouses
        && stock.available() + reserved == shelved;
  }

  static String describe(Stock stock) {
    return stock.sku().value() + ": " + stock.available() + " available, " + stock.level() + ", in "
        + stock.warehouses().size() + " warehouse(s), reserved " + stock.reservedByCustomer();
  }
}
