package demo.plain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Real calls, with every codec path of records, on a class path without protobuf-java. */
class WithoutProtobufTest {

  @Test
  void protobufJavaIsNotOnTheClassPath() {
    assertThatThrownBy(() -> Class.forName("com.google.protobuf.MessageLite"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void recordsTravelBothWays() throws Exception {
    try (BoltServer server = BoltServer.builder()
            .bind("127.0.0.1", 0)
            .service(CatalogBolt.bind(new CatalogService()))
            .build()
            .start();
        BoltClient client = BoltClient.builder().build()) {
      Catalog catalog = CatalogBolt.newClient(client.channel("127.0.0.1:" + server.port()));
      Item hammer = new Item("h1", 3, 1, 12.5, true, new byte[] {1, 2, 3}, Kind.TOOL, new Dimensions(30, 300),
          List.of("steel", "heavy"), Map.of("north", 2, "south", 1), Optional.of("fragile"));

      assertThat(catalog.find("h1")).isEmpty();
      assertThat(catalog.store(hammer).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
      assertThat(catalog.store(hammer).get(10, TimeUnit.SECONDS)).isEqualTo(2L);

      Item found = catalog.find("h1").orElseThrow();
      assertThat(found).usingRecursiveComparison().ignoringFields("revision").isEqualTo(hammer);
      assertThat(found.revision()).isEqualTo(2L);
      assertThat(found.blob()).containsExactly(1, 2, 3);
    }
  }
}
