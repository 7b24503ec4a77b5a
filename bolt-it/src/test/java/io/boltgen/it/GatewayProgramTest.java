package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.example.InventoryBolt;
import io.boltgen.example.InventoryService;
import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.Tls;
import io.boltgen.testing.EtcdProcess;
import io.boltgen.testing.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/gateway.md's "As a program, for any service" bash snippet, run exactly as it is written there, against
 * what it says it needs: etcd on 127.0.0.1:2379 and an instance of the example registered in it that speaks
 * only TLS. The snippet runs the gateway from its runnable jar with TLS on its port and to the instance, and
 * curl calls it over HTTPS. It runs in a temporary directory where {@code bolt-gateway/target/bolt-gateway.jar}
 * and {@code example-service/target/example-service.jar} are the freshly built jars and {@code gateway.pem},
 * {@code gateway-key.pem} and {@code ca.pem} the files of a test CA.
 */
class GatewayProgramTest {

  private static final String SECTION = "### As a program, for any service";

  @Test
  void theDocsGatewayRunsFromItsJarWithTlsOnBothSides(@TempDir Path dir) throws Exception {
    String snippet = Snippets.bashBlock("docs/gateway.md", SECTION);
    assertThat(snippet).contains("java -jar bolt-gateway/target/bolt-gateway.jar --registry etcd://127.0.0.1:2379",
        "--tls-cert gateway.pem", "--instance-ca ca.pem", "curl -s --cacert ca.pem https://localhost:8443/");
    for (int port : List.of(2379, 2380, 8443)) {
      assertThat(Snippets.isFree(port)).as("port %d must be free: the snippet's etcd and gateway use it", port).isTrue();
    }
    Snippets.link(dir, "bolt-gateway/target/bolt-gateway.jar", "gateway.jar");
    Snippets.link(dir, "example-service/target/example-service.jar", "example.jar");
    TestCertificates certificates = TestCertificates.create(dir.resolve("ca"));
    TestCertificates.Identity server = certificates.server();
    Files.copy(server.certificateChainPem(), dir.resolve("gateway.pem"));
    Files.copy(server.privateKeyPem(), dir.resolve("gateway-key.pem"));
    Files.copy(certificates.caPem(), dir.resolve("ca.pem"));

    ExecutorService reservations = Executors.newSingleThreadExecutor();
    try (EtcdProcess etcd = EtcdProcess.startOn(2379, 2380);
        EtcdRegistry registry = EtcdRegistry.builder().endpoints(etcd.clientUrl()).build();
        BoltServer instance = BoltServer.builder().bind("127.0.0.1", 0)
            .tls(Tls.builder().keyPair(server.certificateChainPem(), server.privateKeyPem()).build())
            .service(InventoryBolt.bind(new InventoryService(reservations, 1_500))).registry(registry).build()
            .start()) {
      assertThat(instance.port()).as("the TLS-only instance the gateway forwards to").isPositive();
      Snippets.Run run = Snippets.run(dir, snippet, Duration.ofMinutes(2));
      String printed = run.printed();
      String gatewayOut = Files.readString(dir.resolve("gateway.out"), StandardCharsets.UTF_8);
      assertThat(run.finished()).as("the snippet ends within 2 minutes; it printed:\n%s\ngateway.out:\n%s", printed, gatewayOut)
          .isTrue();
      // the last line waits for the gateway it stopped: a JVM ended by SIGTERM exits with 143 (128 + 15)
      assertThat(run.exitValue()).as("its exit status; it printed:\n%s", printed).isEqualTo(143);
      assertThat(gatewayOut).contains("forwarding demo.Inventory:1.0 to etcd:///demo.Inventory:1.0", "READY 8443");
      assertThat(printed).as("curl over HTTPS through the gateway, which reached the TLS-only instance").contains(
          "{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,\"level\":\"STOCK_LEVEL_IN_STOCK\"");
    } finally {
      reservations.shutdownNow();
    }
  }
}
