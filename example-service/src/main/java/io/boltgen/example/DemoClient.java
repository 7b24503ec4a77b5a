package io.boltgen.example;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Drives an {@link Inventory} through every call style and prints what happened. Each step checks its
 * outcome; {@link #run} returns whether all of them came out as expected.
 */
public final class DemoClient {

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
    future();
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
      Stock apple = inventory.get(new SkuId("apple"));
      step("sync", "get(apple)", describe(apple), apple.available() == 12 && apple.warehouses().size() == 2);
    } catch (UnknownSkuException | BoltException e) {
      step("sync", "get(apple)", e.toString(), false);
    }
  }

  private void future() throws InterruptedException {
    ReservationRequest request = new ReservationRequest(new SkuId("apple"), 10, "acme", Optional.of("rush"));
    CompletableFuture<Reservation> pending = inventory.reserve(request);
    out.printf("%-9s %-34s    (returned at once: done=%s)%n", "future", "reserve(apple x10 for acme)", pending.isDone());
    try {
      Reservation r = pending.get(5, TimeUnit.SECONDS);
      step("future", "reserve(apple x10 for acme)", r.reservationId() + ", " + r.quantity() + " units",
          r.quantity() == 10);
    } catch (Exception e) {
      step("future", "reserve(apple x10 for acme)", e.toString(), false);
    }
    LowStockAlert alert = alerts.alerts().poll(5, TimeUnit.SECONDS);
    step("duplex", "server -> client lowStock(...)", alert == null ? "no call back"
        : "the server called back over our connection: " + alert.sku().value() + " has " + alert.available()
            + " left after " + alert.reservationId(), alert != null && alert.available() == 2);
  }

  private void callback() throws InterruptedException {
    LinkedBlockingQueue<String> outcome = new LinkedBlockingQueue<>();
    inventory.watch(new SkuId("pear"), new BoltCallback<Stock>() {
      @Override
      public void onResponse(Stock result) {
        outcome.add(describe(result) + " (on thread " + Thread.currentThread().getName() + ")");
      }

      @Override
      public void onError(Throwable error) {
        outcome.add("error " + error);
      }
    });
    String result = outcome.poll(5, TimeUnit.SECONDS);
    step("callback", "watch(pear)", String.valueOf(result), result != null && result.startsWith("pear: 3"));
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

  static String describe(Stock stock) {
    return stock.sku().value() + ": " + stock.available() + " available, " + stock.level() + ", in "
        + stock.warehouses().size() + " warehouse(s), reserved " + stock.reservedByCustomer();
  }
}
