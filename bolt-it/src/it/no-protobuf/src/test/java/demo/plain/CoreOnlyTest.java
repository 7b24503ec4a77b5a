package demo.plain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A project that depends on bolt-runtime alone speaks Bolt without the protocol modules: neither HTTP
 * (bolt-http, Netty's HTTP/1.1 and HTTP/2 codecs), nor SOFARPC's dialect (bolt-sofarpc; the runtime brings only
 * bolt-hessian, boltgen's small Hessian codec for SOFABolt's error bodies, and no sofa-hessian), nor JSON
 * (bolt-json, Jackson) is in its dependency tree or on its class path, the processor generated no JSON codec,
 * calls work, and asking for HTTP says which module it needs.
 */
class CoreOnlyTest {

  @Test
  void noProtocolModuleIsInTheDependencyTree() throws Exception {
    // what `mvn dependency:tree` printed for this project (the pom writes it before the tests run)
    String tree = Files.readString(Path.of("target/dependency-tree.txt"));
    assertThat(tree).contains("io.boltgen:bolt-runtime:jar:", "io.boltgen:bolt-hessian:jar:", "io.netty:netty-handler:jar:")
        .doesNotContain("jackson", "netty-codec-http", "com.alipay", "bolt-json", "bolt-http", "bolt-sofarpc");
  }

  @Test
  void noProtocolModuleIsOnTheClassPath() {
    for (String absent : List.of("io.netty.handler.codec.http.HttpRequestDecoder",
        "io.netty.handler.codec.http2.Http2FrameCodec", "io.boltgen.runtime.internal.http.HttpProtocol",
        "io.boltgen.sofarpc.SofaRpc", "io.boltgen.sofarpc.SofaRpcHessian", "io.boltgen.json.JsonForms",
        "tools.jackson.core.JsonFactory", "demo.plain.CatalogBoltJson")) {
      assertThatThrownBy(() -> Class.forName(absent)).as(absent).isInstanceOf(ClassNotFoundException.class);
    }
  }

  @Test
  void boltCallsWorkAndHttpSaysWhatToAdd() throws Exception {
    try (BoltServer server = BoltServer.builder().bind("127.0.0.1", 0)
            .service(CatalogBolt.bind(new CatalogService())).build().start();
        BoltClient client = BoltClient.builder().build()) {
      Catalog catalog = CatalogBolt.newClient(client.channel("127.0.0.1:" + server.port()));
      Item nail = new Item("n1", 100, 1, 0.1, false, new byte[0], Kind.TOOL, new Dimensions(1, 2), List.of(),
          Map.of(), Optional.empty());
      assertThat(catalog.store(nail).get(10, TimeUnit.SECONDS)).isEqualTo(1L);
      assertThat(catalog.find("n1")).isPresent();
    }
    assertThatThrownBy(() -> BoltServer.builder().bind("127.0.0.1", 0)
            .service(CatalogBolt.bind(new CatalogService())).http(true).build().start())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("io.boltgen:bolt-http");
  }
}
