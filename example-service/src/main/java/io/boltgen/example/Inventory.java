package io.boltgen.example;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.annotation.BoltMethod;
import io.boltgen.annotation.BoltService;
import io.boltgen.annotation.Idempotent;
import io.boltgen.annotation.Oneway;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** An inventory: stock per SKU, reservations, an audit log. Each method shows one call style. */
@BoltService(name = "demo.Inventory", version = "1.0", timeoutMillis = 3000)
public interface Inventory {

  /**
   * The stock of one SKU (sync: the caller blocks until the answer). A read, so a balancing client may ask
   * another instance again when one fails after the request left.
   *
   * @throws UnknownSkuException if there is no such SKU
   */
  @Idempotent
  Stock get(SkuId sku) throws UnknownSkuException;

  /**
   * Reserves units of a SKU (future: the caller never blocks). When the reservation leaves the SKU low,
   * the server calls the client back over the same connection ({@link StockAlerts#lowStock}). The units stay
   * reserved while that connection stays open, until the reservation expires at the latest: a client that
   * closes, exits or dies gives them back.
   */
  CompletableFuture<Reservation> reserve(ReservationRequest request);

  /** Sends the stock of a SKU to {@code callback}, on the client's callback executor. */
  @Idempotent
  void watch(SkuId sku, BoltCallback<Stock> callback);

  /** Records an audit event (oneway: no answer, no error). */
  @Oneway
  void audit(AuditEvent event);

  /** Builds a report of every SKU; slow, so it has a short timeout of its own. */
  @BoltMethod(timeoutMillis = 500)
  StockReport report(boolean includeEmpty);

  /**
   * Streams the stock of every SKU, in SKU order, one message each (server streaming: the caller reads them as they
   * come, and its reading paces the server).
   */
  Flow.Publisher<Stock> browse(boolean includeEmpty);

  /**
   * Reports the stock of the SKUs the caller streams (client streaming: the caller sends SKUs as it finds them, and
   * the report comes after its last).
   *
   * @throws UnknownSkuException if one of them is no SKU: the call ends then, whatever the caller still sends
   */
  CompletableFuture<StockReport> tally(Flow.Publisher<SkuId> skus) throws UnknownSkuException;

  /**
   * Answers each SKU the caller streams with its stock, as they come (bidirectional streaming: the caller's reading
   * of the answers paces the server's reading of the SKUs). An unknown SKU is answered with level
   * {@link StockLevel#UNKNOWN} and no units.
   */
  Flow.Publisher<Stock> lookup(Flow.Publisher<SkuId> skus);
}
