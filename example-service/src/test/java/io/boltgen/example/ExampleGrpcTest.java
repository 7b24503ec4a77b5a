package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.rpc.ErrorInfo;
import demo.inventory.InventoryGrpc;
import demo.inventory.IoBoltgenExampleInventory.AuditEvent;
import demo.inventory.IoBoltgenExampleInventory.AuditRequest;
import demo.inventory.IoBoltgenExampleInventory.AuditResponse;
import demo.inventory.IoBoltgenExampleInventory.BrowseRequest;
import demo.inventory.IoBoltgenExampleInventory.GetRequest;
import demo.inventory.IoBoltgenExampleInventory.GetResponse;
import demo.inventory.IoBoltgenExampleInventory.LookupRequest;
import demo.inventory.IoBoltgenExampleInventory.LookupResponse;
import demo.inventory.IoBoltgenExampleInventory.ReportRequest;
import demo.inventory.IoBoltgenExampleInventory.Reservation;
import demo.inventory.IoBoltgenExampleInventory.ReservationRequest;
import demo.inventory.IoBoltgenExampleInventory.ReserveRequest;
import demo.inventory.IoBoltgenExampleInventory.SkuId;
import demo.inventory.IoBoltgenExampleInventory.Stock;
import demo.inventory.IoBoltgenExampleInventory.StockLevel;
import demo.inventory.IoBoltgenExampleInventory.StockReport;
import demo.inventory.IoBoltgenExampleInventory.TallyRequest;
import demo.inventory.IoBoltgenExampleInventory.TallyResponse;
import demo.inventory.IoBoltgenExampleInventory.WarehouseStock;
import demo.inventory.IoBoltgenExampleInventory.WatchRequest;
import demo.inventory.IoBoltgenExampleInventory.WatchResponse;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.Tls;
import io.boltgen.testing.ReadyProcess;
import io.boltgen.testing.TestCertificates;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example's server as a gRPC server: grpc-java's stock client, with the stubs protoc generates from the
 * {@code .proto} the processor emitted ({@code InventoryGrpc}, test sources of this module), calls every
 * {@link Inventory} method on the server {@code serve} runs ({@link ExampleMain#startServer}) over HTTP/2 on its
 * Bolt port: cleartext with prior knowledge, and TLS with ALPN; a declared exception arrives as
 * {@code FAILED_PRECONDITION} with a {@code google.rpc.ErrorInfo}, a deadline as {@code DEADLINE_EXCEEDED}.
 */
class ExampleGrpcTest {

  private static final long HOLD_MILLIS = InventoryService.HOLD_MILLIS;
  private static final Metadata.Key<byte[]> DETAILS =
      Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);

  @TempDir
  Path dir;

  private final ExecutorService reservationWork = Executors.newFixedThreadPool(2);
  private final List<ManagedChannel> channels = new ArrayList<>();
  private BoltServer server;

  @AfterEach
  void stop() throws InterruptedException {
    try {
      channels.forEach(ManagedChannel::shutdownNow);
      for (ManagedChannel channel : channels) {
        assertThat(channel.awaitTermination(10, TimeUnit.SECONDS)).as("the gRPC channel terminated").isTrue();
      }
    } finally {
      if (server != null) {
        server.close();
      }
      reservationWork.shutdownNow();
    }
  }

  /** The server of {@code serve}, on a free loopback port. */
  private BoltServer startServer() {
    server = ExampleMain.startServer(0, reservationWork);
    return server;
  }

  /** A cleartext HTTP/2 channel (prior knowledge) to {@code port} on loopback, closed after the test. */
  private ManagedChannel plaintext(int port) {
    return keep(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build());
  }

  private ManagedChannel keep(ManagedChannel channel) {
    channels.add(channel);
    return channel;
  }

  private static SkuId sku(String value) {
    return SkuId.newBuilder().setValue(value).build();
  }

  private static GetRequest get(String sku) {
    return GetRequest.newBuilder().setSku(sku(sku)).build();
  }

  private static WarehouseStock warehouse(String name, int quantity) {
    return WarehouseStock.newBuilder().setWarehouse(name).setQuantity(quantity).build();
  }

  /** The apple stock the example starts with, as the emitted {@code .proto} spells it. */
  private static Stock apples() {
    return Stock.newBuilder().setSku(sku("apple")).setAvailable(12).setLevel(StockLevel.STOCK_LEVEL_IN_STOCK)
        .addWarehouses(warehouse("north", 8)).addWarehouses(warehouse("south", 4)).build();
  }

  /** The answer of {@code watch} (a callback in Java) to grpc-java's asynchronous stub. */
  private static CompletableFuture<WatchResponse> watch(ManagedChannel channel, String sku) {
    CompletableFuture<WatchResponse> answer = new CompletableFuture<>();
    InventoryGrpc.newStub(channel).watch(WatchRequest.newBuilder().setSku(sku(sku)).build(),
        new StreamObserver<>() {
          @Override
          public void onNext(WatchResponse value) {
            answer.complete(value);
          }

          @Override
          public void onError(Throwable t) {
            answer.completeExceptionally(t);
          }

          @Override
          public void onCompleted() {
            answer.complete(null); // only if no answer came: a unary call answers before it completes
          }
        });
    return answer;
  }

  @Test
  void everyMethodAnswersAStockGrpcClient() throws Exception {
    ManagedChannel channel = plaintext(startServer().port());
    InventoryGrpc.InventoryBlockingStub blocking = InventoryGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS);

    // get (sync in Java): the whole record graph, an enum, a list and an empty map
    assertThat(blocking.get(get("apple"))).isEqualTo(GetResponse.newBuilder().setValue(apples()).build());
    Stock plum = blocking.get(get("plum")).getValue();
    assertThat(plum.getLevel()).isEqualTo(StockLevel.STOCK_LEVEL_OUT_OF_STOCK);
    assertThat(plum.getAvailable()).isZero();
    assertThat(plum.getWarehousesList()).isEmpty();

    // reserve (a CompletableFuture in Java) with grpc-java's future stub: held while this channel's connection
    // stays open. It leaves pear low, so the server tries to alert the caller over its connection; a gRPC caller
    // serves no StockAlerts, and the reservation stands all the same.
    long before = System.currentTimeMillis();
    Reservation reservation = InventoryGrpc.newFutureStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
        .reserve(ReserveRequest.newBuilder().setRequest(ReservationRequest.newBuilder().setSku(sku("pear"))
            .setQuantity(1).setCustomer("grpc").setNote("rush")).build())
        .get(10, TimeUnit.SECONDS).getValue();
    long after = System.currentTimeMillis();
    assertThat(reservation.getReservationId()).isEqualTo("R-1");
    assertThat(reservation.getSku()).isEqualTo(sku("pear"));
    assertThat(reservation.getQuantity()).isEqualTo(1);
    assertThat(reservation.getExpiresAtMillis()).isBetween(before + HOLD_MILLIS, after + HOLD_MILLIS);
    Stock pear = blocking.get(get("pear")).getValue();
    assertThat(pear.getAvailable()).isEqualTo(2);
    assertThat(pear.getLevel()).isEqualTo(StockLevel.STOCK_LEVEL_LOW);
    assertThat(pear.getReservedByCustomerMap()).containsExactly(Map.entry("grpc", 1L));

    // watch (a BoltCallback in Java) with grpc-java's asynchronous stub
    assertThat(watch(channel, "apple").get(10, TimeUnit.SECONDS))
        .isEqualTo(WatchResponse.newBuilder().setValue(apples()).build());

    // audit (oneway in Java): over gRPC, an empty answer once the server took it
    AuditEvent event = AuditEvent.newBuilder().setActor("grpc").setAction("viewed").addTags("web")
        .putDetails("sku", "plum").build();
    assertThat(blocking.audit(AuditRequest.newBuilder().setEvent(event).build()))
        .isEqualTo(AuditResponse.getDefaultInstance());

    // report: slower (1.5 s) than its own 500 ms timeout, so the caller's longer deadline (grpc-timeout) lets
    // it finish. The pear this channel reserved is still held.
    StockReport report = blocking.report(ReportRequest.newBuilder().setIncludeEmpty(true).build()).getValue();
    assertThat(report.getTotalUnits()).isEqualTo(14);
    assertThat(report.getStocksList()).extracting(stock -> stock.getSku().getValue())
        .containsExactlyInAnyOrder("apple", "pear", "plum");
    assertThat(InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
        .report(ReportRequest.getDefaultInstance()).getValue().getStocksList())
        .extracting(stock -> stock.getSku().getValue()).containsExactlyInAnyOrder("apple", "pear");

    // browse (a Flow.Publisher in Java): a server stream, one message per SKU in SKU order, then OK
    List<Stock> browsed = new ArrayList<>();
    InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
        .browse(BrowseRequest.newBuilder().setIncludeEmpty(true).build())
        .forEachRemaining(message -> browsed.add(message.getValue()));
    assertThat(browsed).extracting(stock -> stock.getSku().getValue()).containsExactly("apple", "pear", "plum");
    assertThat(browsed.get(0)).isEqualTo(apples());
    assertThat(browsed.get(1).getReservedByCustomerMap()).containsExactly(Map.entry("grpc", 1L));
  }

  /** grpc-java's asynchronous stub's answers to a call, and its end. */
  private static final class Answers<T> implements StreamObserver<T> {
    final LinkedBlockingQueue<T> received = new LinkedBlockingQueue<>();
    final CompletableFuture<Void> ended = new CompletableFuture<>();

    @Override
    public void onNext(T value) {
      received.add(value);
    }

    @Override
    public void onError(Throwable t) {
      ended.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      ended.complete(null);
    }

    T next() throws InterruptedException {
      T next = received.poll(10, TimeUnit.SECONDS);
      assertThat(next).as("an answer within 10 s").isNotNull();
      return next;
    }
  }

  @Test
  void theStreamingMethodsOfEachKindAnswerAStockGrpcClient() throws Exception {
    ManagedChannel channel = plaintext(startServer().port());
    InventoryGrpc.InventoryStub async = InventoryGrpc.newStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);

    // tally (a Flow.Publisher parameter, a CompletableFuture result): a client stream, one report after the last SKU
    Answers<TallyResponse> report = new Answers<>();
    StreamObserver<TallyRequest> skus = async.tally(report);
    skus.onNext(TallyRequest.newBuilder().setSkus(sku("apple")).build());
    skus.onNext(TallyRequest.newBuilder().setSkus(sku("pear")).build());
    skus.onCompleted();
    report.ended.get(10, TimeUnit.SECONDS);
    StockReport tallied = report.next().getValue();
    assertThat(tallied.getStocksList()).extracting(stock -> stock.getSku().getValue()).containsExactly("apple", "pear");
    assertThat(tallied.getTotalUnits()).isEqualTo(15);

    // an unknown SKU ends the call with the declared exception, while the caller still sends
    Answers<TallyResponse> refused = new Answers<>();
    StreamObserver<TallyRequest> more = async.tally(refused);
    more.onNext(TallyRequest.newBuilder().setSkus(sku("kiwi")).build());
    ExecutionException failed = catchThrowableOfType(ExecutionException.class,
        () -> refused.ended.get(10, TimeUnit.SECONDS));
    assertThat(Status.fromThrowable(failed.getCause()).getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(unpack(StatusProto.fromThrowable(failed.getCause())).getReason()).isEqualTo("UNKNOWN_SKU_EXCEPTION");

    // lookup (a Flow.Publisher each way): each SKU answered while the caller's stream is still open
    Answers<LookupResponse> stocks = new Answers<>();
    StreamObserver<LookupRequest> asked = async.lookup(stocks);
    asked.onNext(LookupRequest.newBuilder().setSkus(sku("apple")).build());
    assertThat(stocks.next().getValue()).isEqualTo(apples());
    asked.onNext(LookupRequest.newBuilder().setSkus(sku("kiwi")).build());
    Stock unknown = stocks.next().getValue();
    assertThat(unknown.getSku().getValue()).isEqualTo("kiwi");
    assertThat(unknown.getLevel()).isEqualTo(StockLevel.STOCK_LEVEL_UNKNOWN);
    asked.onCompleted();
    stocks.ended.get(10, TimeUnit.SECONDS);
    assertThat(stocks.received).isEmpty();
  }

  @Test
  void aDeclaredExceptionIsFailedPreconditionWithAnErrorInfo() {
    ManagedChannel channel = plaintext(startServer().port());
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS).get(get("kiwi")));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(failed.getStatus().getDescription()).isEqualTo("no such SKU: kiwi");

    com.google.rpc.Status status = StatusProto.fromThrowable(failed);
    assertThat(status).as("grpc-status-details-bin").isNotNull();
    assertThat(status.getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION.value());
    assertThat(status.getMessage()).isEqualTo("no such SKU: kiwi");
    assertThat(status.getDetailsList()).hasSize(1);
    assertThat(status.getDetails(0).is(ErrorInfo.class)).as("the detail is an ErrorInfo").isTrue();
    ErrorInfo info = unpack(status);
    assertThat(info.getReason()).isEqualTo("UNKNOWN_SKU_EXCEPTION");
    assertThat(info.getDomain()).isEqualTo("demo.inventory.Inventory");
    assertThat(info.getMetadataMap()).containsOnly(Map.entry("exception", UnknownSkuException.class.getName()),
        Map.entry("message", "no such SKU: kiwi"));

    // the same exception through watch's callback is the same status
    StatusRuntimeException watched = catchThrowableOfType(StatusRuntimeException.class,
        () -> InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
            .watch(WatchRequest.newBuilder().setSku(sku("kiwi")).build()));
    assertThat(watched.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(unpack(StatusProto.fromThrowable(watched)).getReason()).isEqualTo("UNKNOWN_SKU_EXCEPTION");

    // any other exception (reserving more than there is) is INTERNAL, with its message and no details
    StatusRuntimeException tooMany = catchThrowableOfType(StatusRuntimeException.class,
        () -> InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
            .reserve(ReserveRequest.newBuilder().setRequest(ReservationRequest.newBuilder().setSku(sku("pear"))
                .setQuantity(50).setCustomer("grpc")).build()));
    assertThat(tooMany.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(tooMany.getStatus().getDescription()).isEqualTo("cannot reserve 50 of pear: 3 available");
    assertThat(tooMany.getTrailers()).isNotNull();
    assertThat(tooMany.getTrailers().containsKey(DETAILS)).as("grpc-status-details-bin").isFalse();
  }

  private static ErrorInfo unpack(com.google.rpc.Status status) {
    try {
      return status.getDetails(0).unpack(ErrorInfo.class);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError("the detail does not parse as an ErrorInfo", e);
    }
  }

  @Test
  void theMethodsTimeoutAndTheCallersDeadlineEndTheCallDeadlineExceeded() {
    ManagedChannel channel = plaintext(startServer().port());
    ReportRequest request = ReportRequest.newBuilder().setIncludeEmpty(true).build();
    // a first call connects the channel and loads grpc-java's classes, so that the timing below is the server's
    assertThat(InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS).get(get("apple"))
        .getValue()).isEqualTo(apples());

    // no deadline from the caller: the server ends report at its own 500 ms timeout
    long start = System.nanoTime();
    StatusRuntimeException late = catchThrowableOfType(StatusRuntimeException.class,
        () -> InventoryGrpc.newBlockingStub(channel).report(request));
    assertThat(late.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(late.getStatus().getDescription()).as("the server's words, not the client's")
        .isEqualTo("/demo.inventory.Inventory/report did not answer within 500 ms");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("not before its timeout")
        .isGreaterThanOrEqualTo(450L);

    // the caller's deadline, shorter still
    StatusRuntimeException hurried = catchThrowableOfType(StatusRuntimeException.class,
        () -> InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(100, TimeUnit.MILLISECONDS).report(request));
    assertThat(hurried.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);

    // the channel still calls
    assertThat(InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS).get(get("pear"))
        .getValue().getAvailable()).isEqualTo(3);
  }

  @Test
  void anUnknownMethodIsUnimplemented() {
    ManagedChannel channel = plaintext(startServer().port());
    MethodDescriptor<GetRequest, GetResponse> restock = InventoryGrpc.getGetMethod().toBuilder()
        .setFullMethodName(MethodDescriptor.generateFullMethodName("demo.inventory.Inventory", "restock")).build();
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> ClientCalls.blockingUnaryCall(channel, restock,
            CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), get("apple")));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
    assertThat(failed.getStatus().getDescription()).isEqualTo("Method not found: demo.inventory.Inventory/restock");
  }

  @Test
  void tlsWithAlpn() throws Exception {
    TestCertificates certs = TestCertificates.create(dir);
    InventoryService inventory = new InventoryService(reservationWork, 1_500);
    // startServer takes no TLS: the same service and HTTP, with the server's test certificate
    server = BoltServer.builder().bind("127.0.0.1", 0).service(InventoryBolt.bind(inventory)).http(true)
        .tls(Tls.builder().keyPair(certs.server().certificateChainPem(), certs.server().privateKeyPem()).build())
        .build().start();
    ManagedChannel channel = keep(NettyChannelBuilder.forAddress("127.0.0.1", server.port())
        .sslContext(GrpcSslContexts.forClient().trustManager(certs.caPem().toFile()).build()).build());
    InventoryGrpc.InventoryBlockingStub blocking = InventoryGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS);

    assertThat(blocking.get(get("apple"))).isEqualTo(GetResponse.newBuilder().setValue(apples()).build());
    AuditEvent event = AuditEvent.newBuilder().setActor("grpc").setAction("viewed").addTags("tls").build();
    assertThat(blocking.audit(AuditRequest.newBuilder().setEvent(event).build()))
        .isEqualTo(AuditResponse.getDefaultInstance());
    assertThat(inventory.auditLog().poll(10, TimeUnit.SECONDS))
        .isEqualTo(new io.boltgen.example.AuditEvent("grpc", "viewed", Set.of("tls"), Map.of()));
    StatusRuntimeException failed = catchThrowableOfType(StatusRuntimeException.class,
        () -> blocking.get(get("kiwi")));
    assertThat(failed.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
  }

  @Test
  void theServeCommandAnswersGrpc() throws Exception {
    // the serve mode itself, in a JVM of its own (from this module's classes and class path, as ReadmeTest)
    try (ReadyProcess serve = ServerProcess.start()) {
      ManagedChannel channel = plaintext(serve.port());
      assertThat(InventoryGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS).get(get("apple"))
          .getValue()).isEqualTo(apples());
      channel.shutdownNow();
      assertThat(channel.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void jsonMessagesWithCurl() throws Exception {
    int port = startServer().port();
    String route = "http://127.0.0.1:" + port + InventoryBolt.METHOD_GET.httpPath();
    Path request = dir.resolve("get.grpc-json");
    Files.write(request, lengthPrefixed("{\"sku\": {\"value\": \"apple\"}}"));
    Path answer = dir.resolve("answer.grpc-json");
    Path headers = dir.resolve("headers.txt");
    ExampleHttpTest.curl("--http2-prior-knowledge", "-o", answer.toString(), "-D", headers.toString(),
        "-H", "Content-Type: application/grpc+json", "-H", "TE: trailers", "--data-binary", "@" + request, route);
    String dump = Files.readString(headers, StandardCharsets.UTF_8);
    assertThat(dump).startsWith("HTTP/2 200").containsIgnoringCase("content-type: application/grpc+json")
        .contains("grpc-status: 0");
    byte[] bytes = Files.readAllBytes(answer);
    ByteBuffer framed = ByteBuffer.wrap(bytes);
    assertThat(framed.get()).as("not compressed").isZero();
    assertThat(framed.getInt()).as("the message's length").isEqualTo(bytes.length - 5);
    assertThat(new String(bytes, 5, bytes.length - 5, StandardCharsets.UTF_8))
        .startsWith("{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,");

    // a declared exception: no message, the status in the one headers frame (trailers only)
    Files.write(request, lengthPrefixed("{\"sku\": {\"value\": \"kiwi\"}}"));
    ExampleHttpTest.curl("--http2-prior-knowledge", "-o", answer.toString(), "-D", headers.toString(),
        "-H", "Content-Type: application/grpc+json", "-H", "TE: trailers", "--data-binary", "@" + request, route);
    assertThat(Files.readString(headers, StandardCharsets.UTF_8)).startsWith("HTTP/2 200")
        .contains("grpc-status: 9").contains("grpc-message: no such SKU: kiwi").contains("grpc-status-details-bin: ");
    assertThat(answer).isEmptyFile();
  }

  private static byte[] lengthPrefixed(String json) {
    byte[] message = json.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(5 + message.length).put((byte) 0).putInt(message.length).put(message).array();
  }
}
