package io.boltgen.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server at its connection limit answers an HTTP/1.1 client 503 with a Connect {@code unavailable} error
 * naming the limit, then closes the connection, as it answers a Bolt client {@code SERVER_THREADPOOL_BUSY};
 * once a connection closes, HTTP is served again.
 */
class HttpConnectionLimitTest {

  private BoltServer server;

  @BeforeEach
  void start() {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(new EchoService().definition(TextJson.FORMS)).http(true)
        .maxConnections(1).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void anHttpClientBeyondTheLimitIsAnswered503AndClosed() throws Exception {
    BoltClient holder = BoltClient.builder().build();
    try {
      holder.connect(new InetSocketAddress("127.0.0.1", server.port())).get(10, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().size() == 1);

      try (RawHttp http = RawHttp.connect(server.port())) {
        RawHttp.Response refused = http.send(RawHttp.post("/test.Echo/echo", "application/json", "{\"text\":\"x\"}"))
            .read();
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("content-type")).isEqualTo("application/json");
        assertThat(refused.header("connection")).isEqualTo("close");
        assertThat(refused.error()).containsEntry("code", "unavailable");
        assertThat(refused.error().get("message")).contains("maxConnections").contains("is 1");
        assertThat(http.closedWithin(Duration.ofSeconds(5))).isTrue();
      }
    } finally {
      holder.close();
    }

    await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().isEmpty());
    try (RawHttp http = RawHttp.connect(server.port())) {
      RawHttp.Response served = http.send(RawHttp.post("/test.Echo/echo", "application/json", "{\"text\":\"x\"}"))
          .read();
      assertThat(served.status()).isEqualTo(200);
      assertThat(served.text()).isEqualTo("{\"text\":\"x\"}");
    }
  }
}
