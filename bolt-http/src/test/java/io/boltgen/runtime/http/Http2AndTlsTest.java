package io.boltgen.runtime.http;

import static io.boltgen.runtime.EchoService.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.Tls;
import io.boltgen.testing.TestCertificates;
import java.io.File;
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
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * HTTP as real clients speak it on the Bolt port: HTTP/2 in clear text by prior knowledge (Debian's curl), and
 * under TLS HTTP/2 and HTTP/1.1 chosen by ALPN (the JDK's HttpClient and curl, trusting the test CA), each with
 * JSON and protobuf bodies while a Bolt client (over TLS where the server is) calls on the same port.
 */
class Http2AndTlsTest {

  private static final Duration BOUND = Duration.ofSeconds(20);
  private static final String JSON_BODY = "{\"text\":\"h\u00e9llo h2\"}";

  @TempDir
  static Path dir;

  private static TestCertificates certs;

  private final EchoService echo = new EchoService();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private final ExecutorService boltThread = Executors.newSingleThreadExecutor();

  @BeforeAll
  static void makeCertificates() {
    certs = TestCertificates.create(dir.resolve("certs"));
  }

  @AfterEach
  void stop() throws Exception {
    boltThread.shutdownNow();
    assertThat(boltThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  private BoltServer server(Tls tls) {
    BoltServer.Builder builder = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition(TextJson.FORMS))
        .http(true);
    if (tls != null) {
      builder.tls(tls);
    }
    BoltServer server = builder.build().start();
    toClose.add(server);
    return server;
  }

  private static Tls serverTls(Tls.Provider provider) {
    return Tls.builder().provider(provider)
        .keyPair(certs.server().certificateChainPem(), certs.server().privateKeyPem())
        .build();
  }

  private static Tls boltClientTls(Tls.Provider provider) {
    return Tls.builder().provider(provider).trust(certs.caPem()).build();
  }

  /** Bolt calls on {@code server} in a loop until {@code http} returns; then requires they all succeeded. */
  private void besideBolt(BoltServer server, Tls clientTls, HttpCalls http) throws Exception {
    BoltProbe bolt = BoltProbe.open(server, clientTls);
    toClose.add(bolt);
    AtomicBoolean done = new AtomicBoolean();
    Future<Integer> calls = boltThread.submit(() -> {
      int n = 0;
      while (!done.get() || n == 0) {
        bolt.assertServes("beside HTTP " + n++);
      }
      return n;
    });
    try {
      http.run();
    } finally {
      done.set(true);
    }
    assertThat(calls.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isPositive();
  }

  @FunctionalInterface
  interface HttpCalls {
    void run() throws Exception;
  }

  // curl

  /** What curl reported: the HTTP version ({@code %{http_version}}), the status, and the body. */
  record Curled(String version, int status, String body) {}

  private static Curled curl(String url, String contentType, String body, String... options) throws Exception {
    String curl = onPath("curl");
    if (curl == null) {
      fail("curl is not on the PATH: install curl (apt-get install curl)");
    }
    Path out = Files.createTempFile(dir, "curl", ".body");
    Path report = Files.createTempFile(dir, "curl", ".out");
    Path errors = Files.createTempFile(dir, "curl", ".err");
    List<String> command = new ArrayList<>(List.of(curl, "-sS", "--max-time", "10", "-o", out.toString(),
        "-w", "%{http_version} %{http_code}", "-H", "Content-Type: " + contentType, "--data-binary", body));
    command.addAll(List.of(options));
    command.add(url);
    Process process = new ProcessBuilder(command).redirectOutput(report.toFile()).redirectError(errors.toFile())
        .start();
    try {
      if (!process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)) {
        fail("curl did not finish within " + BOUND + ": " + command);
      }
    } finally {
      process.destroyForcibly();
      process.waitFor(5, TimeUnit.SECONDS);
    }
    assertThat(process.exitValue()).as("curl's exit code; stderr: %s", Files.readString(errors)).isZero();
    String[] reported = Files.readString(report).trim().split(" ");
    return new Curled(reported[0], Integer.parseInt(reported[1]), Files.readString(out, StandardCharsets.UTF_8));
  }

  private static String onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String directory : path.split(File.pathSeparator)) {
      Path candidate = Path.of(directory.isEmpty() ? "." : directory, program);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }

  private static void curlJsonAndProto(String url, String version, String... options) throws Exception {
    Curled json = curl(url + "/test.Echo/echo", "application/json", JSON_BODY, options);
    assertThat(json.version()).isEqualTo(version);
    assertThat(json.status()).isEqualTo(200);
    assertThat(json.body()).isEqualTo(JSON_BODY);
    Curled proto = curl(url + "/test.Echo/echo", "application/proto", "raw protobuf bytes", options);
    assertThat(proto.version()).isEqualTo(version);
    assertThat(proto.status()).isEqualTo(200);
    assertThat(proto.body()).isEqualTo("raw protobuf bytes");
    Curled missing = curl(url + "/test.Echo/missing", "application/json", "{}", options);
    assertThat(missing.version()).isEqualTo(version);
    assertThat(missing.status()).isEqualTo(404);
    assertThat(RawHttp.errorFields(missing.body())).containsEntry("code", "not_found");
  }

  @Test
  void curlHttp2PriorKnowledgeInClearText() throws Exception {
    BoltServer server = server(null);
    besideBolt(server, null, () ->
        curlJsonAndProto("http://127.0.0.1:" + server.port(), "2", "--http2-prior-knowledge"));
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void curlOverTlsGetsHttp2ByAlpn(Tls.Provider provider) throws Exception {
    BoltServer server = server(serverTls(provider));
    besideBolt(server, boltClientTls(provider), () ->
        curlJsonAndProto("https://127.0.0.1:" + server.port(), "2", "--cacert", certs.caPem().toString()));
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void curlOverTlsWithHttp11(Tls.Provider provider) throws Exception {
    BoltServer server = server(serverTls(provider));
    besideBolt(server, boltClientTls(provider), () ->
        curlJsonAndProto("https://127.0.0.1:" + server.port(), "1.1", "--http1.1", "--cacert",
            certs.caPem().toString()));
  }

  // the JDK's HttpClient

  private static SSLContext trustingTheTestCa() throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(certs.trustStore())) {
      trust.load(in, certs.trustStorePassword().toCharArray());
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private static void jdkJsonAndProto(HttpClient client, String url, HttpClient.Version version) throws Exception {
    for (String[] typeAndBody : new String[][] {{"application/json", JSON_BODY}, {"application/proto", "raw"}}) {
      HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(url + "/test.Echo/echo"))
          .timeout(BOUND)
          .header("Content-Type", typeAndBody[0])
          .header("Connect-Protocol-Version", "1")
          .POST(HttpRequest.BodyPublishers.ofByteArray(bytes(typeAndBody[1])))
          .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      assertThat(answer.version()).isEqualTo(version);
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.headers().firstValue("content-type")).hasValue(typeAndBody[0]);
      assertThat(answer.body()).isEqualTo(typeAndBody[1]);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void jdkHttpClientOverTlsGetsHttp2ByAlpn(Tls.Provider provider) throws Exception {
    BoltServer server = server(serverTls(provider));
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trustingTheTestCa())
        .connectTimeout(Duration.ofSeconds(5)).build();
    besideBolt(server, boltClientTls(provider), () -> {
      jdkJsonAndProto(client, "https://127.0.0.1:" + server.port(), HttpClient.Version.HTTP_2);
      // several streams on one connection at once
      List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port()
            + "/test.Echo/echo")).timeout(BOUND).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"s" + i + "\"}")).build(),
            HttpResponse.BodyHandlers.ofString()));
      }
      for (int i = 0; i < answers.size(); i++) {
        HttpResponse<String> answer = answers.get(i).get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(answer.body()).isEqualTo("{\"text\":\"s" + i + "\"}");
      }
    });
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void jdkHttpClientOverTlsWithHttp11(Tls.Provider provider) throws Exception {
    BoltServer server = server(serverTls(provider));
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(trustingTheTestCa())
        .connectTimeout(Duration.ofSeconds(5)).build();
    besideBolt(server, boltClientTls(provider), () ->
        jdkJsonAndProto(client, "https://127.0.0.1:" + server.port(), HttpClient.Version.HTTP_1_1));
  }

  @Test
  void jdkHttpClientAskingForHttp2InClearTextIsAnsweredInHttp11() throws Exception {
    BoltServer server = server(null);
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
        .connectTimeout(Duration.ofSeconds(5)).build();
    besideBolt(server, null, () ->
        jdkJsonAndProto(client, "http://127.0.0.1:" + server.port(), HttpClient.Version.HTTP_1_1));
  }

  @Test
  void http2BodyOverTheLimitIs413() throws Exception {
    BoltServer server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition(TextJson.FORMS))
        .maxFrameLength(4096)
        .http(true).build().start();
    toClose.add(server);
    besideBolt(server, null, () -> {
      Curled big = curl("http://127.0.0.1:" + server.port() + "/test.Echo/echo", "application/proto", "x".repeat(5000),
          "--http2-prior-knowledge");
      assertThat(big.version()).isEqualTo("2");
      assertThat(big.status()).isEqualTo(413);
      assertThat(RawHttp.errorFields(big.body())).containsEntry("code", "resource_exhausted");
      Curled small = curl("http://127.0.0.1:" + server.port() + "/test.Echo/echo", "application/proto", "small",
          "--http2-prior-knowledge");
      assertThat(small.status()).isEqualTo(200);
      assertThat(small.body()).isEqualTo("small");
    });
  }
}
