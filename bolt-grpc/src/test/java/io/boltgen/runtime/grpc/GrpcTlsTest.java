package io.boltgen.runtime.grpc;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.EchoService;
import io.boltgen.runtime.Tls;
import io.boltgen.testing.TestCertificates;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * grpc-java over TLS (HTTP/2 chosen by ALPN, trusting the test CA) calls a boltgen server on its Bolt port,
 * beside a Bolt client over TLS, with each of the server's TLS providers.
 */
class GrpcTlsTest {

  @TempDir
  static Path dir;

  private static TestCertificates certs;

  private final EchoService echo = new EchoService();
  private BoltServer server;
  private ManagedChannel grpc;
  private BoltClient bolt;

  @BeforeAll
  static void makeCertificates() {
    certs = TestCertificates.create(dir.resolve("certs"));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (bolt != null) {
      bolt.close();
    }
    if (grpc != null) {
      grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void grpcJavaOverTlsBesideABoltTlsClient(Tls.Provider provider) throws SSLException {
    server = BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition()).http(true)
        .tls(Tls.builder().provider(provider)
            .keyPair(certs.server().certificateChainPem(), certs.server().privateKeyPem())
            .build())
        .build().start();
    grpc = NettyChannelBuilder.forAddress("127.0.0.1", server.port())
        .sslContext(GrpcSslContexts.forClient().trustManager(certs.caPem().toFile()).build())
        .build();
    bolt = BoltClient.builder().tls(Tls.builder().provider(provider).trust(certs.caPem()).build()).build();

    byte[] answer = io.grpc.stub.ClientCalls.blockingUnaryCall(grpc, GrpcJava.unary("test.Echo", "echo"),
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), bytes("over TLS"));
    assertThat(string(answer)).isEqualTo("over TLS");

    BoltChannel channel = bolt.channel("127.0.0.1:" + server.port());
    assertThat(string(channel.invokeSync(ECHO, bytes("bolt over TLS"),
        io.boltgen.runtime.CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10))))).isEqualTo("bolt over TLS");

    // gRPC again after Bolt, on the same TLS connection as the first call
    answer = io.grpc.stub.ClientCalls.blockingUnaryCall(grpc, GrpcJava.unary("test.Echo", "echo"),
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), bytes("again"));
    assertThat(string(answer)).isEqualTo("again");
    assertThat(echo.echoed.get()).isEqualTo(3);
  }
}
