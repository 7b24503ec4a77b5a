package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.gateway.BoltGateway;
import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.PeerAllowList;
import io.boltgen.runtime.PeerNotAuthorizedException;
import io.boltgen.runtime.Publishers;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.Tls;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.testing.EtcdProcess;
import io.boltgen.testing.TestCertificates;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java snippets of docs/cluster.md, docs/gateway.md, docs/http.md, docs/security.md and docs/streaming.md, as
 * written: every code line of them is a line of this module's sources (this file, or the example's own code), and
 * this file runs them, against a real etcd and with certificates made for the run, and grpc-java for the stream.
 */
class DocsSnippetsTest {

  /** The code lines of every {@code java} block of {@code doc}: trimmed, without trailing comments. */
  private static List<String> codeLines(String doc) throws IOException {
    String text = Files.readString(Path.of("..", "docs", doc), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(text);
    List<String> lines = new ArrayList<>();
    while (m.find()) {
      for (String line : m.group(1).split("\n")) {
        String code = line.replaceAll("\\s*//.*$", "").strip();
        if (!code.isEmpty()) {
          lines.add(code);
        }
      }
    }
    assertThat(lines).as("java blocks in docs/%s", doc).isNotEmpty();
    return lines;
  }

  private static List<String> sourceLines() throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path dir : List.of(Path.of("src", "main", "java"), Path.of("src", "test", "java"))) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
            lines.add(line.replaceAll("\\s*//.*$", "").strip());
          }
        }
      }
    }
    return lines;
  }

  @Test
  void clusterSnippetsRunAsWritten() throws Exception {
    assertThat(sourceLines()).containsAll(codeLines("cluster.md"));
    ExecutorService reservationWork = Executors.newSingleThreadExecutor();
    try (EtcdProcess etcdProcess = EtcdProcess.start()) {
      String etcdUrl = etcdProcess.clientUrl();
      int port = 0;
      InventoryService service = new InventoryService(reservationWork, 1_500);
      EtcdRegistry etcd = EtcdRegistry.builder().endpoints(etcdUrl).build();
      try (etcd) {
        BoltServer server = BoltServer.builder()
            .bind("0.0.0.0", port)
            .service(InventoryBolt.bind(service))
            .registry(etcd)
            .instance(100, "zone-a", Map.of())
            .build()
            .start();
        try (server) {
          BoltClient client = BoltClient.builder().nameResolver(etcd).build();
          try (client) {
            Inventory inventory = InventoryBolt.newClient(client.channel("etcd:///demo.Inventory:1.0"));
            assertThat(inventory.get(new SkuId("apple")).available()).isEqualTo(12);
            assertThat(client.instances("etcd:///demo.Inventory:1.0")).singleElement()
                .satisfies(i -> assertThat(i.zone()).isEqualTo("zone-a"));
          }
        }
        BoltServer capped = BoltServer.builder()
            .bind("0.0.0.0", port)
            .service(InventoryBolt.bind(service))
            .registry(etcd)
            .maxConcurrentCalls(200)
            .threads(200, 200, 1)
            .build()
            .start();
        try (capped) {
          BoltClient client = BoltClient.builder().nameResolver(etcd).build();
          try (client) {
            assertThat(client.channel("etcd:///demo.Inventory:1.0")).isNotNull();
            await().atMost(Duration.ofSeconds(10)).until(() -> client.instances("etcd:///demo.Inventory:1.0").size() == 1);
            assertThat(client.instances("etcd:///demo.Inventory:1.0")).singleElement()
                .satisfies(i -> assertThat(i.maxConcurrentCalls()).isEqualTo(200));
          }
        }
      }
    } finally {
      reservationWork.shutdownNow();
    }
  }

  @Test
  void gatewaySnippetRunsAsWritten() throws Exception {
    assertThat(sourceLines()).containsAll(codeLines("gateway.md"));
    ExecutorService reservationWork = Executors.newSingleThreadExecutor();
    try (EtcdProcess etcdProcess = EtcdProcess.start()) {
      String etcdUrl = etcdProcess.clientUrl();
      int port = 0;
      EtcdRegistry etcd = EtcdRegistry.builder().endpoints(etcdUrl).build();
      try (etcd; BoltServer server = ExampleMain.startServer(0, reservationWork, etcd)) {
        assertThat(server.port()).isPositive();
        BoltClient client = BoltClient.builder().nameResolver(etcd).build();
        BoltGateway gateway = BoltGateway.builder()
            .client(client)
            .service(Inventory.class, "etcd:///demo.Inventory:1.0")
            .bind("0.0.0.0", port)
            .build()
            .start();
        try (client; gateway) {
          String answer = ExampleHttpTest.curl("-H", "Content-Type: application/json", "-d",
              "{\"sku\": {\"value\": \"apple\"}}", "http://127.0.0.1:" + gateway.port() + "/demo.inventory.Inventory/get");
          assertThat(answer).startsWith("{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,");
        }
      }
    } finally {
      reservationWork.shutdownNow();
    }
  }

  @Test
  void securitySnippetRunsAsWritten(@TempDir Path dir) throws Exception {
    assertThat(sourceLines()).containsAll(codeLines("security.md"));
    TestCertificates certs = TestCertificates.create(dir);
    Path serverChain = certs.server().certificateChainPem();
    Path serverKey = certs.server().privateKeyPem();
    Path ordersChain = certs.client("orders").certificateChainPem();
    Path ordersKey = certs.client("orders").privateKeyPem();
    Path caPem = certs.caPem();
    int port = 0;
    ExecutorService reservationWork = Executors.newSingleThreadExecutor();
    try {
      InventoryService service = new InventoryService(reservationWork, 1_500);
      Tls serverTls = Tls.builder()
          .keyPair(serverChain, serverKey)
          .trust(caPem)
          .clientAuth(Tls.ClientAuth.REQUIRE)
          .build();
      BoltServer server = BoltServer.builder().bind("0.0.0.0", port).tls(serverTls)
          .service(InventoryBolt.bind(service))
          .serverInterceptor(PeerAllowList.builder().allow("demo.Inventory", "DNS:orders.test").build())
          .build().start();
      try (server) {
        Tls clientTls = Tls.builder()
            .keyPair(ordersChain, ordersKey)
            .trust(caPem)
            .build();
        BoltClient client = BoltClient.builder().tls(clientTls).build();
        try (client) {
          Inventory inventory = InventoryBolt.newClient(client.channel("localhost:" + server.port()));
          assertThat(inventory.get(new SkuId("apple")).available()).isEqualTo(12);
        }
        Tls other = Tls.builder().keyPair(certs.client("billing").certificateChainPem(),
            certs.client("billing").privateKeyPem()).trust(caPem).build();
        try (BoltClient billing = BoltClient.builder().tls(other).build()) {
          Inventory refused = InventoryBolt.newClient(billing.channel("localhost:" + server.port()));
          assertThatThrownBy(() -> refused.get(new SkuId("apple"))).isInstanceOf(PeerNotAuthorizedException.class);
        }
      }
    } finally {
      reservationWork.shutdownNow();
    }
  }

  private static final Marshaller<byte[]> RAW = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  /** The lines of {@code request} as a stream of messages. */
  private static Flow.Publisher<byte[]> lines(byte[] request) {
    List<byte[]> out = new ArrayList<>();
    for (String line : new String(request, StandardCharsets.UTF_8).split("\n")) {
      out.add(line.getBytes(StandardCharsets.UTF_8));
    }
    return Publishers.of(out);
  }

  private static ServiceDefinition snippet() {
    MethodDescriptor<byte[], byte[]> tail = MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName("demo.Log").serviceVersion("1.0").methodName("tail")
        .type(MethodType.SERVER_STREAMING)
        .protoService("demo.Log")                  // its route: /demo.Log/tail
        .build();

    ServiceDefinition log = ServiceDefinition.builder("demo.Log", "1.0")
        .method(tail, (request, call) -> call.respondStream(lines(request)))   // any Flow.Publisher<byte[]>
        .build();
    return log;
  }

  /** How many messages {@code lines} publishes, as text, once it completes. */
  private static CompletableFuture<byte[]> count(Flow.Publisher<byte[]> lines) {
    CompletableFuture<byte[]> counted = new CompletableFuture<>();
    lines.subscribe(new Flow.Subscriber<byte[]>() {
      private int count;

      @Override
      public void onSubscribe(Flow.Subscription s) {
        s.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(byte[] line) {
        count++;
      }

      @Override
      public void onError(Throwable error) {
        counted.completeExceptionally(error);
      }

      @Override
      public void onComplete() {
        counted.complete(Integer.toString(count).getBytes(StandardCharsets.UTF_8));
      }
    });
    return counted;
  }

  private static ServiceDefinition snippetOfRequests() {
    MethodDescriptor<byte[], byte[]> sum = MethodDescriptor.newBuilder(RAW, RAW)
        .serviceName("demo.Log").serviceVersion("1.0").methodName("sum")
        .type(MethodType.CLIENT_STREAMING)
        .protoService("demo.Log")
        .build();

    ServiceDefinition log = ServiceDefinition.builder("demo.Log", "1.0")
        .streamingMethod(sum, (lines, call) -> call.respondWith(count(lines)))   // lines: a Flow.Publisher<byte[]>
        .build();
    return log;
  }

  private static final io.grpc.MethodDescriptor.Marshaller<byte[]> BYTES = new io.grpc.MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /** docs/streaming.md: the example's streaming method, and a hand-built stream served and called with grpc-java. */
  @Test
  void streamingSnippetsRunAsWritten() throws Exception {
    assertThat(sourceLines()).containsAll(codeLines("streaming.md"));
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(snippet()).http(true).build().start()) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
      try {
        io.grpc.MethodDescriptor<byte[], byte[]> tail = io.grpc.MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
            .setFullMethodName("demo.Log/tail").setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
        List<String> got = new ArrayList<>();
        ClientCalls.blockingServerStreamingCall(channel, tail, CallOptions.DEFAULT.withDeadlineAfter(10,
            TimeUnit.SECONDS), "first\nsecond\nthird".getBytes(StandardCharsets.UTF_8))
            .forEachRemaining(m -> got.add(new String(m, StandardCharsets.UTF_8)));
        assertThat(got).containsExactly("first", "second", "third");
      } finally {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      }
    }
    try (BoltServer server =
        BoltServer.builder().bind("127.0.0.1", 0).service(snippetOfRequests()).http(true).build().start()) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
      try {
        io.grpc.MethodDescriptor<byte[], byte[]> sum = io.grpc.MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING)
            .setFullMethodName("demo.Log/sum").setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
        CompletableFuture<String> answer = new CompletableFuture<>();
        io.grpc.stub.StreamObserver<byte[]> lines = ClientCalls.asyncClientStreamingCall(
            channel.newCall(sum, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS)),
            new io.grpc.stub.StreamObserver<byte[]>() {
              @Override
              public void onNext(byte[] value) {
                answer.complete(new String(value, StandardCharsets.UTF_8));
              }

              @Override
              public void onError(Throwable t) {
                answer.completeExceptionally(t);
              }

              @Override
              public void onCompleted() {}
            });
        for (String line : List.of("first", "second", "third")) {
          lines.onNext(line.getBytes(StandardCharsets.UTF_8));
        }
        lines.onCompleted();
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("3");
      } finally {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      }
    }
  }

  /** docs/http.md: a server that lets pages of another origin call it, answering a browser's preflight. */
  @Test
  void corsSnippetRunsAsWritten() throws Exception {
    assertThat(sourceLines()).containsAll(codeLines("http.md"));
    try (BoltServer server =
        BoltServer.builder().http(true).httpCors("https://app.example.com")
            .bind("127.0.0.1", 0).service(snippet()).build().start()) {
      java.net.http.HttpResponse<String> preflight = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + server.port() + "/x"))
              .method("OPTIONS", java.net.http.HttpRequest.BodyPublishers.noBody())
              .header("Origin", "https://app.example.com").header("Access-Control-Request-Method", "POST")
              .timeout(Duration.ofSeconds(10)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(preflight.statusCode()).isEqualTo(204);
      assertThat(preflight.headers().firstValue("access-control-allow-origin")).hasValue("https://app.example.com");
    }
  }
}
