package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.Publishers;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.WireProtocol;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The generated stub and skeleton of {@link Inventory}, through the real runtime on loopback. */
class InventoryEndToEndTest {

  private final ExecutorService work = Executors.newFixedThreadPool(2);
  private final RecordingStockAlerts alerts = new RecordingStockAlerts("test-client");
  private InventoryService service;
  private BoltServer server;
  private BoltClient client;
  private InventoryBoltStub inventory;

  @BeforeEach
  void start() {
    service = new InventoryService(work, 1_000);
    server = BoltServer.builder().bind("127.0.0.1", 0).service(InventoryBolt.bind(service)).build().start();
    client = ExampleMain.newClient(alerts);
    inventory = InventoryBolt.newClient(client.channel("127.0.0.1:" + server.port()));
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
    work.shutdownNow();
  }

  @Test
  void syncReturnsTheWholeRecordGraph() throws Exception {
    Stock apple = inventory.get(new SkuId("apple"));
    assertThat(apple).isEqualTo(new Stock(new SkuId("apple"), 12, StockLevel.IN_STOCK,
        List.of(new WarehouseStock("north", 8), new WarehouseStock("south", 4)), Map.of()));
    Stock plum = inventory.get(new SkuId("plum"));
    assertThat(plum.level()).isEqualTo(StockLevel.OUT_OF_STOCK);
    assertThat(plum.warehouses()).isEmpty();
  }

  @Test
  void aStreamingMethodStreamsOverBolt() throws Exception {
    List<String> browsed = new java.util.concurrent.CopyOnWriteArrayList<>();
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    inventory.browse(true).subscribe(new Flow.Subscriber<>() {
      private Flow.Subscription subscription;

      @Override
      public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1); // one at a time: the stream goes on as the subscriber reads
      }

      @Override
      public void onNext(Stock item) {
        browsed.add(item.sku().value() + "=" + item.available());
        subscription.request(1);
      }

      @Override
      public void onError(Throwable error) {
        ended.complete(error);
      }

      @Override
      public void onComplete() {
        ended.complete(null);
      }
    });
    assertThat(ended.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(browsed).containsExactly("apple=12", "pear=3", "plum=0"); // every SKU, in SKU order
    assertThat(inventory.get(new SkuId("apple")).available()).isEqualTo(12); // the channel serves on
  }

  @Test
  void streamsOfRequestsGoOverBoltFromTheGeneratedStub() throws Exception {
    // client streaming: the SKUs as a publisher, the report once the last was read
    StockReport report = inventory.tally(Publishers.of(List.of(new SkuId("apple"), new SkuId("pear"))))
        .get(10, TimeUnit.SECONDS);
    assertThat(report.stocks()).extracting(stock -> stock.sku().value()).containsExactly("apple", "pear");
    assertThat(report.totalUnits()).isEqualTo(15);
    // a declared exception ends the call, mapped back to itself
    assertThatThrownBy(() -> inventory.tally(Publishers.of(List.of(new SkuId("kiwi")))).get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(UnknownSkuException.class);
    // bidirectional: each SKU's stock as it comes
    List<String> looked = new java.util.concurrent.CopyOnWriteArrayList<>();
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    inventory.lookup(Publishers.of(List.of(new SkuId("plum"), new SkuId("kiwi"), new SkuId("apple"))))
        .subscribe(new Flow.Subscriber<>() {
          @Override
          public void onSubscribe(Flow.Subscription s) {
            s.request(Long.MAX_VALUE);
          }

          @Override
          public void onNext(Stock item) {
            looked.add(item.sku().value() + "=" + item.level());
          }

          @Override
          public void onError(Throwable error) {
            ended.complete(error);
          }

          @Override
          public void onComplete() {
            ended.complete(null);
          }
        });
    assertThat(ended.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(looked).containsExactly("plum=OUT_OF_STOCK", "kiwi=UNKNOWN", "apple=IN_STOCK");
  }

  @Test
  void aDeclaredExceptionIsRethrownAsItself() {
    assertThatThrownBy(() -> inventory.get(new SkuId("durian")))
        .isInstanceOfSatisfying(UnknownSkuException.class, e -> {
          assertThat(e).hasMessage("no such SKU: durian");
          assertThat(e.getCause()).isInstanceOfSatisfying(BoltException.class,
              cause -> assertThat(cause.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION));
        });
  }

  @Test
  void aFutureNeverBlocksAndTheServerCallsTheClientBackOverTheSameConnection() throws Exception {
    CompletableFuture<Reservation> pending =
        inventory.reserve(new ReservationRequest(new SkuId("apple"), 10, "acme", Optional.of("rush")));
    Reservation reservation = pending.get(10, TimeUnit.SECONDS);
    assertThat(reservation.reservationId()).isEqualTo("R-1");
    assertThat(reservation.sku()).isEqualTo(new SkuId("apple"));
    assertThat(reservation.quantity()).isEqualTo(10);
    LowStockAlert alert = alerts.alerts().poll(10, TimeUnit.SECONDS);
    assertThat(alert).isEqualTo(new LowStockAlert(new SkuId("apple"), 2, "R-1"));
    assertThat(server.connections()).hasSize(1); // the call back used the client's connection
    Stock after = inventory.get(new SkuId("apple"));
    assertThat(after.available()).isEqualTo(2);
    assertThat(after.level()).isEqualTo(StockLevel.LOW);
    assertThat(after.reservedByCustomer()).containsExactly(Map.entry("acme", 10L));
  }

  @Test
  void aReservationIsHeldWhileItsClientStaysConnectedAndGivenBackWhenItCloses() throws Exception {
    inventory.reserve(new ReservationRequest(new SkuId("apple"), 10, "acme", Optional.empty()))
        .get(10, TimeUnit.SECONDS);
    try (BoltClient other = BoltClient.builder().build()) {
      Inventory elsewhere = InventoryBolt.newClient(other.channel("127.0.0.1:" + server.port()));
      Stock held = elsewhere.get(new SkuId("apple"));
      assertThat(held.available()).isEqualTo(2);
      assertThat(held.reservedByCustomer()).containsExactly(Map.entry("acme", 10L));
      assertThatThrownBy(() -> elsewhere.reserve(new ReservationRequest(new SkuId("apple"), 3, "zeta",
          Optional.empty())).get(10, TimeUnit.SECONDS)).hasMessageContaining("cannot reserve 3 of apple: 2 available");

      client.close(); // the client that reserved goes away: its units are available again
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        Stock given = elsewhere.get(new SkuId("apple"));
        assertThat(given.available()).isEqualTo(12);
        assertThat(given.level()).isEqualTo(StockLevel.IN_STOCK);
        assertThat(given.reservedByCustomer()).isEmpty();
      });
      assertThat(elsewhere.reserve(new ReservationRequest(new SkuId("apple"), 10, "zeta", Optional.empty()))
          .get(10, TimeUnit.SECONDS).quantity()).isEqualTo(10);
    }
  }

  @Test
  void aReservationIsGivenBackAtItsExpiryEvenWhileItsClientStaysConnected() throws Exception {
    InventoryService shortHolds = new InventoryService(work, 0, 300);
    try (BoltServer other = BoltServer.builder().bind("127.0.0.1", 0).service(InventoryBolt.bind(shortHolds))
        .build().start()) {
      Inventory briefly = InventoryBolt.newClient(client.channel("127.0.0.1:" + other.port()));
      long before = System.currentTimeMillis();
      Reservation reservation = briefly.reserve(new ReservationRequest(new SkuId("apple"), 4, "acme",
          Optional.empty())).get(10, TimeUnit.SECONDS);
      assertThat(reservation.expiresAtMillis()).isBetween(before + 300, System.currentTimeMillis() + 300);
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(briefly.get(new SkuId("apple")).available()).isEqualTo(12));
      assertThat(client.connections()).as("the client is still connected").isNotEmpty()
          .allSatisfy(c -> assertThat(c.isActive()).isTrue());
    }
  }

  @Test
  void aReservationStandsWhenItsClientCannotTakeTheLowStockAlert() throws Exception {
    try (BoltClient withoutAlerts = BoltClient.builder().build()) { // serves no StockAlerts
      Inventory plain = InventoryBolt.newClient(withoutAlerts.channel("127.0.0.1:" + server.port()));
      Reservation reservation = plain.reserve(new ReservationRequest(new SkuId("pear"), 1, "acme", Optional.empty()))
          .get(10, TimeUnit.SECONDS);
      assertThat(reservation.quantity()).isEqualTo(1);
      assertThat(plain.get(new SkuId("pear")).reservedByCustomer()).containsExactly(Map.entry("acme", 1L));
    }
  }

  @Test
  void aFailedFutureCarriesTheServerException() {
    CompletableFuture<Reservation> tooMany =
        inventory.reserve(new ReservationRequest(new SkuId("pear"), 50, "acme", Optional.empty()));
    assertThatThrownBy(() -> tooMany.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(BoltException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
          assertThat(e.remoteClassName()).isEqualTo("java.lang.IllegalArgumentException");
          assertThat(e.remoteMessage()).isEqualTo("cannot reserve 50 of pear: 3 available");
        });
  }

  @Test
  void callbacksRunOnTheCallbackExecutor() throws Exception {
    LinkedBlockingQueue<Object> outcomes = new LinkedBlockingQueue<>();
    BoltCallback<Stock> callback = new BoltCallback<>() {
      @Override
      public void onResponse(Stock result) {
        outcomes.add(List.of(result, Thread.currentThread().getName()));
      }

      @Override
      public void onError(Throwable error) {
        outcomes.add(error);
      }
    };
    inventory.watch(new SkuId("pear"), callback);
    List<?> success = (List<?>) outcomes.poll(10, TimeUnit.SECONDS);
    assertThat(((Stock) success.get(0)).available()).isEqualTo(3);
    assertThat((String) success.get(1)).startsWith("boltgen-callback");

    inventory.watch(new SkuId("durian"), callback);
    assertThat(outcomes.poll(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(BoltException.class, e -> {
      assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
      assertThat(e.remoteClassName()).isEqualTo(UnknownSkuException.class.getName());
    });
  }

  @Test
  void onewayArrivesWithEveryField() throws Exception {
    AuditEvent event = new AuditEvent("alice", "viewed", Set.of("web", "eu"), Map.of("sku", "plum", "page", "2"));
    inventory.audit(event);
    assertThat(service.auditLog().poll(10, TimeUnit.SECONDS)).isEqualTo(event);
  }

  @Test
  void theMethodsTimeoutAppliesAndAStubCopyCanExtendIt() {
    long start = System.nanoTime();
    assertThatThrownBy(() -> inventory.report(true))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status()).isEqualTo(ResponseStatus.TIMEOUT));
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(450L, 990L);

    StockReport report = inventory.withTimeout(Duration.ofSeconds(10)).report(false);
    assertThat(report.totalUnits()).isEqualTo(15);
    assertThat(report.stocks()).extracting(s -> s.sku().value()).containsExactlyInAnyOrder("apple", "pear");
  }

  @ParameterizedTest
  @EnumSource(WireProtocol.class)
  void everyFrameFormatWorksAndTheRegistryFindsTheStub(WireProtocol protocol) throws Exception {
    try (BoltClient other = BoltClient.builder().protocol(protocol).build()) {
      Inventory found = other.stub(Inventory.class, "127.0.0.1:" + server.port());
      assertThat(found.get(new SkuId("pear")).available()).isEqualTo(3);
    }
  }
}
