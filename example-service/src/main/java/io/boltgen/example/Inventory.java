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
   * come, and its reading paces the server). Served over gRPC; a Bolt caller cannot call it yet.
   */
  Flow.Publisher<Stock> browse(boolean includeEmpty);
}
