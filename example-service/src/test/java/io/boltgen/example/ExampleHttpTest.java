package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.Tls;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.testing.TestCertificates;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example method over HTTP, as a user calls it: the JDK's {@code HttpClient} on HTTP/1.1 (cleartext) and
 * HTTP/2 (TLS, chosen by ALPN), and Debian's {@code curl} on HTTP/2 with prior knowledge and over TLS; JSON and
 * binary protobuf bodies; a Bolt client calling the same server on the same port all along.
 */
class ExampleHttpTest {

  @TempDir
  Path dir;

  private final ExecutorService reservationWork = Executors.newSingleThreadExecutor();
  private final ExecutorService boltLoad = Executors.newSingleThreadExecutor();
  private BoltServer server;
  private BoltCaller bolt;

  @AfterEach
  void stop() {
    boltLoad.shutdownNow();
    if (bolt != null) {
      bolt.client.close(); // a test that failed before finish()
    }
    if (server != null) {
      server.close();
    }
    reservationWork.shutdownNow();
  }

  private BoltServer start(Tls tls) {
    BoltServer.Builder builder = BoltServer.builder().bind("127.0.0.1", 0)
        .service(InventoryBolt.bind(new InventoryService(reservationWork, 1_500))).http(true);
    if (tls != null) {
      builder.tls(tls);
    }
    return builder.build().start();
  }

  /** A Bolt client calling get() on the same port until stopped; the number of calls that failed. */
  private final class BoltCaller {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicInteger calls = new AtomicInteger();
    final BoltClient client;
    final Future<Integer> failures;

    BoltCaller(Tls tls) {
      BoltClient.Builder builder = BoltClient.builder();
      if (tls != null) {
        builder.tls(tls);
      }
      client = builder.build();
      Inventory inventory = InventoryBolt.newClient(client.channel("127.0.0.1:" + server.port()));
      failures = boltLoad.submit(() -> {
        int failed = 0;
        while (!stop.get()) {
          try {
            assertThat(inventory.get(new SkuId("apple")).available()).isEqualTo(12);
          } catch (Exception | AssertionError e) {
            failed++;
          }
          calls.incrementAndGet();
        }
        return failed;
      });
    }

    /** Stops the caller: every one of its calls succeeded. */
    void finish() throws Exception {
      stop.set(true);
      try {
        assertThat(failures.get(30, TimeUnit.SECONDS)).as("failed Bolt calls beside HTTP").isZero();
        assertThat(calls.get()).isPositive();
      } finally {
        client.close();
      }
    }
  }

  private static <T> byte[] encode(Marshaller<T> marshaller, T value) {
    ByteBuf buf = Unpooled.buffer();
    try {
      marshaller.write(value, buf.ensureWritable(marshaller.encodedSize(value)));
      byte[] bytes = new byte[buf.readableBytes()];
      buf.readBytes(bytes);
      return bytes;
    } finally {
      buf.release();
    }
  }

  private static <T> T decode(Marshaller<T> marshaller, byte[] bytes) {
    return marshaller.read(Unpooled.wrappedBuffer(bytes));
  }

  private static String route(MethodDescriptor<?, ?> method) {
    return method.httpPath();
  }

  /** Calls every method with the JDK client; {@code base} is {@code http://…} or {@code https://…}. */
  static void everyMethodWithTheJdkClient(HttpClient http, String base, HttpClient.Version version)
      throws Exception {
    HttpResponse<String> get = json(http, base + route(InventoryBolt.METHOD_GET), "{\"sku\": {\"value\": \"apple\"}}", null);
    assertThat(get.version()).isEqualTo(version);
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.body()).startsWith("{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,");

    HttpResponse<String> unknown = json(http, base + route(InventoryBolt.METHOD_GET), "{\"sku\": {\"value\": \"kiwi\"}}",
        null);
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(unknown.body()).contains("\"code\":\"failed_precondition\"")
        .contains("\"type\":\"io.boltgen.example.UnknownSkuException\"").contains("no such SKU: kiwi");

    HttpResponse<String> reserve = json(http, base + route(InventoryBolt.METHOD_RESERVE),
        "{\"request\": {\"sku\": {\"value\": \"pear\"}, \"quantity\": 1, \"customer\": \"http\"}}", null);
    assertThat(reserve.statusCode()).isEqualTo(200);
    assertThat(reserve.body()).contains("\"reservationId\":\"R-").contains("\"quantity\":1")
        .contains("\"expiresAtMillis\":\"");

    HttpResponse<String> watch = json(http, base + route(InventoryBolt.METHOD_WATCH), "{\"sku\": {\"value\": \"apple\"}}",
        null);
    assertThat(watch.statusCode()).isEqualTo(200);
    assertThat(watch.body()).contains("\"available\":12");

    HttpResponse<String> audit = json(http, base + route(InventoryBolt.METHOD_AUDIT),
        "{\"event\": {\"actor\": \"http\", \"action\": \"look\", \"tags\": [\"a\"], \"details\": {\"k\": \"v\"}}}", null);
    assertThat(audit.statusCode()).isEqualTo(200);
    assertThat(audit.body()).isEqualTo("{}");

    // report takes 1.5 s against its 500 ms timeout: the deadline answers; a longer Connect-Timeout-Ms lets it finish
    HttpResponse<String> late = json(http, base + route(InventoryBolt.METHOD_REPORT), "{\"includeEmpty\": true}", null);
    assertThat(late.statusCode()).isEqualTo(504);
    assertThat(late.body()).contains("\"code\":\"deadline_exceeded\"");
    HttpResponse<String> report = json(http, base + route(InventoryBolt.METHOD_REPORT), "{\"includeEmpty\": true}",
        "5000");
    assertThat(report.statusCode()).isEqualTo(200);
    assertThat(report.body()).contains("\"totalUnits\":\"");

    byte[] request = encode(InventoryBolt.METHOD_GET.requestMarshaller(), new InventoryBolt.GetRequest(new SkuId("apple")));
    HttpResponse<byte[]> proto = http.send(HttpRequest.newBuilder(URI.create(base + route(InventoryBolt.METHOD_GET)))
        .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/proto")
        .POST(HttpRequest.BodyPublishers.ofByteArray(request)).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(proto.statusCode()).isEqualTo(200);
    assertThat(proto.headers().firstValue("content-type")).hasValue("application/proto");
    Stock stock = decode(InventoryBolt.METHOD_GET.responseMarshaller(), proto.body());
    assertThat(stock.sku()).isEqualTo(new SkuId("apple"));
    assertThat(stock.available()).isEqualTo(12);
  }

  private static HttpResponse<String> json(HttpClient http, String url, String body, String timeoutMillis)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json").header("Connect-Protocol-Version", "1")
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (timeoutMillis != null) {
      request.header("Connect-Timeout-Ms", timeoutMillis);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** Runs curl with {@code args}; its standard output (it must exit 0 within 30 s). */
  static String curl(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
    command.addAll(List.of(args));
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      throw new AssertionError("cannot run curl: install it (apt-get install curl, or run scripts/test.sh)", e);
    }
    try {
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("curl finished").isTrue();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.exitValue()).as("curl's exit status; output: %s", output).isZero();
      return output;
    } finally {
      process.destroyForcibly();
    }
  }

  /** Calls every method with curl over {@code transport} (its options), keeping files in {@code dir}. */
  static void everyMethodWithCurl(Path dir, String base, String... transport) throws Exception {
    List<String> args = new ArrayList<>(List.of(transport));
    args.addAll(List.of("-w", "\n%{http_code} %{http_version}", "-H", "Content-Type: application/json", "-d",
        "{\"sku\": {\"value\": \"apple\"}}", base + route(InventoryBolt.METHOD_GET)));
    String out = curl(args.toArray(String[]::new));
    assertThat(out).startsWith("{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,").endsWith("\n200 2");

    Path body = dir.resolve("get.bin");
    Files.write(body, encode(InventoryBolt.METHOD_GET.requestMarshaller(), new InventoryBolt.GetRequest(new SkuId("apple"))));
    Path answer = dir.resolve("answer.bin");
    args = new ArrayList<>(List.of(transport));
    args.addAll(List.of("-o", answer.toString(), "-w", "%{http_code} %{http_version} %{content_type}", "-H",
        "Content-Type: application/proto", "--data-binary", "@" + body, base + route(InventoryBolt.METHOD_GET)));
    assertThat(curl(args.toArray(String[]::new))).isEqualTo("200 2 application/proto");
    Stock stock = decode(InventoryBolt.METHOD_GET.responseMarshaller(), Files.readAllBytes(answer));
    assertThat(stock.available()).isEqualTo(12);

    for (MethodDescriptor<?, ?> method : List.of(InventoryBolt.METHOD_WATCH, InventoryBolt.METHOD_AUDIT)) {
      args = new ArrayList<>(List.of(transport));
      args.addAll(List.of("-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json", "-d",
          method == InventoryBolt.METHOD_AUDIT ? "{\"event\": {\"actor\": \"curl\"}}" : "{\"sku\": {\"value\": \"apple\"}}",
          base + route(method)));
      assertThat(curl(args.toArray(String[]::new))).as(method.httpPath()).isEqualTo("200");
    }

    // a client stream and a bidirectional one (this transport is HTTP/2), each request in its Connect envelope
    Path skus = dir.resolve("skus.bin");
    Files.write(skus, envelopes("{\"skus\":{\"value\":\"apple\"}}", "{\"skus\":{\"value\":\"fig\"}}"));
    for (MethodDescriptor<?, ?> method : List.of(InventoryBolt.METHOD_TALLY, InventoryBolt.METHOD_LOOKUP)) {
      args = new ArrayList<>(List.of(transport));
      args.addAll(List.of("-H", "Content-Type: application/connect+json", "--data-binary", "@" + skus,
          base + route(method)));
      String streamed = curl(args.toArray(String[]::new));
      if (method == InventoryBolt.METHOD_TALLY) {
        assertThat(streamed).as("tally").contains("{\"code\":\"failed_precondition\",\"message\":\"no such SKU: fig\"");
      } else {
        assertThat(streamed).as("lookup").containsSubsequence(
            "{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12",
            "{\"value\":{\"sku\":{\"value\":\"fig\"},\"level\":\"STOCK_LEVEL_UNKNOWN\"}}").endsWith("{}");
      }
    }
  }

  /** Each JSON message in a Connect envelope: a flag byte (0), its length in 4 bytes, its bytes. */
  private static byte[] envelopes(String... messages) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (String message : messages) {
      byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
      out.writeBytes(java.nio.ByteBuffer.allocate(5).put((byte) 0).putInt(bytes.length).array());
      out.writeBytes(bytes);
    }
    return out.toByteArray();
  }

  @Test
  void cleartextHttp1AndHttp2BesideABoltClient() throws Exception {
    server = start(null);
    String base = "http://127.0.0.1:" + server.port();
    bolt = new BoltCaller(null);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    everyMethodWithTheJdkClient(http, base, HttpClient.Version.HTTP_1_1);
    everyMethodWithCurl(dir, base, "--http2-prior-knowledge");
    bolt.finish();
  }

  @Test
  void theServersOpenApiDocumentIsValidAndNamesEveryMethod() throws Exception {
    server = start(null);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> document = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + "/openapi.json")).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(document.statusCode()).isEqualTo(200);
    assertThat(document.headers().firstValue("content-type")).hasValue("application/json");
    ParseOptions options = new ParseOptions();
    options.setResolve(false);
    SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(document.body(), null, options);
    assertThat(parsed.getMessages()).as("swagger-parser's findings").isEmpty();
    OpenAPI api = parsed.getOpenAPI();
    assertThat(api.getOpenapi()).isEqualTo("3.1.0");
    assertThat(api.getPaths().keySet()).containsExactly("/demo.inventory.Inventory/get",
        "/demo.inventory.Inventory/reserve", "/demo.inventory.Inventory/watch", "/demo.inventory.Inventory/audit",
        "/demo.inventory.Inventory/report", "/demo.inventory.Inventory/browse", "/demo.inventory.Inventory/tally",
        "/demo.inventory.Inventory/lookup");
    assertThat(api.getPaths().get("/demo.inventory.Inventory/lookup").getPost().getExtensions())
        .containsEntry("x-boltgen-streaming", "bidi");
    assertThat(api.getComponents().getSchemas()).containsKeys("demo.inventory.GetRequest", "demo.inventory.Stock",
        "demo.inventory.StockLevel", "connect.Error");
    api.getPaths().forEach((path, item) -> assertThat(item.getPost().getRequestBody().getContent().values())
        .as("the example request of %s", path).anySatisfy(media -> assertThat(media.getExample()).isNotNull()));
  }

  @Test
  void tlsWithAlpnBesideABoltClient() throws Exception {
    TestCertificates certs = TestCertificates.create(dir);
    Tls serverTls = Tls.builder().keyPair(certs.server().certificateChainPem(), certs.server().privateKeyPem()).build();
    server = start(serverTls);
    String base = "https://127.0.0.1:" + server.port();
    bolt = new BoltCaller(Tls.builder().trust(certs.caPem()).build());
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(certs.trustStore())) {
      trust.load(in, certs.trustStorePassword().toCharArray());
    }
    TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, trustManagers.getTrustManagers(), null);
    HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl)
        .connectTimeout(Duration.ofSeconds(5)).build();
    everyMethodWithTheJdkClient(http2, base, HttpClient.Version.HTTP_2);
    HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl)
        .connectTimeout(Duration.ofSeconds(5)).build();
    everyMethodWithTheJdkClient(http1, base, HttpClient.Version.HTTP_1_1);
    everyMethodWithCurl(dir, base, "--cacert", certs.caPem().toString());
    bolt.finish();
  }
}
