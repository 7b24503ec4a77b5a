package io.boltgen.spring.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * With bolt-micrometer on the class path and an {@link ObservationRegistry} in the context (Actuator's, with
 * its meter registry), every call of the starter's client and server is observed: the timers of both sides
 * count the sample's call.
 */
@SpringBootTest(properties = {
    "boltgen.server.host=127.0.0.1",
    "boltgen.server.port=0",
    "boltgen.client.services[sample.Greeter].target=127.0.0.1:${local.boltgen.server.port}"})
class SampleObservationTest {

  @Autowired
  Greeter greeter;

  @Autowired
  MeterRegistry meters;

  @Test
  void theStartersClientAndServerAreObserved() {
    assertThat(greeter.greet(new Name("meters"))).isEqualTo(new Greeting("hello meters"));
    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
      assertThat(count(meters, "boltgen.client.calls")).isEqualTo(1);
      assertThat(count(meters, "boltgen.server.calls")).isEqualTo(1);
    });
    assertThat(meters.get("boltgen.client.calls").tag("method", "greet").tag("status", "SUCCESS").timer().count())
        .isEqualTo(1);
  }

  private static long count(MeterRegistry meters, String name) {
    return meters.find(name).timers().stream().mapToLong(t -> t.count()).sum();
  }
}
