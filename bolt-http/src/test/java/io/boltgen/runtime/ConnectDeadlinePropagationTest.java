package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.string;
import static io.boltgen.runtime.http.TextJson.TEXT_JSON;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.http.TextJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The runtime's {@link DeadlinePropagationTest} with a front server that serves HTTP too, and the same over
 * Connect: {@code Connect-Timeout-Ms} (else the method's timeout) is the deadline that the calls its handler
 * makes inherit.
 */
class ConnectDeadlinePropagationTest extends DeadlinePropagationTest {

  private static final Duration BOUND = Duration.ofSeconds(10);

  @Override
  boolean http() {
    return true;
  }

  @Override
  UnaryOperator<MethodDescriptor.Builder<byte[], byte[]>> extensions() {
    return TextJson.FORMS;
  }

  @Test
  void aConnectCallsDeadlineFlowsIntoTheCallsItsHandlerMakes() throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(BOUND).build();
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.port()
        + "/test.Front/relay")).header("Content-Type", "application/json").timeout(BOUND);
    HttpResponse<String> inherited = http.send(request.copy().header("Connect-Timeout-Ms", "1500")
        .POST(HttpRequest.BodyPublishers.ofString(json("inherit"))).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(inherited.statusCode()).isEqualTo(200);
    assertThat(Integer.parseInt(text(inherited.body()))).isBetween(1, 1_500);
    HttpResponse<String> shorter = http.send(request.copy().header("Connect-Timeout-Ms", "5000")
        .POST(HttpRequest.BodyPublishers.ofString(json("shorter"))).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(Integer.parseInt(text(shorter.body()))).isBetween(1, 300);
    // without Connect-Timeout-Ms the served call's deadline is its method's timeout, 20 s
    HttpResponse<String> methods = http.send(request.copy()
        .POST(HttpRequest.BodyPublishers.ofString(json("inherit"))).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(Integer.parseInt(text(methods.body()))).isBetween(1, 20_000);
  }

  private static String json(String text) {
    return "{\"text\":\"" + text + "\"}";
  }

  /** The text of an answer {@code {"text":"…"}}, read with the service's own JSON codec. */
  private static String text(String body) {
    return string(io.boltgen.json.ProtoJson.read(TEXT_JSON,
        new java.io.ByteArrayInputStream(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)), false));
  }
}
