package demo.snippet;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import org.junit.jupiter.api.Test;

/** A real server and client on loopback, through the stub and skeleton the processor generated. */
class GreeterCallTest {

  @Test
  void aCallThroughTheGeneratedStubReachesTheServer() {
    try (BoltServer server = BoltServer.builder()
            .bind("127.0.0.1", 0)
            .service(GreeterBolt.bind(new GreeterService()))
            .build()
            .start();
        BoltClient client = BoltClient.builder().build()) {
      Greeter greeter = GreeterBolt.newClient(client.channel("127.0.0.1:" + server.port()));

      Greeting greeting = greeter.greet(new Person("bolt", 2));

      assertThat(greeting).isEqualTo(new Greeting("hello bolt! hello bolt!", 23));
    }
  }
}
