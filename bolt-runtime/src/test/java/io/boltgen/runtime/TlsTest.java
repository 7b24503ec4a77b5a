package io.boltgen.runtime;

import static io.boltgen.runtime.EchoService.ECHO;
import static io.boltgen.runtime.EchoService.SINK;
import static io.boltgen.runtime.EchoService.bytes;
import static io.boltgen.runtime.EchoService.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.testing.Closer;
import io.boltgen.testing.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TLS and mutual TLS between a boltgen client and server on loopback, on both providers, with certificates
 * made for this run: every call style and a call back, who the peer is, refusals of missing, untrusted and
 * expired client certificates and of a server certificate for another host, authorization by allow-list,
 * key stores, and key material replaced without a restart.
 */
class TlsTest {

  @TempDir
  static Path certificatesDir;

  private static TestCertificates certs;

  private final EchoService echo = new EchoService();
  private final Closer closer = new Closer();

  @BeforeAll
  static void makeCertificates() throws Exception {
    certs = TestCertificates.create(certificatesDir);
  }

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  private static Tls.Builder serverTls(Tls.Provider provider) {
    return Tls.builder().provider(provider)
        .keyPair(certs.server().certificateChainPem(), certs.server().privateKeyPem())
        .trust(certs.caPem());
  }

  private static Tls.Builder clientTls(Tls.Provider provider) {
    return Tls.builder().provider(provider).trust(certs.caPem());
  }

  private static Tls.Builder clientTls(Tls.Provider provider, TestCertificates.Identity identity) {
    return clientTls(provider).keyPair(identity.certificateChainPem(), identity.privateKeyPem());
  }

  private BoltServer server(Tls tls, ServerInterceptor... interceptors) {
    BoltServer.Builder builder = BoltServer.builder().bind("127.0.0.1", 0).tls(tls).service(echo.definition());
    for (ServerInterceptor i : interceptors) {
      builder.serverInterceptor(i);
    }
    return closer.track(builder.build().start());
  }

  private BoltClient client(Tls tls) {
    return closer.track(BoltClient.builder().tls(tls).reconnect(true, Duration.ofMillis(100), Duration.ofSeconds(1))
        .build());
  }

  private static BoltChannel channel(BoltClient client, BoltServer server) {
    return client.channel("127.0.0.1:" + server.port());
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void everyCallStyleWorksOverTls(Tls.Provider provider) throws Exception {
    BoltServer server = server(serverTls(provider).build());
    BoltClient client = client(clientTls(provider).build());
    BoltChannel channel = channel(client, server);

    assertThat(string(channel.invokeSync(ECHO, bytes("sync"), CallOptions.DEFAULT))).isEqualTo("sync");
    assertThat(string(channel.invokeFuture(ECHO, bytes("future"), CallOptions.DEFAULT).get(5, TimeUnit.SECONDS)))
        .isEqualTo("future");
    CompletableFuture<String> callback = new CompletableFuture<>();
    channel.invokeCallback(ECHO, bytes("callback"), CallOptions.DEFAULT, new BoltCallback<>() {
      @Override
      public void onResponse(byte[] result) {
        callback.complete(string(result));
      }

      @Override
      public void onError(Throwable error) {
        callback.completeExceptionally(error);
      }
    });
    assertThat(callback.get(5, TimeUnit.SECONDS)).isEqualTo("callback");
    channel.invokeOneway(SINK, bytes("oneway"), CallOptions.DEFAULT);
    assertThat(echo.sunk.poll(5, TimeUnit.SECONDS)).isEqualTo("oneway");

    Connection toServer = client.connections().get(0);
    assertThat(toServer.peerIdentity().subject()).contains("CN=localhost");
    assertThat(toServer.peerIdentity().subjectAlternativeNames()).contains("DNS:localhost", "IP:127.0.0.1");
    assertThat(server.connections()).singleElement()
        .satisfies(c -> assertThat(c.peerIdentity()).as("no client certificate was asked for").isNull());
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void mutualTlsShowsTheClientToHandlersAndCallsBackOverTheSameConnection(Tls.Provider provider) throws Exception {
    AtomicReference<PeerIdentity> seen = new AtomicReference<>();
    BoltServer server = closer.track(BoltServer.builder().bind("127.0.0.1", 0)
        .tls(serverTls(provider).clientAuth(Tls.ClientAuth.REQUIRE).build())
        .service(ServiceDefinition.builder("test.Echo", "1.0")
            .method(ECHO, (request, call) -> {
              Connection connection = ServerContext.current().connection();
              seen.set(connection.peerIdentity());
              // duplex: the server calls the client back over the connection the request came on
              byte[] back = connection.channel().invokeSync(ECHO, bytes("back"), CallOptions.DEFAULT);
              call.respond(back);
            })
            .build())
        .build().start());
    BoltClient client = closer.track(BoltClient.builder()
        .tls(clientTls(provider, certs.client("orders")).build())
        .service(new EchoService().definition())
        .build());

    assertThat(string(channel(client, server).invokeSync(ECHO, bytes("x"), CallOptions.DEFAULT))).isEqualTo("back");
    assertThat(seen.get().subject()).contains("CN=orders");
    assertThat(seen.get().isNamed(seen.get().subject())).isTrue();
  }

  @Test
  void anMtlsServerRefusesClientsWithoutATrustedValidCertificate() throws Exception {
    BoltServer server = server(serverTls(Tls.Provider.JDK).clientAuth(Tls.ClientAuth.REQUIRE).build());
    List<TestCertificates.Identity> refused = List.of(certs.untrustedClient(), certs.expiredClient());
    for (TestCertificates.Identity identity : refused) {
      BoltClient client = client(clientTls(Tls.Provider.JDK, identity).build());
      assertRefused(channel(client, server));
    }
    assertRefused(channel(client(clientTls(Tls.Provider.JDK).build()), server)); // no certificate at all
    await().atMost(Duration.ofSeconds(5)).until(() -> server.connections().isEmpty());
  }

  @Test
  void aClientRefusesAServerWhoseCertificateNamesAnotherHost() throws Exception {
    TestCertificates.Identity wrong = certs.serverWrongHost();
    BoltServer server = server(Tls.builder().provider(Tls.Provider.JDK)
        .keyPair(wrong.certificateChainPem(), wrong.privateKeyPem()).build());
    assertRefused(channel(client(clientTls(Tls.Provider.JDK).build()), server));

    // an IP-only fleet may turn the check off: the certificate still has to chain to the trust
    BoltClient lenient = client(clientTls(Tls.Provider.JDK).verifyHostname(false).build());
    assertThat(string(channel(lenient, server).invokeSync(ECHO, bytes("ok"), CallOptions.DEFAULT))).isEqualTo("ok");
  }

  @Test
  void plainAndTlsPeersDoNotTalk() throws Exception {
    BoltServer tlsServer = server(serverTls(Tls.Provider.JDK).build());
    BoltClient plain = closer.track(BoltClient.builder().build());
    assertThatThrownBy(() -> channel(plain, tlsServer).invokeSync(ECHO, bytes("x"),
        CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(2)))).isInstanceOf(BoltException.class);

    BoltServer plainServer = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition())
        .build().start());
    assertRefused(channel(client(clientTls(Tls.Provider.JDK).build()), plainServer));
  }

  @Test
  void theAllowListRefusesATrustedButUnlistedPeerWithATypedException() throws Exception {
    BoltServer server = server(serverTls(Tls.Provider.JDK).clientAuth(Tls.ClientAuth.REQUIRE).build(),
        PeerAllowList.builder().allow("test.Echo", certs.client("orders").subject()).build());
    BoltChannel orders = channel(client(clientTls(Tls.Provider.JDK, certs.client("orders")).build()), server);
    assertThat(string(orders.invokeSync(ECHO, bytes("ok"), CallOptions.DEFAULT))).isEqualTo("ok");

    BoltChannel billing = channel(client(clientTls(Tls.Provider.JDK, certs.client("billing")).build()), server);
    assertThatThrownBy(() -> billing.invokeSync(ECHO, bytes("no"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(PeerNotAuthorizedException.class, e -> {
          assertThat(e.status()).isEqualTo(ResponseStatus.SERVER_EXCEPTION);
          assertThat(e.getMessage()).contains("CN=billing", "may not call", "test.Echo:1.0/echo");
        });
    assertThat(echo.echoed.get()).isEqualTo(1);
  }

  @Test
  void keyStoresWorkLikePemFiles() throws Exception {
    TestCertificates.Identity server = certs.server();
    TestCertificates.Identity client = certs.client("orders");
    BoltServer pkcs12 = server(Tls.builder().provider(Tls.Provider.JDK)
        .keyStore(server.keyStore(), server.password().toCharArray(), "PKCS12")
        .trustStore(certs.trustStore(), certs.trustStorePassword().toCharArray(), "PKCS12")
        .clientAuth(Tls.ClientAuth.REQUIRE).build());
    BoltClient jks = client(Tls.builder().provider(Tls.Provider.JDK)
        .keyStore(client.jksKeyStore(), client.password().toCharArray(), "JKS")
        .trustStore(certs.jksTrustStore(), certs.trustStorePassword().toCharArray(), "JKS").build());
    assertThat(string(channel(jks, pkcs12).invokeSync(ECHO, bytes("stores"), CallOptions.DEFAULT)))
        .isEqualTo("stores");
  }

  @Test
  void replacedKeyMaterialServesNewConnectionsWhileOldOnesKeepWorking(@TempDir Path live) throws Exception {
    Path chain = live.resolve("server-chain.pem");
    Path key = live.resolve("server-key.pem");
    Files.copy(certs.server().certificateChainPem(), chain);
    Files.copy(certs.server().privateKeyPem(), key);
    BoltServer server = server(Tls.builder().provider(Tls.Provider.JDK).keyPair(chain, key).build());
    BoltClient before = client(clientTls(Tls.Provider.JDK).build());
    BoltChannel old = channel(before, server);
    assertThat(string(old.invokeSync(ECHO, bytes("1"), CallOptions.DEFAULT))).isEqualTo("1");
    X509Certificate first = before.connections().get(0).peerIdentity().certificates().get(0);

    Files.copy(certs.serverRotated().certificateChainPem(), chain, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(certs.serverRotated().privateKeyPem(), key, StandardCopyOption.REPLACE_EXISTING);
    server.reloadTls();

    BoltClient after = client(clientTls(Tls.Provider.JDK).build());
    assertThat(string(channel(after, server).invokeSync(ECHO, bytes("2"), CallOptions.DEFAULT))).isEqualTo("2");
    X509Certificate second = after.connections().get(0).peerIdentity().certificates().get(0);
    assertThat(second.getSerialNumber()).isNotEqualTo(first.getSerialNumber());
    assertThat(second).isEqualTo(certs.serverRotated().certificate());

    assertThat(string(old.invokeSync(ECHO, bytes("3"), CallOptions.DEFAULT))).isEqualTo("3");
    assertThat(before.connections()).singleElement()
        .satisfies(c -> assertThat(c.peerIdentity().certificates().get(0)).isEqualTo(first));
  }

  @Test
  void filesThatChangeAreReloadedWhenWatched(@TempDir Path live) throws Exception {
    Path chain = live.resolve("server-chain.pem");
    Path key = live.resolve("server-key.pem");
    Files.copy(certs.server().certificateChainPem(), chain);
    Files.copy(certs.server().privateKeyPem(), key);
    BoltServer server = server(Tls.builder().provider(Tls.Provider.JDK).keyPair(chain, key)
        .reloadEvery(Duration.ofMillis(50)).build());
    Files.copy(certs.serverRotated().certificateChainPem(), chain, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(certs.serverRotated().privateKeyPem(), key, StandardCopyOption.REPLACE_EXISTING);
    Files.setLastModifiedTime(chain, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 10_000));

    List<X509Certificate> served = new CopyOnWriteArrayList<>();
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      try (BoltClient probe = BoltClient.builder().tls(clientTls(Tls.Provider.JDK).build()).build()) {
        channel(probe, server).invokeSync(ECHO, bytes("probe"), CallOptions.DEFAULT);
        served.add(probe.connections().get(0).peerIdentity().certificates().get(0));
      }
      return served.get(served.size() - 1).equals(certs.serverRotated().certificate());
    });
  }

  @Test
  void unusableKeyMaterialFailsTheBuildAndAReloadKeepsTheCurrentOne(@TempDir Path live) throws Exception {
    Path garbage = Files.writeString(live.resolve("garbage.pem"), "not a certificate");
    assertThatThrownBy(() -> BoltServer.builder().bind("127.0.0.1", 0).service(echo.definition())
        .tls(Tls.builder().keyPair(garbage, garbage).build()).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad TLS key or trust material");

    Path chain = Files.copy(certs.server().certificateChainPem(), live.resolve("chain.pem"));
    Path key = Files.copy(certs.server().privateKeyPem(), live.resolve("key.pem"));
    BoltServer server = server(Tls.builder().provider(Tls.Provider.JDK).keyPair(chain, key).build());
    Files.writeString(chain, "broken");
    assertThatThrownBy(server::reloadTls).isInstanceOf(IllegalArgumentException.class);
    BoltClient client = client(clientTls(Tls.Provider.JDK).build());
    assertThat(string(channel(client, server).invokeSync(ECHO, bytes("still"), CallOptions.DEFAULT)))
        .isEqualTo("still");
  }

  @Test
  void aRefusedHandshakeLeavesAtMostOneLineOnEachSideAndNoStackTrace() throws Exception {
    BoltServer server = server(serverTls(Tls.Provider.JDK).clientAuth(Tls.ClientAuth.REQUIRE).build());
    java.io.PrintStream original = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      BoltClient client = closer.track(BoltClient.builder().tls(clientTls(Tls.Provider.JDK).build()) // no certificate
          .reconnect(false, Duration.ofMillis(100), Duration.ofSeconds(1)).build()); // one attempt, one refusal
      assertRefused(channel(client, server));
      await().atMost(Duration.ofSeconds(5)).until(() -> server.connections().isEmpty());
      client.close(); // no reconnect after this: only the refusal's lines are in the capture
    } finally {
      System.setErr(original);
    }
    // the lines are rate-limited per cause (10 a minute, shared by every test of this JVM), so a line may
    // have been held back; what is never allowed is more than one per side, a line without the reason, or a
    // stack trace
    List<String> lines = captured.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).filteredOn(l -> l.contains("TLS with")).hasSizeLessThanOrEqualTo(2)
        .allSatisfy(l -> assertThat(l).containsAnyOf("certificate", "alert"));
    assertThat(lines).as("no stack trace").noneMatch(l -> l.startsWith("\tat "));
  }

  /** A call over {@code channel} fails without reaching the server: its connection's handshake failed. */
  private void assertRefused(BoltChannel channel) {
    int served = echo.echoed.get();
    assertThatThrownBy(() -> channel.invokeSync(ECHO, bytes("refused"), CallOptions.DEFAULT))
        .isInstanceOfSatisfying(BoltException.class, e -> assertThat(e.status())
            .isIn(ResponseStatus.ERROR_COMM, ResponseStatus.CONNECTION_CLOSED));
    assertThat(echo.echoed.get()).isEqualTo(served);
  }
}
