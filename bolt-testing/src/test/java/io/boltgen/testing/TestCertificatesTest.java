package io.boltgen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.boltgen.testing.TestCertificates.Identity;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestCertificatesTest {

  private static final int DNS = 2;
  private static final int URI = 6;
  private static final int IP = 7;
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  private static final InetAddress LOOPBACK = loopback();
  private static final int TIMEOUT_MILLIS = 10_000;

  @TempDir
  static Path dir;

  private static TestCertificates certificates;
  private static ExecutorService servers;

  @BeforeAll
  static void generate() {
    long start = System.nanoTime();
    certificates = TestCertificates.create(dir);
    long generated = System.nanoTime();
    certificates.client("orders");
    long end = System.nanoTime();
    System.out.printf("generated the CAs and five identities in %d ms, client(\"orders\") in %d ms%n",
        TimeUnit.NANOSECONDS.toMillis(generated - start), TimeUnit.NANOSECONDS.toMillis(end - generated));
    servers = Executors.newCachedThreadPool();
  }

  @AfterAll
  static void stopServers() throws InterruptedException {
    servers.shutdownNow();
    assertThat(servers.awaitTermination(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
  }

  private static List<Identity> all() {
    return List.of(certificates.server(), certificates.serverWrongHost(), certificates.serverRotated(),
        certificates.client("orders"), certificates.expiredClient(), certificates.untrustedClient());
  }

  private static List<Identity> trusted() {
    return List.of(certificates.server(), certificates.serverWrongHost(), certificates.serverRotated(),
        certificates.client("orders"), certificates.expiredClient());
  }

  @Test
  void everyFileIsInTheDirectoryNamedForWhatItHoldsAndNoWorkFileIsLeft() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<String> names = files.map(file -> file.getFileName().toString()).collect(Collectors.toList());
      assertThat(names).contains("ca.pem", "other-ca.pem", "truststore.p12", "truststore.jks", "ca-key.p12",
          "other-ca-key.p12", "server.chain.pem", "server.key.pem", "server.p12", "server.jks",
          "server-wrong-host.p12", "server-rotated.p12", "client-orders.chain.pem", "client-orders.key.pem",
          "client-orders.p12", "client-orders.jks", "expired-client.p12", "untrusted-client.p12");
      assertThat(names).noneMatch(name -> name.endsWith(".issuing.p12") || name.endsWith(".log"));
    }
    for (Identity identity : all()) {
      assertThat(identity.certificateChainPem()).isRegularFile().hasParent(dir);
      assertThat(identity.privateKeyPem()).isRegularFile().hasParent(dir);
      assertThat(identity.keyStore()).isRegularFile().hasParent(dir);
      assertThat(identity.jksKeyStore()).isRegularFile().hasParent(dir);
    }
  }

  @Test
  void createIsCachedPerDirectoryAndClientsByName(@TempDir Path other) {
    assertThat(TestCertificates.create(dir)).isSameAs(certificates);
    assertThat(TestCertificates.create(dir.resolve(".").resolve("x").resolve(".."))).isSameAs(certificates);
    assertThat(certificates.client("orders")).isSameAs(certificates.client("orders"));
    assertThatThrownBy(() -> certificates.client("Not a name")).isInstanceOf(IllegalArgumentException.class);

    TestCertificates elsewhere = TestCertificates.create(other);
    assertThat(elsewhere).isNotSameAs(certificates);
    assertThat(elsewhere.server().certificate().getPublicKey()).isNotEqualTo(certificates.server().certificate().getPublicKey());
    assertThat(elsewhere.caPem()).hasParent(other);
  }

  @Test
  void thePemFilesParseAndTheChainIsTheLeafThenItsCa() throws Exception {
    X509Certificate ca = certificate(certificates.caPem());
    X509Certificate otherCa = certificate(certificates.otherCaPem());
    assertThat(ca.getSubjectX500Principal().getName()).isEqualTo("CN=boltgen test CA");
    assertThat(otherCa.getSubjectX500Principal().getName()).isEqualTo("CN=boltgen other CA");
    assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
    for (Identity identity : all()) {
      List<X509Certificate> chain = certificates(identity.certificateChainPem());
      assertThat(chain).as(identity.subject()).hasSize(2);
      assertThat(chain.get(0)).isEqualTo(identity.certificate());
      assertThat(chain.get(1)).isEqualTo(identity == certificates.untrustedClient() ? otherCa : ca);
      assertThat(identity.certificate().getPublicKey().getAlgorithm()).isEqualTo("EC");
      assertThat(identity.certificate().getBasicConstraints()).isEqualTo(-1);
    }
    assertThat(certificates.server().subject()).isEqualTo("CN=localhost");
    assertThat(certificates.serverWrongHost().subject()).isEqualTo("CN=wrong.example");
    assertThat(certificates.client("orders").subject()).isEqualTo("CN=orders");
  }

  @Test
  void thePrivateKeyIsUnencryptedPkcs8PemAndBelongsToTheCertificate() throws Exception {
    for (Identity identity : all()) {
      String pem = Files.readString(identity.privateKeyPem(), StandardCharsets.US_ASCII);
      assertThat(pem).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
      List<String> body = pem.lines().filter(line -> !line.startsWith("-----")).collect(Collectors.toList());
      assertThat(body).allMatch(line -> line.length() <= 64);
      assertThat(body.subList(0, body.size() - 1)).allMatch(line -> line.length() == 64);
      PrivateKey key = KeyFactory.getInstance(identity.certificate().getPublicKey().getAlgorithm())
          .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(String.join("", body))));
      assertThat(key.getAlgorithm()).isEqualTo("EC");
      assertThat(signsFor(key, identity.certificate())).as(identity.subject()).isTrue();
      assertThat(key.getEncoded()).isEqualTo(
          load(identity.keyStore(), "PKCS12", identity.password()).getKey("identity", identity.password().toCharArray())
              .getEncoded());
    }
    assertThat(signsFor(key(certificates.server()), certificates.serverRotated().certificate())).isFalse();
  }

  @Test
  void theKeyStoresHoldTheKeyAndChainUnderIdentityInPkcs12AndJks() throws Exception {
    for (Identity identity : all()) {
      for (String type : List.of("PKCS12", "JKS")) {
        KeyStore store = load(type.equals("JKS") ? identity.jksKeyStore() : identity.keyStore(), type, identity.password());
        assertThat(store.getType()).isEqualToIgnoringCase(type);
        assertThat(list(store)).containsExactly("identity");
        assertThat(store.isKeyEntry("identity")).isTrue();
        assertThat(store.getCertificateChain("identity")).containsExactlyElementsOf(
            certificates(identity.certificateChainPem()));
        assertThat(signsFor((PrivateKey) store.getKey("identity", identity.password().toCharArray()),
            identity.certificate())).isTrue();
      }
    }
    X509Certificate ca = certificate(certificates.caPem());
    for (String type : List.of("PKCS12", "JKS")) {
      KeyStore trust = load(type.equals("JKS") ? certificates.jksTrustStore() : certificates.trustStore(), type,
          certificates.trustStorePassword());
      assertThat(list(trust)).containsExactly("ca");
      assertThat(trust.isCertificateEntry("ca")).isTrue();
      assertThat(trust.getCertificate("ca")).isEqualTo(ca);
    }
  }

  @Test
  void theTrustedChainsVerifyAgainstTheCaAndTheUntrustedOneOnlyAgainstTheOther() throws Exception {
    X509Certificate ca = certificate(certificates.caPem());
    ca.verify(ca.getPublicKey());
    for (Identity identity : trusted()) {
      assertThatNoException().as(identity.subject()).isThrownBy(() -> identity.certificate().verify(ca.getPublicKey()));
      assertThat(identity.certificate().getIssuerX500Principal()).isEqualTo(ca.getSubjectX500Principal());
    }
    X509Certificate untrusted = certificates.untrustedClient().certificate();
    assertThatThrownBy(() -> untrusted.verify(ca.getPublicKey())).isInstanceOf(java.security.SignatureException.class);
    untrusted.verify(certificate(certificates.otherCaPem()).getPublicKey());
  }

  @Test
  void onlyTheExpiredClientIsOutOfDate() throws Exception {
    assertThatThrownBy(() -> certificates.expiredClient().certificate().checkValidity())
        .isInstanceOf(CertificateExpiredException.class);
    certificate(certificates.caPem()).checkValidity();
    certificate(certificates.otherCaPem()).checkValidity();
    for (Identity identity : all()) {
      if (identity != certificates.expiredClient()) {
        assertThatNoException().as(identity.subject()).isThrownBy(() -> identity.certificate().checkValidity());
      }
    }
  }

  @Test
  void theSubjectAlternativeNamesAndKeyUsagesAreWhatTheTestsRelyOn() throws Exception {
    assertThat(sans(certificates.server())).containsExactlyInAnyOrder(List.of(DNS, "localhost"), List.of(IP, "127.0.0.1"));
    assertThat(sans(certificates.serverRotated())).containsExactlyInAnyOrder(List.of(DNS, "localhost"), List.of(IP, "127.0.0.1"));
    assertThat(sans(certificates.serverWrongHost())).containsExactly(List.of(DNS, "wrong.example"));
    assertThat(sans(certificates.client("orders")))
        .containsExactlyInAnyOrder(List.of(DNS, "orders.test"), List.of(URI, "spiffe://boltgen.test/orders"));
    assertThat(sans(certificates.expiredClient())).contains(List.of(URI, "spiffe://boltgen.test/expired"));
    assertThat(sans(certificates.untrustedClient())).contains(List.of(URI, "spiffe://boltgen.test/untrusted"));

    for (Identity server : List.of(certificates.server(), certificates.serverWrongHost(), certificates.serverRotated())) {
      assertThat(server.certificate().getExtendedKeyUsage()).containsExactly(SERVER_AUTH);
    }
    for (Identity client : List.of(certificates.client("orders"), certificates.expiredClient(), certificates.untrustedClient())) {
      assertThat(client.certificate().getExtendedKeyUsage()).containsExactly(CLIENT_AUTH);
    }
  }

  @Test
  void theRotatedServerHasTheSameNamesButItsOwnKeyAndSerial() throws Exception {
    X509Certificate server = certificates.server().certificate();
    X509Certificate rotated = certificates.serverRotated().certificate();
    assertThat(rotated.getSubjectX500Principal()).isEqualTo(server.getSubjectX500Principal());
    assertThat(rotated.getSubjectAlternativeNames()).containsExactlyElementsOf(server.getSubjectAlternativeNames());
    assertThat(rotated.getSerialNumber()).isNotEqualTo(server.getSerialNumber());
    assertThat(rotated.getPublicKey()).isNotEqualTo(server.getPublicKey());
  }

  @ParameterizedTest
  @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
  void theServerPassesHostNameVerificationForItsIpAndName(String protocol) throws Exception {
    for (String host : List.of("127.0.0.1", "localhost")) {
      Handshake handshake = handshake(protocol, certificates.server(), "PKCS12", host, true, null, false);
      assertThat(handshake.client).as(host).isNull();
      assertThat(handshake.serverCertificate).isEqualTo(certificates.server().certificate());
      assertThat(handshake.protocol).isEqualTo(protocol);
      assertThat(handshake.server).isNull();
    }
    Handshake jks = handshake(protocol, certificates.serverRotated(), "JKS", "127.0.0.1", true, null, false);
    assertThat(jks.client).isNull();
    assertThat(jks.serverCertificate).isEqualTo(certificates.serverRotated().certificate());
  }

  @ParameterizedTest
  @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
  void theWrongHostFailsHostNameVerificationButNothingElse(String protocol) throws Exception {
    for (String host : List.of("127.0.0.1", "localhost")) {
      Handshake handshake = handshake(protocol, certificates.serverWrongHost(), "PKCS12", host, true, null, false);
      assertThat(handshake.client).as(host).isInstanceOf(SSLHandshakeException.class)
          .hasStackTraceContaining("No subject alternative").hasStackTraceContaining(host);
    }
    Handshake unverified = handshake(protocol, certificates.serverWrongHost(), "PKCS12", "127.0.0.1", false, null, false);
    assertThat(unverified.client).isNull();
    assertThat(unverified.serverCertificate).isEqualTo(certificates.serverWrongHost().certificate());
  }

  @ParameterizedTest
  @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
  void mutualTlsAcceptsTheClientAndRejectsTheExpiredAndTheUntrustedOne(String protocol) throws Exception {
    Handshake orders = handshake(protocol, certificates.server(), "PKCS12", "localhost", true, certificates.client("orders"), false);
    assertThat(orders.client).isNull();
    assertThat(orders.server).isNull();
    assertThat(orders.clientSubject).isEqualTo("CN=orders");

    Handshake expired = handshake(protocol, certificates.server(), "JKS", "localhost", true, certificates.expiredClient(), false);
    assertThat(expired.server).isInstanceOf(SSLHandshakeException.class).hasRootCauseInstanceOf(CertificateExpiredException.class);
    assertThat(expired.client).isNotNull();

    // the server names the CAs it accepts, and a JDK key manager offers no certificate from any other
    Handshake unoffered = handshake(protocol, certificates.server(), "PKCS12", "localhost", true, certificates.untrustedClient(), false);
    assertThat(unoffered.server).isInstanceOf(SSLHandshakeException.class).hasMessageContaining("Empty client certificate chain");
    assertThat(unoffered.client).isNotNull();
    // offered anyway, its chain fails path building: the trust store has no CN=boltgen other CA
    Handshake untrusted = handshake(protocol, certificates.server(), "PKCS12", "localhost", true, certificates.untrustedClient(), true);
    assertThat(untrusted.server).isInstanceOf(SSLHandshakeException.class).hasMessageContaining("PKIX path building failed");
    assertThat(untrusted.client).isNotNull();
  }

  /** What a handshake (and one echoed byte) came to on each side: a failure, or what the peer presented. */
  private static final class Handshake {
    Throwable client;
    Throwable server;
    X509Certificate serverCertificate;
    String protocol;
    String clientSubject;
  }

  /**
   * A server on 127.0.0.1, port 0, with {@code serverIdentity} (and, when {@code clientIdentity} is given,
   * requiring a client certificate the trust store vouches for), and a client trusting the trust store of
   * {@code storeType} that connects to {@code host} (which resolves nowhere: the socket goes to 127.0.0.1) with or
   * without HTTPS host-name verification, offering its certificate even to a server that names other CAs if
   * {@code offerAnyway}; both sides limited to {@code protocol} and 10 s.
   */
  private static Handshake handshake(String protocol, Identity serverIdentity, String storeType, String host,
      boolean verifyHost, Identity clientIdentity, boolean offerAnyway) throws Exception {
    Handshake result = new Handshake();
    SSLContext serverContext = context(serverIdentity, storeType, clientIdentity != null, false);
    SSLContext clientContext = context(clientIdentity, storeType, true, offerAnyway);
    try (SSLServerSocket server = (SSLServerSocket) serverContext.getServerSocketFactory().createServerSocket(0, 1, LOOPBACK)) {
      server.setSoTimeout(TIMEOUT_MILLIS);
      server.setEnabledProtocols(new String[] {protocol});
      server.setNeedClientAuth(clientIdentity != null);
      CompletableFuture<String> serverSide = CompletableFuture.supplyAsync(() -> {
        try (SSLSocket accepted = (SSLSocket) server.accept()) {
          accepted.setSoTimeout(TIMEOUT_MILLIS);
          accepted.startHandshake();
          accepted.getOutputStream().write(accepted.getInputStream().read());
          accepted.getOutputStream().flush();
          return clientIdentity == null ? null : accepted.getSession().getPeerPrincipal().getName();
        } catch (IOException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      }, servers);
      try (Socket plain = new Socket()) {
        plain.connect(new InetSocketAddress(LOOPBACK, server.getLocalPort()), TIMEOUT_MILLIS);
        plain.setSoTimeout(TIMEOUT_MILLIS);
        try (SSLSocket client = (SSLSocket) clientContext.getSocketFactory().createSocket(plain, host, server.getLocalPort(), true)) {
          SSLParameters parameters = client.getSSLParameters();
          parameters.setProtocols(new String[] {protocol});
          parameters.setEndpointIdentificationAlgorithm(verifyHost ? "HTTPS" : null);
          client.setSSLParameters(parameters);
          client.startHandshake();
          result.serverCertificate = (X509Certificate) client.getSession().getPeerCertificates()[0];
          result.protocol = client.getSession().getProtocol();
          // in TLS 1.3 the client finishes before the server has judged its certificate: an echo waits for that
          client.getOutputStream().write(42);
          client.getOutputStream().flush();
          assertThat(client.getInputStream().read()).isEqualTo(42);
        }
      } catch (IOException e) {
        result.client = e;
      }
      result.server = catchThrowable(() -> result.clientSubject = serverSide.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS));
      if (result.server != null && result.server.getCause() != null) {
        result.server = result.server.getCause();
      }
    }
    return result;
  }

  /** A TLS context whose key manager holds {@code identity} (if any), trusting the trust store if asked to. */
  private static SSLContext context(Identity identity, String storeType, boolean trust, boolean offerAnyway)
      throws Exception {
    KeyManagerFactory keys = null;
    if (identity != null) {
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(load(storeType.equals("JKS") ? identity.jksKeyStore() : identity.keyStore(), storeType,
          identity.password()), identity.password().toCharArray());
    }
    TrustManagerFactory trusted = null;
    if (trust) {
      trusted = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trusted.init(load(storeType.equals("JKS") ? certificates.jksTrustStore() : certificates.trustStore(), storeType,
          certificates.trustStorePassword()));
    }
    SSLContext context = SSLContext.getInstance("TLS");
    KeyManager[] keyManagers = keys == null ? null : keys.getKeyManagers();
    if (offerAnyway) {
      keyManagers = new KeyManager[] {new AnyIssuer((X509ExtendedKeyManager) keyManagers[0])};
    }
    context.init(keyManagers, trusted == null ? null : trusted.getTrustManagers(), null);
    return context;
  }

  /** A client key manager that offers its certificate whatever CAs the server says it accepts. */
  private static final class AnyIssuer extends X509ExtendedKeyManager {
    private final X509ExtendedKeyManager keys;

    AnyIssuer(X509ExtendedKeyManager keys) {
      this.keys = keys;
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
      return keys.chooseClientAlias(keyTypes, null, socket);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
      return keys.chooseEngineClientAlias(keyTypes, null, engine);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return keys.getClientAliases(keyType, null);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return keys.getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return keys.chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return keys.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return keys.getPrivateKey(alias);
    }
  }

  private static KeyStore load(Path file, String type, String password) throws Exception {
    KeyStore store = KeyStore.getInstance(type);
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password.toCharArray());
    }
    return store;
  }

  private static List<String> list(KeyStore store) throws Exception {
    return new ArrayList<>(java.util.Collections.list(store.aliases()));
  }

  private static PrivateKey key(Identity identity) throws Exception {
    return (PrivateKey) load(identity.keyStore(), "PKCS12", identity.password())
        .getKey("identity", identity.password().toCharArray());
  }

  private static boolean signsFor(PrivateKey key, X509Certificate certificate) throws Exception {
    byte[] data = "boltgen".getBytes(StandardCharsets.US_ASCII);
    Signature signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(key);
    signer.update(data);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance("SHA256withECDSA");
    verifier.initVerify(certificate.getPublicKey());
    verifier.update(data);
    return verifier.verify(signature);
  }

  private static List<List<?>> sans(Identity identity) throws Exception {
    Collection<List<?>> names = identity.certificate().getSubjectAlternativeNames();
    assertThat(names).as(identity.subject()).isNotNull();
    return new ArrayList<>(names);
  }

  private static X509Certificate certificate(Path pem) throws Exception {
    List<X509Certificate> all = certificates(pem);
    assertThat(all).hasSize(1);
    return all.get(0);
  }

  private static List<X509Certificate> certificates(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      List<X509Certificate> all = new ArrayList<>();
      for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        all.add((X509Certificate) certificate);
      }
      return all;
    }
  }

  private static InetAddress loopback() {
    try {
      return InetAddress.getByName("127.0.0.1");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
