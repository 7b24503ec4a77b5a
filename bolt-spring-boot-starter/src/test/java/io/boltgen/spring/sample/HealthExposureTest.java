package io.boltgen.spring.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a user sees at {@code GET /actuator/health} of the sample application: Spring Boot shows only the overall
 * status unless {@code management.endpoint.health.show-components} (or {@code show-details}) says otherwise,
 * so the boltgen components appear only then.
 */
class HealthExposureTest {

  private static String health(String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("--spring.main.web-application-type=servlet", "--server.port=0",
        "--server.address=127.0.0.1", "--boltgen.server.host=127.0.0.1", "--boltgen.server.port=0",
        "--boltgen.client.services[sample.Greeter].target=127.0.0.1:${local.boltgen.server.port}"));
    args.addAll(List.of(extra));
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(SampleApplication.class).run(args.toArray(String[]::new))) {
      try {
        String port = context.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> response = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                .timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
      } finally {
        context.getBean(Gate.class).open();
      }
    }
  }

  @Test
  void byDefaultTheHealthEndpointShowsOnlyTheStatus() throws Exception {
    assertThat(health()).contains("\"status\":\"UP\"").doesNotContain("boltServer").doesNotContain("boltClients");
  }

  @Test
  void withShowComponentsItShowsTheBoltgenComponents() throws Exception {
    assertThat(health("--management.endpoint.health.show-components=always"))
        .contains("\"boltServer\":{\"status\":\"UP\"}").contains("\"boltClients\":{\"status\":\"UP\"}");
  }

  @Test
  void withShowDetailsItShowsTheirDetailsToo() throws Exception {
    assertThat(health("--management.endpoint.health.show-details=always"))
        .contains("\"boltServer\":{\"details\":").contains("sample.Greeter");
  }
}
