package io.boltgen.bench.system.boltgen;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.PeerIdentity;
import io.boltgen.runtime.Tls;
import io.boltgen.testing.TestCertificates;
import io.netty.handler.ssl.OpenSsl;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS of the {@code boltgen-tls} systems. The server generates its certificates when it starts, with
 * bolt-testing's {@link TestCertificates} (EC P-256 keys signed with SHA256withECDSA by a fresh CA; the server's
 * certificate names {@code localhost} and {@code 127.0.0.1}), into a directory of its own: nothing is committed
 * and no two runs share keys. The client, in another JVM started after the server is ready, trusts that CA's
 * {@code ca.pem} from the same directory and nothing else, and verifies the server's host name (the default).
 * No client certificate: the server asks for none ({@link Tls.ClientAuth#NONE}, the default). Both sides allow
 * TLS 1.3 only; the cipher suite is left to the provider.
 *
 * <p>The directory is {@code <dir>/<system id>}, where {@code <dir>} is the system property {@link #DIR_PROPERTY}
 * (the orchestrator sets it to {@code <log dir>/tls} for its children), else
 * {@code <java.io.tmpdir>/boltgen-bench-tls}.
 */
public final class BenchTls {

  /** The system property naming the directory the certificates go to (one subdirectory per system). */
  public static final String DIR_PROPERTY = "boltgen.bench.tls-dir";

  /** The only protocol either side enables. */
  static final String PROTOCOL = "TLSv1.3";

  private static final Logger log = LoggerFactory.getLogger(BenchTls.class);

  private BenchTls() {}

  /** Where the certificates of {@code systemId} are written by its server and read by its client. */
  public static Path directory(String systemId) {
    String configured = System.getProperty(DIR_PROPERTY);
    Path base = configured != null && !configured.isBlank() ? Path.of(configured)
        : Path.of(System.getProperty("java.io.tmpdir"), "boltgen-bench-tls");
    return base.resolve(systemId).toAbsolutePath().normalize();
  }

  /** Why {@code provider} cannot run in this JVM, or null when it can. */
  static String unavailable(Tls.Provider provider) {
    if (provider == Tls.Provider.OPENSSL && !OpenSsl.isAvailable()) {
      Throwable cause = OpenSsl.unavailabilityCause();
      return "OpenSSL is not available in this JVM (io.netty.handler.ssl.OpenSsl.isAvailable() is false): it needs"
          + " netty-tcnative-boringssl-static for this platform on the class path (bolt-benchmarks bundles those"
          + " of linux and osx on x86_64 and aarch_64, and of windows on x86_64); cause: "
          + (cause == null ? "unknown" : cause);
    }
    return null;
  }

  private static void check(String systemId, Tls.Provider provider) {
    String why = unavailable(provider);
    if (why != null) {
      throw new IllegalStateException(systemId + " cannot run: " + why);
    }
  }

  /**
   * Generates fresh certificates into {@link #directory} (replacing any left there) and returns the server's
   * TLS: its key pair, TLS 1.3 only, no client authentication, on {@code provider}.
   */
  static Tls server(String systemId, Tls.Provider provider) {
    check(systemId, provider);
    Path dir = directory(systemId);
    long start = System.nanoTime();
    TestCertificates certificates = TestCertificates.create(dir);
    TestCertificates.Identity server = certificates.server();
    log.info("{}: certificates generated in {} ms in {} (server {} from CA {}; clients trust {})", systemId,
        (System.nanoTime() - start) / 1_000_000, dir, server.subject(),
        server.certificate().getIssuerX500Principal().getName(), certificates.caPem());
    return Tls.builder()
        .keyPair(server.certificateChainPem(), server.privateKeyPem())
        .protocols(PROTOCOL)
        .provider(provider)
        .build();
  }

  /**
   * The client's TLS: trusts the CA its server wrote to {@link #directory} (so the server must have started),
   * verifies the host name, no key material of its own, TLS 1.3 only, on {@code provider}.
   */
  static Tls client(String systemId, Tls.Provider provider) {
    check(systemId, provider);
    Path ca = directory(systemId).resolve("ca.pem"); // TestCertificates.caPem()'s file name
    if (!Files.isReadable(ca)) {
      throw new IllegalStateException("cannot read " + ca + ": the " + systemId + " server writes it when it starts;"
          + " start the server first, with the same -D" + DIR_PROPERTY + " as this client");
    }
    return Tls.builder().trust(ca).protocols(PROTOCOL).provider(provider).build();
  }

  /**
   * Checks that the client's one connection to {@code address} has finished its TLS handshake (the server's
   * certificate was verified), so that no handshake falls into a measured window; logs whom it verified. The
   * negotiated protocol and cipher suite are in the log too, from Netty's {@code SslHandler} (its debug line
   * {@code HANDSHAKEN}, which simplelogger.properties turns on).
   *
   * @throws IllegalStateException if there is not exactly one connection or its handshake is not done
   * @throws InterruptedException if interrupted while waiting for the connection to record its peer
   */
  static void checkHandshakeDone(String systemId, BoltClient client, InetSocketAddress address)
      throws InterruptedException {
    List<Connection> connections = client.connections(address);
    if (connections.size() != 1) {
      throw new IllegalStateException(systemId + ": expected one connection to " + address + ", found "
          + connections.size());
    }
    Connection connection = connections.get(0);
    // connect() completes from the handshake's promise, which Netty fulfils just before it fires the event on
    // which the connection records its peer's identity (on the IO thread): wait that moment out
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    PeerIdentity server;
    while ((server = connection.peerIdentity()) == null && connection.isActive() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    if (server == null) {
      throw new IllegalStateException(systemId + ": the connection to " + address + " has no verified server"
          + " certificate 5 s after connect() completed (" + (connection.isActive() ? "open" : "closed") + ")");
    }
    log.info("{}: TLS handshake with {} done before any call; server certificate {} {}", systemId, address,
        server.subject(), server.subjectAlternativeNames());
  }
}
