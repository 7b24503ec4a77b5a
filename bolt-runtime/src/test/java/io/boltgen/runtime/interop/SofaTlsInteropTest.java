package io.boltgen.runtime.interop;

import static io.boltgen.runtime.interop.SofaBolt.TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.alipay.remoting.config.BoltServerOption;
import com.alipay.remoting.rpc.RpcServer;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.PeerIdentity;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.Tls;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.RawBytesMarshaller;
import io.boltgen.testing.Closer;
import io.boltgen.testing.ReadyProcess;
import io.boltgen.testing.TestCertificates;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TLS between boltgen and a real SOFABolt 1.6.10, with certificates made for this run.
 *
 * <p>SOFABolt reads its {@code bolt.server.ssl.*} and {@code bolt.client.ssl.*} system properties on every
 * connection it accepts or opens (in its channel initializers, {@code RpcServer$1.initChannel} and
 * {@code AbstractConnectionFactory$1.initChannel}), never once at startup: setting them around a SOFABolt
 * object's construction cannot work, and setting them in this JVM would switch TLS on for every SOFABolt peer of
 * every test. So the SOFABolt side runs as an operator runs it, in a JVM of its own with {@code -D} properties
 * ({@link SofaBoltTlsProcess}); one test shows that SOFABolt's per-instance options (the same names as
 * {@code BoltServerOption}s) configure an in-process server as well.
 *
 * <p>The SOFABolt JVMs run Netty's JDK provider ({@code -Dio.netty.handler.ssl.noOpenSsl=true}), as SOFABolt
 * ships (netty-all, no netty-tcnative); the boltgen side runs both providers. SOFABolt here runs on the Netty of
 * this build (4.2), whose client contexts check host names by default: SOFABolt's client builds its engines
 * without a peer host, so its process also needs
 * {@code -Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE} (one test shows what happens without it).
 */
class SofaTlsInteropTest {

  private static final Marshaller<byte[]> RAW11 = RawBytesMarshaller.withCodecId(Marshaller.PROTOBUF);

  /** One method, called by either side: a SOFABolt client writes the request class's name as the className. */
  static final MethodDescriptor<byte[], byte[]> ECHO = MethodDescriptor.newBuilder(RAW11, RAW11)
      .serviceName("interop.tls")
      .methodName("Echo")
      .wireName(SofaBoltTlsProcess.Echo.class.getName())
      .responseClassName(SofaBoltTlsProcess.Reply.class.getName())
      .methodCode(1)
      .type(MethodType.REQUEST_RESPONSE)
      .timeoutMillis(TIMEOUT_MS)
      .build();

  /** Netty 4.2's switch for the host name check its client contexts do by default. */
  private static final String NETTY_ENDPOINT_CHECK = "io.netty.handler.ssl.defaultEndpointVerificationAlgorithm";

  private static final Pattern CALLS = Pattern.compile("calls=(\\d+)$");

  @TempDir
  static Path dir;

  private static TestCertificates certs;
  /** SOFABolt servers shared by the tests (started when first needed, stopped after the class). */
  private static final Closer shared = new Closer();
  private static ReadyProcess sofaTlsServer;
  private static ReadyProcess sofaClientAuthServer;

  private final Closer closer = new Closer();

  @BeforeAll
  static void makeCertificates() {
    certs = TestCertificates.create(dir);
    SofaBolt.registerRaw(SofaBoltTlsProcess.Echo.class.getName());
    SofaBolt.registerRaw(SofaBoltTlsProcess.Reply.class.getName());
  }

  @AfterEach
  void stop() throws Exception {
    closer.close();
  }

  @AfterAll
  static void stopSharedServers() throws Exception {
    shared.close();
  }

  // ---------------------------------------------------------------- boltgen client -> SOFABolt server

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void aBoltgenClientThatTrustsTheCaCallsASofaTlsServer(Tls.Provider provider) throws Exception {
    int port = sofaTlsServer().port();

    BoltClient pem = client(Tls.builder().provider(provider).trust(certs.caPem()).build());
    assertThat(call(pem, port)).startsWith("sofa:hello peer=none ");
    assertThat(pem.connections()).singleElement().satisfies(c -> {
      assertThat(c.peerIdentity().subject()).isEqualTo("CN=localhost");
      assertThat(c.peerIdentity().subjectAlternativeNames()).contains("IP:127.0.0.1");
    });

    BoltClient jks = client(Tls.builder().provider(provider)
        .trustStore(certs.jksTrustStore(), certs.trustStorePassword().toCharArray(), "JKS").build());
    assertThat(call(jks, port)).startsWith("sofa:hello peer=none ");
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void aBoltgenClientThatDoesNotTrustTheCaIsRefused(Tls.Provider provider) throws Exception {
    ReadyProcess sofa = sofaTlsServer();
    int before = calls(call(client(Tls.builder().provider(provider).trust(certs.caPem()).build()), sofa.port()));

    assertRefused(client(Tls.builder().provider(provider).trust(certs.otherCaPem()).build()), sofa.port());
    // and a plain client gets nothing either
    assertRefused(closer.track(BoltClient.builder().build()), sofa.port());

    assertThat(calls(call(client(Tls.builder().provider(provider).trust(certs.caPem()).build()), sofa.port())))
        .as("the SOFABolt handler ran for the trusted calls only").isEqualTo(before + 1);
  }

  /**
   * A refused boltgen client does not storm a SOFABolt TLS server: a plain client (SOFABolt closes on the first
   * bytes, logging a {@code NotSslRecordException}) and a TLS 1.3 client without a certificate (refused after the
   * client's handshake) each open one connection for 15 calls made back to back; the calls after the first fail at
   * once while the pool backs off.
   */
  @Test
  void aRefusedBoltgenClientOpensOneConnectionForManyCallsWhileItBacksOff() throws Exception {
    Map<ReadyProcess, BoltClient> cases = new LinkedHashMap<>();
    cases.put(sofaTlsServer(), closer.track(BoltClient.builder()
        .reconnect(true, Duration.ofSeconds(30), Duration.ofSeconds(30)).build()));
    cases.put(sofaClientAuthServer(), closer.track(BoltClient.builder()
        .reconnect(true, Duration.ofSeconds(30), Duration.ofSeconds(30))
        .tls(Tls.builder().trust(certs.caPem()).protocols("TLSv1.3").build()).build()));
    for (Map.Entry<ReadyProcess, BoltClient> c : cases.entrySet()) {
      ReadyProcess sofa = c.getKey();
      long before = settledCount(sofa); // the shared server's connections from earlier tests
      for (int i = 0; i < 15; i++) {
        int call = i;
        assertThatThrownBy(() -> call(c.getValue(), sofa.port())).isInstanceOfSatisfying(BoltException.class,
            e -> assertThat(e.status()).as("call %d: %s", call, e)
                .isIn(call == 0 ? List.of(ResponseStatus.ERROR_COMM, ResponseStatus.CONNECTION_CLOSED)
                    : List.of(ResponseStatus.ERROR_COMM)));
      }
      assertThat(settledCount(sofa) - before).as("connections SOFABolt accepted for 15 calls; its log:%n%s",
          sofa.log()).isEqualTo(1);
    }
  }

  /**
   * The connections {@code sofa} accepted, once it saw each one closed: SOFABolt logs connection events on a
   * thread of its own.
   */
  private static long settledCount(ReadyProcess sofa) {
    await().atMost(Duration.ofSeconds(10)).until(() -> count(sofa, "CLOSED ") == count(sofa, "ACCEPTED "));
    try {
      return count(sofa, "ACCEPTED ");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static long count(ReadyProcess sofa, String prefix) throws java.io.IOException {
    return sofa.log().lines().filter(line -> line.startsWith(prefix)).count();
  }

  @Test
  void aSofaServerWithoutAKeyStoreTypeStartsButFailsEveryHandshake() throws Exception {
    Map<String, String> properties = serverProperties(certs.server().jksKeyStore(), false);
    properties.remove("bolt.server.ssl.keystore.type"); // SOFABolt has no default: KeyStore.getInstance(null)
    ReadyProcess sofa = closer.track(sofaServer(properties));

    assertRefused(client(Tls.builder().trust(certs.caPem()).build()), sofa.port());
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(sofa.log())
        .contains("Fail to init SSL context for server.").contains("NullPointerException: null type name"));
  }

  @ParameterizedTest
  @EnumSource(value = Tls.Provider.class, names = {"JDK", "OPENSSL"})
  void aSofaServerWithClientAuthTakesABoltgenClientWithATrustedCertificateAndRefusesOneWithout(
      Tls.Provider provider) throws Exception {
    int port = sofaClientAuthServer().port();
    TestCertificates.Identity orders = certs.client("orders");
    BoltClient withCertificate = client(Tls.builder().provider(provider).trust(certs.caPem())
        .keyPair(orders.certificateChainPem(), orders.privateKeyPem()).build());
    String first = call(withCertificate, port);
    assertThat(first).startsWith("sofa:hello peer=CN=orders ");

    assertRefused(client(Tls.builder().provider(provider).trust(certs.caPem()).build()), port);
    assertRefused(client(Tls.builder().provider(provider).trust(certs.caPem())
        .keyPair(certs.untrustedClient().certificateChainPem(), certs.untrustedClient().privateKeyPem()).build()),
        port);
    // in TLS 1.2 the server's verdict on the client certificate is part of the client's handshake
    BoltClient tls12 = client(Tls.builder().provider(provider).trust(certs.caPem()).protocols("TLSv1.2").build());
    assertThatThrownBy(() -> call(tls12, port)).isInstanceOfSatisfying(BoltException.class,
        e -> assertThat(e.status()).isEqualTo(ResponseStatus.ERROR_COMM));

    assertThat(calls(call(withCertificate, port))).as("the refused clients never reached the handler")
        .isEqualTo(calls(first) + 1);
  }

  @Test
  void aSofaServerTrustsOnlyWhatItsOwnKeyStoreHolds() throws Exception {
    // the key store holds the server's key entry (its chain ends in the CA) but no trusted CA entry: SOFABolt
    // initializes its TrustManagerFactory from that same store, whose anchors are then only the server's own leaf
    ReadyProcess sofa = closer.track(sofaServer(serverProperties(certs.server().jksKeyStore(), true)));
    TestCertificates.Identity orders = certs.client("orders");
    assertRefused(client(Tls.builder().trust(certs.caPem())
        .keyPair(orders.certificateChainPem(), orders.privateKeyPem()).build()), sofa.port());
  }

  @Test
  void aSofaServerConfiguredByItsPerInstanceOptionsNeedsNoSystemProperty() throws Exception {
    RpcServer server = new RpcServer("127.0.0.1", 0, true);
    server.option(BoltServerOption.SRV_SSL_ENABLE, true);
    // and a PKCS12 store: SOFABolt hands the type to KeyStore.getInstance
    server.option(BoltServerOption.SRV_SSL_KEYSTORE, certs.server().keyStore().toString());
    server.option(BoltServerOption.SRV_SSL_KEYSTORE_PASS, certs.server().password());
    server.option(BoltServerOption.SRV_SSL_KEYSTORE_TYPE, "PKCS12");
    server.registerUserProcessor(new com.alipay.remoting.rpc.protocol.SyncUserProcessor<RawContent>() {
      @Override
      public Object handleRequest(com.alipay.remoting.BizContext biz, RawContent request) {
        return new SofaBoltTlsProcess.Reply("in-process:" + request.text());
      }

      @Override
      public String interest() {
        return SofaBoltTlsProcess.Echo.class.getName();
      }
    });
    server.startup();
    closer.track(server::shutdown);

    assertThat(call(client(Tls.builder().trust(certs.caPem()).build()), server.port())).isEqualTo("in-process:hello");
    assertRefused(closer.track(BoltClient.builder().build()), server.port());
  }

  // ---------------------------------------------------------------- SOFABolt client -> boltgen server

  @Test
  void aSofaTlsClientCallsBoltgenTlsServersOfBothProvidersWithoutCheckingTheHostName() throws Exception {
    List<BoltServer> servers = boltgenServers(Tls.ClientAuth.NONE, new LinkedBlockingQueue<>());
    // a certificate for wrong.example only: a SOFABolt client checks the chain, never the name
    TestCertificates.Identity wrongHost = certs.serverWrongHost();
    BoltServer elsewhere = closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(service(null))
        .tls(Tls.builder().keyPair(wrongHost.certificateChainPem(), wrongHost.privateKeyPem()).build())
        .build().start());

    SofaClientRun run = sofaClient(clientProperties(certs.jksTrustStore()), List.of(servers.get(0), servers.get(1),
        elsewhere));
    for (BoltServer server : servers) {
      assertThat(run.result(server)).isEqualTo("ok bolt:hello peer=none");
    }
    assertThat(run.result(elsewhere)).isEqualTo("ok bolt:hello peer=none");
  }

  @Test
  void aSofaClientWithoutTlsIsRefusedByBoltgenTlsServers() throws Exception {
    List<BoltServer> servers = boltgenServers(Tls.ClientAuth.NONE, new LinkedBlockingQueue<>());

    SofaClientRun run = sofaClient(Map.of(), servers);
    for (BoltServer server : servers) {
      assertThat(run.result(server)).startsWith("failed com.alipay.remoting.exception.ConnectionClosedException");
      await().atMost(Duration.ofSeconds(10)).until(() -> server.connections().isEmpty());
    }
  }

  @Test
  void onNetty42ASofaTlsClientFailsEveryHandshakeUnlessTheDefaultHostNameCheckIsOff() throws Exception {
    List<BoltServer> servers = boltgenServers(Tls.ClientAuth.NONE, new LinkedBlockingQueue<>());
    Map<String, String> properties = clientProperties(certs.jksTrustStore());
    properties.remove(NETTY_ENDPOINT_CHECK);

    SofaClientRun run = sofaClient(properties, servers);
    for (BoltServer server : servers) {
      assertThat(run.result(server)).startsWith("failed com.alipay.remoting.rpc.exception.InvokeSendFailedException");
    }
    // SOFABolt makes its engines with SslContext.newEngine(alloc): no peer host for the check to compare
    assertThat(run.log()).contains("Hostname or IP address is undefined");
  }

  @Test
  void aSofaClientPresentsTheKeyEntryOfItsKeyStoreToBoltgenMtlsServers() throws Exception {
    LinkedBlockingQueue<PeerIdentity> seen = new LinkedBlockingQueue<>();
    List<BoltServer> servers = boltgenServers(Tls.ClientAuth.REQUIRE, seen);

    // its one store is both its key material and its trust: the client's key entry plus the CA
    SofaClientRun mutual = sofaClient(clientProperties(keyStoreWithCa(certs.client("orders"))), servers);
    for (BoltServer server : servers) {
      assertThat(mutual.result(server)).isEqualTo("ok bolt:hello peer=CN=orders");
      PeerIdentity peer = seen.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS);
      assertThat(peer).as("the handler of the server on port %d ran", server.port()).isNotNull();
      assertThat(peer.subject()).isEqualTo("CN=orders");
      assertThat(peer.subjectAlternativeNames()).contains("DNS:orders.test", "URI:spiffe://boltgen.test/orders");
    }

    // a store with only the CA: no certificate to present, the mTLS server refuses it
    SofaClientRun trustOnly = sofaClient(clientProperties(certs.jksTrustStore()), servers);
    for (BoltServer server : servers) {
      assertThat(trustOnly.result(server)).startsWith("failed ");
    }
    // a store with only the client's key entry: its anchors are only that leaf, so it cannot trust the server
    SofaClientRun keyOnly = sofaClient(clientProperties(certs.client("orders").jksKeyStore()), servers);
    for (BoltServer server : servers) {
      assertThat(keyOnly.result(server)).startsWith("failed ");
    }
    assertThat(seen).as("no refused call reached a handler").isEmpty();
  }

  // ---------------------------------------------------------------- helpers

  private BoltClient client(Tls tls) {
    return closer.track(BoltClient.builder().tls(tls).build());
  }

  private static String call(BoltClient client, int port) {
    byte[] reply = client.channel("127.0.0.1:" + port)
        .invokeSync(ECHO, "hello".getBytes(StandardCharsets.UTF_8), CallOptions.DEFAULT);
    return new String(reply, StandardCharsets.UTF_8);
  }

  /** The SOFABolt server's count of calls answered, from its reply. */
  private static int calls(String reply) {
    Matcher m = CALLS.matcher(reply);
    assertThat(m.find()).as("a calls= count in %s", reply).isTrue();
    return Integer.parseInt(m.group(1));
  }

  /** A call from {@code client} fails without an answer: its connection was refused in or right after the handshake. */
  private static void assertRefused(BoltClient client, int port) {
    // a handshake the client itself fails is a failed connect (ERROR_COMM); with TLS 1.3 the server checks a
    // client certificate after the client's handshake is done, so the call may be written and then see the close
    assertThatThrownBy(() -> call(client, port)).isInstanceOfSatisfying(BoltException.class,
        e -> assertThat(e.status()).isIn(ResponseStatus.ERROR_COMM, ResponseStatus.CONNECTION_CLOSED));
  }

  /** Two started boltgen TLS servers, JDK and OpenSSL, with the server identity as PEM; see {@link #service}. */
  private List<BoltServer> boltgenServers(Tls.ClientAuth clientAuth, LinkedBlockingQueue<PeerIdentity> seen) {
    List<BoltServer> servers = new ArrayList<>();
    for (Tls.Provider provider : List.of(Tls.Provider.JDK, Tls.Provider.OPENSSL)) {
      servers.add(closer.track(BoltServer.builder().bind("127.0.0.1", 0).service(service(seen))
          .tls(Tls.builder().provider(provider)
              .keyPair(certs.server().certificateChainPem(), certs.server().privateKeyPem())
              .trust(certs.caPem())
              .clientAuth(clientAuth)
              .build())
          .build().start()));
    }
    return servers;
  }

  /** The echo service: {@code bolt:<text> peer=<client certificate subject, or none>}; peers go to {@code seen}. */
  private static ServiceDefinition service(LinkedBlockingQueue<PeerIdentity> seen) {
    return ServiceDefinition.builder("interop.tls", "1.0")
        .method(ECHO, (request, call) -> {
          PeerIdentity peer = ServerContext.current().connection().peerIdentity();
          if (peer != null && seen != null) {
            seen.add(peer);
          }
          call.respond(("bolt:" + new String(request, StandardCharsets.UTF_8) + " peer="
              + (peer == null ? "none" : peer.subject())).getBytes(StandardCharsets.UTF_8));
        })
        .build();
  }

  private static synchronized ReadyProcess sofaTlsServer() throws Exception {
    if (sofaTlsServer == null) {
      sofaTlsServer = shared.track(sofaServer(serverProperties(certs.server().jksKeyStore(), false)));
    }
    return sofaTlsServer;
  }

  private static synchronized ReadyProcess sofaClientAuthServer() throws Exception {
    if (sofaClientAuthServer == null) {
      sofaClientAuthServer = shared.track(sofaServer(serverProperties(keyStoreWithCa(certs.server()), true)));
    }
    return sofaClientAuthServer;
  }

  /** SOFABolt's server TLS properties: its JKS key store; {@code clientAuth} demands client certificates. */
  private static Map<String, String> serverProperties(Path keyStore, boolean clientAuth) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("bolt.server.ssl.enable", "true");
    p.put("bolt.server.ssl.keystore", keyStore.toString());
    p.put("bolt.server.ssl.keystore.password", certs.trustStorePassword());
    p.put("bolt.server.ssl.keystore.type", "JKS");
    if (clientAuth) {
      p.put("bolt.server.ssl.clientAuth", "true");
    }
    return p;
  }

  /** SOFABolt's client TLS properties (its one JKS store), and Netty 4.2's default host name check off. */
  private static Map<String, String> clientProperties(Path keyStore) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("bolt.client.ssl.enable", "true");
    p.put("bolt.client.ssl.keystore", keyStore.toString());
    p.put("bolt.client.ssl.keystore.password", certs.trustStorePassword());
    p.put("bolt.client.ssl.keystore.type", "JKS");
    p.put(NETTY_ENDPOINT_CHECK, "NONE");
    return p;
  }

  /** {@code java -D<properties> ... SofaBoltTlsProcess <args>}: SOFABolt on Netty's JDK provider. */
  private static List<String> command(Map<String, String> properties, List<String> args) {
    List<String> command = ReadyProcess.java(SofaBoltTlsProcess.class.getName(), args.toArray(String[]::new));
    List<String> options = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-Dio.netty.handler.ssl.noOpenSsl=true", "-Dlogging.path=" + dir.resolve("sofa-logs")));
    properties.forEach((k, v) -> options.add("-D" + k + "=" + v));
    command.addAll(1, options);
    return command;
  }

  private static ReadyProcess sofaServer(Map<String, String> properties) throws Exception {
    return ReadyProcess.start(command(properties, List.of("server")));
  }

  /** What a SOFABolt client process printed per port, and its log. */
  record SofaClientRun(Map<Integer, String> results, String log) {
    String result(BoltServer server) {
      String result = results.get(server.port());
      assertThat(result).as("the SOFABolt client's result for port %d; its log:%n%s", server.port(), log).isNotNull();
      return result;
    }
  }

  /** Runs a SOFABolt client process that calls each server once, and waits (bounded) until it exits. */
  private static SofaClientRun sofaClient(Map<String, String> properties, List<BoltServer> servers) throws Exception {
    List<String> args = new ArrayList<>(List.of("client"));
    servers.forEach(s -> args.add(Integer.toString(s.port())));
    Path log = Files.createTempFile(dir, "sofa-client", ".log");
    Path out = Files.createTempFile(dir, "sofa-client", ".out");
    Process process = new ProcessBuilder(command(properties, args))
        .redirectError(log.toFile()).redirectOutput(out.toFile()).start();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the SOFABolt client did not finish in 60 s:\n" + Files.readString(log));
      }
      Map<Integer, String> results = new LinkedHashMap<>();
      for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
        if (line.startsWith("RESULT ")) {
          String[] parts = line.split(" ", 3);
          results.put(Integer.parseInt(parts[1]), parts[2].strip());
        }
      }
      return new SofaClientRun(results, Files.readString(log));
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** A JKS holding {@code identity}'s key entry and the CA as a trusted certificate entry. */
  private static Path keyStoreWithCa(TestCertificates.Identity identity) throws Exception {
    Path file = identity.jksKeyStore().resolveSibling(identity.jksKeyStore().getFileName() + ".with-ca.jks");
    if (Files.exists(file)) {
      return file;
    }
    char[] password = certs.trustStorePassword().toCharArray();
    KeyStore store = KeyStore.getInstance("JKS");
    try (InputStream in = Files.newInputStream(identity.jksKeyStore())) {
      store.load(in, password);
    }
    KeyStore trust = KeyStore.getInstance("JKS");
    try (InputStream in = Files.newInputStream(certs.jksTrustStore())) {
      trust.load(in, password);
    }
    store.setCertificateEntry("ca", trust.getCertificate("ca"));
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password);
    }
    return file;
  }
}
