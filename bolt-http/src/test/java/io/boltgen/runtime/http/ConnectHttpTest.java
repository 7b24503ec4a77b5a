package io.boltgen.runtime.http;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.EchoService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Connect unary calls over HTTP/1.1 on the Bolt port, beside a Bolt client. */
class ConnectHttpTest {

  private final EchoService echo = new EchoService();
  private BoltServer server;
  private HttpClient http;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition(TextJson.FORMS)).http(true).build()
        .start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> post(String path, String contentType, byte[] body) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  @Test
  void jsonAndProtobufBodiesBesideABoltClient() throws Exception {
    HttpResponse<String> json = post("/test.Echo/echo", "application/json", bytes("{\"text\":\"héllo 🌍\"}"));
    assertThat(json.statusCode()).isEqualTo(200);
    assertThat(json.headers().firstValue("content-type")).hasValue("application/json");
    assertThat(json.body()).isEqualTo("{\"text\":\"héllo 🌍\"}");

    HttpResponse<String> proto = post("/test.Echo/echo", "application/proto", bytes("raw"));
    assertThat(proto.statusCode()).isEqualTo(200);
    assertThat(proto.headers().firstValue("content-type")).hasValue("application/proto");
    assertThat(proto.body()).isEqualTo("raw");

    try (BoltClient client = BoltClient.builder().build()) {
      BoltChannel channel = client.channel("127.0.0.1:" + server.port());
      assertThat(string(channel.invokeSync(ECHO, bytes("bolt"), CallOptions.DEFAULT))).isEqualTo("bolt");
    }
  }

  @Test
  void handlerFailureIsAConnectError() throws Exception {
    HttpResponse<String> failed = post("/test.Echo/fail", "application/json", bytes("{\"text\":\"x\"}"));
    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body()).contains("\"code\":\"internal\"").contains("boom: x");
  }

  @Test
  void unknownRouteNamesTheRoutes() throws Exception {
    HttpResponse<String> missing = post("/test.Echo/nope", "application/json", bytes("{}"));
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.body()).contains("\"code\":\"not_found\"").contains("/test.Echo/echo");
  }
}
