package demo.split.client;

import static org.assertj.core.api.Assertions.assertThat;

import demo.split.api.Greeter;
import demo.split.api.GreeterBolt;
import demo.split.api.Greeting;
import demo.split.api.Person;
import demo.split.server.GreeterServer;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server module's server and this module's client, both built on the API jar, over loopback. */
class GreeterClientTest {

  private BoltServer server;
  private BoltClient client;
  private String address;

  @BeforeEach
  void start() {
    server = GreeterServer.start("127.0.0.1", 0);
    client = BoltClient.builder().build();
    address = "127.0.0.1:" + server.port();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void syncAndFutureCallsReachTheServerModule() throws Exception {
    GreeterClient greeter = new GreeterClient(client, address);

    assertThat(greeter.greet("ada", 36)).isEqualTo("hello ada (36)");
    assertThat(greeter.greetAll("birthday", List.of("ada", "alan")).get(10, TimeUnit.SECONDS))
        .containsExactly("happy birthday, ada", "happy birthday, alan");
  }

  @Test
  void theGeneratedServiceIsFoundInTheApiJarThroughServiceLoader() {
    Greeter greeter = client.stub(Greeter.class, address);

    assertThat(greeter.greet(new Person("grace", 85))).isEqualTo(new Greeting("hello grace (85)"));
  }

  @Test
  void theGeneratedCodeAndItsResourcesComeFromTheApiJar() {
    String holder = GreeterBolt.class.getProtectionDomain().getCodeSource().getLocation().toString();
    assertThat(holder).endsWith("greeter-api-1.0.jar");
    ClassLoader loader = getClass().getClassLoader();
    assertThat(loader.getResource("META-INF/boltgen/demo.split.api.Greeter.proto"))
        .hasProtocol("jar");
    assertThat(loader.getResource("META-INF/services/io.boltgen.runtime.service.GeneratedService"))
        .hasProtocol("jar");
  }
}
