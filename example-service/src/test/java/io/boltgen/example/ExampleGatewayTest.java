package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.google.rpc.ErrorInfo;
import demo.inventory.InventoryGrpc;
import demo.inventory.IoBoltgenExampleInventory.BrowseRequest;
import demo.inventory.IoBoltgenExampleInventory.GetRequest;
import demo.inventory.IoBoltgenExampleInventory.SkuId;
import io.boltgen.gateway.BoltGateway;
import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.testing.Closer;
import io.boltgen.testing.EtcdProcess;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example as a mesh agent: two inventory servers registered in a real etcd, and the gateway of
 * {@code example-service.jar gateway} in front of them. Every method is called through it as a user would: the
 * JDK's client on HTTP/1.1 and curl on HTTP/2 (prior knowledge), JSON and binary protobuf bodies, and a stock
 * grpc-java client.
 */
class ExampleGatewayTest {

  @TempDir
  Path dir;

  private final Closer closer = new Closer();
  private final ExecutorService work = Executors.newFixedThreadPool(2);

  @AfterEach
  void stop() throws Exception {
    try {
      closer.close();
    } finally {
      work.shutdownNow();
    }
  }

  @Test
  void everyMethodThroughTheGatewayToInstancesInEtcd() throws Exception {
    EtcdProcess etcd = closer.track(EtcdProcess.start());
    EtcdRegistry servers = closer.track(EtcdRegistry.fromUri("etcd://" + URI.create(etcd.clientUrl()).getAuthority()));
    BoltServer one = closer.track(ExampleMain.startServer(0, work, servers));
    BoltServer two = closer.track(ExampleMain.startServer(0, work, servers));
    EtcdRegistry agents = closer.track(EtcdRegistry.fromUri("etcd://" + URI.create(etcd.clientUrl()).getAuthority()));
    BoltClient client = closer.track(BoltClient.builder().nameResolver(agents).build());
    BoltGateway gateway = closer.track(ExampleMain.startGateway(0, client, agents));
    String target = "etcd:///demo.Inventory:1.0";
    await().atMost(Duration.ofSeconds(10)).until(() -> client.instances(target).size() == 2);
    assertThat(client.instances(target)).extracting(i -> i.address().getPort())
        .containsExactlyInAnyOrder(one.port(), two.port());

    String base = "http://127.0.0.1:" + gateway.port();
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    ExampleHttpTest.everyMethodWithTheJdkClient(http, base, HttpClient.Version.HTTP_1_1);
    ExampleHttpTest.everyMethodWithCurl(dir, base, "--http2-prior-knowledge");

    HttpResponse<String> document = http.send(HttpRequest.newBuilder(URI.create(base + "/openapi.json"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(document.statusCode()).isEqualTo(200);
    assertThat(document.body()).contains("\"/demo.inventory.Inventory/get\"").contains("\"/demo.inventory.Inventory/report\"")
        .contains("\"/demo.inventory.Inventory/browse\"").contains("\"x-boltgen-streaming\":\"server\"");
    assertThat(gateway.routes()).containsExactly("/demo.inventory.Inventory/get", "/demo.inventory.Inventory/reserve",
        "/demo.inventory.Inventory/watch", "/demo.inventory.Inventory/audit", "/demo.inventory.Inventory/report",
        "/demo.inventory.Inventory/browse", "/demo.inventory.Inventory/tally", "/demo.inventory.Inventory/lookup");
    assertThat(gateway.callsInFlight()).isZero();

    // a stock gRPC client through the gateway: forwarded as Connect's calls are, a declared exception included
    ManagedChannel grpc = ManagedChannelBuilder.forAddress("127.0.0.1", gateway.port()).usePlaintext().build();
    try {
      InventoryGrpc.InventoryBlockingStub inventory = InventoryGrpc.newBlockingStub(grpc)
          .withDeadlineAfter(10, TimeUnit.SECONDS);
      assertThat(inventory.get(GetRequest.newBuilder().setSku(SkuId.newBuilder().setValue("apple")).build())
          .getValue().getAvailable()).isEqualTo(12);
      StatusRuntimeException unknown = catchThrowableOfType(StatusRuntimeException.class,
          () -> inventory.get(GetRequest.newBuilder().setSku(SkuId.newBuilder().setValue("kiwi")).build()));
      assertThat(unknown.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
      assertThat(unknown.getStatus().getDescription()).isEqualTo("no such SKU: kiwi");
      assertThat(StatusProto.fromThrowable(unknown).getDetails(0).unpack(ErrorInfo.class).getMetadataMap())
          .containsEntry("exception", UnknownSkuException.class.getName());
      // a stream is forwarded too: gRPC to the gateway, a stream over Bolt from an instance, message by message
      java.util.List<String> browsed = new java.util.ArrayList<>();
      inventory.browse(BrowseRequest.newBuilder().setIncludeEmpty(true).build())
          .forEachRemaining(message -> browsed.add(message.getValue().getSku().getValue()));
      assertThat(browsed).containsExactly("apple", "pear", "plum");
      // so is a stream of requests: gRPC to the gateway, over Bolt to an instance, each message as it is granted
      java.util.concurrent.CompletableFuture<demo.inventory.IoBoltgenExampleInventory.TallyResponse> tallied =
          new java.util.concurrent.CompletableFuture<>();
      InventoryGrpc.InventoryStub async = InventoryGrpc.newStub(grpc).withDeadlineAfter(10, TimeUnit.SECONDS);
      io.grpc.stub.StreamObserver<demo.inventory.IoBoltgenExampleInventory.TallyRequest> skus =
          async.tally(new io.grpc.stub.StreamObserver<>() {
            @Override
            public void onNext(demo.inventory.IoBoltgenExampleInventory.TallyResponse value) {
              tallied.complete(value);
            }

            @Override
            public void onError(Throwable t) {
              tallied.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {}
          });
      for (String sku : java.util.List.of("apple", "pear")) {
        skus.onNext(demo.inventory.IoBoltgenExampleInventory.TallyRequest.newBuilder()
            .setSkus(SkuId.newBuilder().setValue(sku)).build());
      }
      skus.onCompleted();
      assertThat(tallied.get(10, TimeUnit.SECONDS).getValue().getStocksList())
          .extracting(stock -> stock.getSku().getValue()).containsExactly("apple", "pear");
    } finally {
      grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    assertThat(gateway.callsInFlight()).isZero();
  }
}
