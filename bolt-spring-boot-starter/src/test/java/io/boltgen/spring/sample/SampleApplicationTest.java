package io.boltgen.spring.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.spring.BoltServerLifecycle;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The sample application in a real context: its server on a free port, its client bean (injected as the
 * interface) calling it over loopback, Actuator's health endpoint reporting both.
 */
@SpringBootTest(properties = {
    "boltgen.server.host=127.0.0.1",
    "boltgen.server.port=0",
    "boltgen.client.services[sample.Greeter].target=127.0.0.1:${local.boltgen.server.port}",
    "management.endpoint.health.show-details=always"})
class SampleApplicationTest {

  @Autowired
  Greeter greeter;

  @Autowired
  BoltClient client;

  @Autowired
  BoltServer server;

  @Autowired
  BoltServerLifecycle lifecycle;

  @Autowired
  HealthEndpoint health;

  @Test
  void theClientBeanCallsTheExportedBean() {
    assertThat(greeter.greet(new Name("spring"))).isEqualTo(new Greeting("hello spring"));
    assertThat(greeter).isNotInstanceOf(GreeterService.class);
    assertThat(lifecycle.isRunning()).isTrue();
    assertThat(lifecycle.services()).containsExactly("sample.Greeter");
    assertThat(client.connections()).isNotEmpty();
    assertThat(server.connections()).isNotEmpty();
  }

  @Test
  void healthIsUpWhileTheServerListensAndTheTargetConnects() {
    assertThat(health.healthForPath("boltServer").getStatus()).isEqualTo(Status.UP);
    assertThat(health.healthForPath("boltClients").getStatus()).isEqualTo(Status.UP);
    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
  }
}
