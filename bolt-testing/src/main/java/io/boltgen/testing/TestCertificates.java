package io.boltgen.testing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.CertificateBuilder.KeyUsage;
import io.netty.pkitesting.X509Bundle;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * Certificates for TLS tests, generated fresh (never committed) into a directory the test owns, in this JVM with
 * Netty's {@code netty-pkitesting} ({@link CertificateBuilder}); this class writes the PEM files and key stores.
 * Every key is EC P-256 signed with SHA256withECDSA, which both the JDK's TLS provider and OpenSSL/BoringSSL
 * accept in TLS 1.2 and 1.3.
 *
 * <p>{@link #create} makes a trusted CA ({@code CN=boltgen test CA}) and an untrusted one
 * ({@code CN=boltgen other CA}) and issues from them a server certificate for {@code localhost}/{@code 127.0.0.1}
 * ({@link #server}), one for another host ({@link #serverWrongHost}), a second one for the same host
 * ({@link #serverRotated}), an expired client certificate ({@link #expiredClient}) and one from the untrusted CA
 * ({@link #untrustedClient}); client certificates by name ({@link #client}) are issued when first asked for. The
 * set takes a fraction of a second once the classes are loaded (the first in a JVM, a second or so); it is made
 * once per directory and JVM and then shared, so a test class can call {@code create} in every test at no cost.
 *
 * <p>The files, all in the directory, are named for what they hold: {@code ca.pem}, {@code truststore.p12},
 * {@code truststore.jks}, {@code other-ca.pem}, the CAs' own key stores {@code ca-key.p12} and
 * {@code other-ca-key.p12} (key and certificate under the alias {@code ca}; tests need not touch them), and for
 * each identity {@code <stem>.chain.pem}, {@code <stem>.key.pem}, {@code <stem>.p12} and {@code <stem>.jks},
 * where the stem is {@code server}, {@code server-wrong-host}, {@code server-rotated}, {@code expired-client},
 * {@code untrusted-client} or {@code client-<name>}. Every key store and key has the password
 * {@link #trustStorePassword()} (the same as each {@link Identity#password()}).
 *
 * <p>The CAs are valid from seven days ago for a year, with the basic constraint {@code ca:true, pathlen:0}
 * and the key usages {@code keyCertSign} and {@code cRLSign}. Issued certificates carry the key usage
 * {@code digitalSignature} and, as real ones do, the extended key usage {@code serverAuth} only (servers) or
 * {@code clientAuth} only (clients): a test cannot use a server identity as a TLS client. Failures are thrown
 * as {@link IllegalStateException}s naming what could not be made, or {@link UncheckedIOException}s.
 */
public final class TestCertificates {

  private static final String PASSWORD = "boltgen-test";
  private static final String ALIAS = "identity";
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
  @GuardedBy("TestCertificates.class")
  private static final Map<Path, TestCertificates> BY_DIRECTORY = new HashMap<>();

  private final Path dir;
  private final X509Bundle ca;
  private final Path caPem;
  private final Path otherCaPem;
  private final Path trustStore;
  private final Path jksTrustStore;
  private final Identity server;
  private final Identity serverWrongHost;
  private final Identity serverRotated;
  private final Identity expiredClient;
  private final Identity untrustedClient;
  @GuardedBy("this")
  private final Map<String, Identity> clients = new HashMap<>();

  private TestCertificates(Path dir) throws Exception {
    this.dir = dir;
    Files.createDirectories(dir);
    this.ca = authority(dir, "ca", "CN=boltgen test CA");
    X509Bundle otherCa = authority(dir, "other-ca", "CN=boltgen other CA");
    this.caPem = dir.resolve("ca.pem");
    this.otherCaPem = dir.resolve("other-ca.pem");
    this.trustStore = dir.resolve("truststore.p12");
    this.jksTrustStore = dir.resolve("truststore.jks");
    writeTrustStore(trustStore, "PKCS12", ca.getCertificate());
    writeTrustStore(jksTrustStore, "JKS", ca.getCertificate());
    this.server = issue(dir, "server", ca, localhostCertificate());
    this.serverWrongHost = issue(dir, "server-wrong-host", ca,
        certificate("wrong.example", 1, 30).addSanDnsName("wrong.example").addExtendedKeyUsageServerAuth());
    this.serverRotated = issue(dir, "server-rotated", ca, localhostCertificate());
    this.expiredClient = issue(dir, "expired-client", ca, clientCertificate("expired", 3, 1));
    this.untrustedClient = issue(dir, "untrusted-client", otherCa, clientCertificate("untrusted", 1, 30));
  }

  /**
   * The certificates in {@code dir} (created if missing): generated on the first call for that directory in
   * this JVM, the same instance afterwards (unless its files were deleted meanwhile, then they are made anew).
   *
   * @param dir the directory the files go to, typically a JUnit {@code @TempDir}
   * @return the CAs and the identities issued from them
   * @throws IllegalStateException if a certificate or key store cannot be made
   * @throws UncheckedIOException if a file cannot be written
   */
  public static synchronized TestCertificates create(Path dir) {
    Path key = dir.toAbsolutePath().normalize();
    TestCertificates cached = BY_DIRECTORY.get(key);
    if (cached != null && Files.exists(cached.caPem()) && Files.exists(cached.server.keyStore())) {
      return cached;
    }
    TestCertificates created = made("the test certificates in " + key, () -> new TestCertificates(key));
    BY_DIRECTORY.put(key, created);
    return created;
  }

  /**
   * A client certificate {@code CN=<name>} from the trusted CA, with the SANs {@code DNS:<name>.test} and
   * {@code URI:spiffe://boltgen.test/<name>}, valid from a day ago for 30 days, issued on the first call for
   * {@code name} and the same afterwards; its files are {@code client-<name>.*}.
   *
   * @param name a DNS label in lower case (it names files too): letters, digits, inner hyphens, at most 63
   * @return the identity
   * @throws IllegalArgumentException if {@code name} is not such a label
   */
  public synchronized Identity client(String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a client name is a lower-case DNS label (a-z, 0-9, inner -): " + name);
    }
    return clients.computeIfAbsent(name, n -> made("the client certificate " + n + " in " + dir,
        () -> issue(dir, "client-" + n, ca, clientCertificate(n, 1, 30))));
  }

  /**
   * {@return the server certificate}: {@code CN=localhost}, SANs {@code DNS:localhost} and {@code IP:127.0.0.1},
   * from the trusted CA, valid from a day ago for 30 days; files {@code server.*}.
   */
  public Identity server() {
    return server;
  }

  /**
   * {@return a server certificate for another host}: {@code CN=wrong.example}, the only SAN
   * {@code DNS:wrong.example}, from the trusted CA, so host-name verification of {@code localhost} or
   * {@code 127.0.0.1} fails with it; files {@code server-wrong-host.*}.
   */
  public Identity serverWrongHost() {
    return serverWrongHost;
  }

  /**
   * {@return a second server certificate}, with the subject and SANs of {@link #server()} but its own key and
   * serial number, for rotation tests; files {@code server-rotated.*}.
   */
  public Identity serverRotated() {
    return serverRotated;
  }

  /**
   * {@return an expired client certificate}: {@code CN=expired} (SANs {@code DNS:expired.test},
   * {@code URI:spiffe://boltgen.test/expired}) from the trusted CA, valid for one day from three days ago to two
   * days ago; files {@code expired-client.*}.
   */
  public Identity expiredClient() {
    return expiredClient;
  }

  /**
   * {@return a client certificate from the other CA}: {@code CN=untrusted} (SANs {@code DNS:untrusted.test},
   * {@code URI:spiffe://boltgen.test/untrusted}) issued by {@code CN=boltgen other CA}, which the trust stores do
   * not hold; its chain file ends with that CA. Files {@code untrusted-client.*}. A server that names the CAs it
   * accepts (the JDK's and OpenSSL's do) gets no certificate at all from a JDK key manager holding this one
   * ("Empty client certificate chain"); to have the chain itself rejected, offer it whatever the server names.
   */
  public Identity untrustedClient() {
    return untrustedClient;
  }

  /** {@return the trusted CA's certificate} ({@code CN=boltgen test CA}) as PEM: {@code ca.pem}. */
  public Path caPem() {
    return caPem;
  }

  /**
   * {@return the untrusted CA's certificate} ({@code CN=boltgen other CA}) as PEM: {@code other-ca.pem}. Nothing
   * here trusts it; it shows that {@link #untrustedClient()} is well formed, only issued by someone else.
   */
  public Path otherCaPem() {
    return otherCaPem;
  }

  /**
   * {@return a PKCS12 trust store} with the trusted CA's certificate under the alias {@code ca}:
   * {@code truststore.p12}.
   */
  public Path trustStore() {
    return trustStore;
  }

  /** {@return the trust store of {@link #trustStore()} as JKS} (SOFABolt's default type): {@code truststore.jks}. */
  public Path jksTrustStore() {
    return jksTrustStore;
  }

  /** {@return the password of both trust stores}, and of every key store and key here ({@code toCharArray()} it). */
  public String trustStorePassword() {
    return PASSWORD;
  }

  @Override
  public String toString() {
    return "TestCertificates[" + dir + "]";
  }

  /** Runs {@code make}, throwing what it throws as an {@link UncheckedIOException} or {@link IllegalStateException}. */
  private static <T> T made(String what, Callable<T> make) {
    try {
      return make.call();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("could not make " + what, e);
    }
  }

  /** A certificate of {@code commonName}, valid from {@code daysAgo} days ago for {@code days} days. */
  private static CertificateBuilder certificate(String commonName, int daysAgo, int days) {
    Instant notBefore = Instant.now().minus(Duration.ofDays(daysAgo));
    return new CertificateBuilder().ecp256().subject("CN=" + commonName)
        .notBefore(notBefore).notAfter(notBefore.plus(Duration.ofDays(days)))
        .setKeyUsage(true, KeyUsage.digitalSignature);
  }

  private static CertificateBuilder localhostCertificate() {
    return certificate("localhost", 1, 30).addSanDnsName("localhost").addSanIpAddress("127.0.0.1")
        .addExtendedKeyUsageServerAuth();
  }

  private static CertificateBuilder clientCertificate(String name, int daysAgo, int days) {
    return certificate(name, daysAgo, days).addSanDnsName(name + ".test")
        .addSanUriName(URI.create("spiffe://boltgen.test/" + name)).addExtendedKeyUsageClientAuth();
  }

  /** A self-signed CA {@code subject}, written as {@code <stem>.pem} and, with its key, {@code <stem>-key.p12}. */
  private static X509Bundle authority(Path dir, String stem, String subject) throws Exception {
    Instant notBefore = Instant.now().minus(Duration.ofDays(7));
    X509Bundle ca = new CertificateBuilder().ecp256().subject(subject)
        .notBefore(notBefore).notAfter(notBefore.plus(Duration.ofDays(365)))
        .setIsCertificateAuthority(true).setPathLengthConstraint(OptionalInt.of(0))
        .setKeyUsage(true, KeyUsage.keyCertSign, KeyUsage.cRLSign).buildSelfSigned();
    Files.writeString(dir.resolve(stem + ".pem"), pem(ca.getCertificate()), StandardCharsets.US_ASCII);
    KeyStore store = newKeyStore("PKCS12");
    store.setKeyEntry("ca", ca.getKeyPair().getPrivate(), PASSWORD.toCharArray(),
        new Certificate[] {ca.getCertificate()});
    save(store, dir.resolve(stem + "-key.p12"));
    return ca;
  }

  /** Issues {@code certificate} from {@code issuer} and writes its four files, named {@code <stem>.*}. */
  private static Identity issue(Path dir, String stem, X509Bundle issuer, CertificateBuilder certificate)
      throws Exception {
    X509Bundle issued = certificate.buildIssuedBy(issuer, "SHA256withECDSA");
    X509Certificate[] chain = issued.getCertificatePathWithRoot();
    Identity identity = new Identity(dir, stem, issued.getCertificate());
    for (String type : new String[] {"PKCS12", "JKS"}) {
      KeyStore store = newKeyStore(type);
      store.setKeyEntry(ALIAS, issued.getKeyPair().getPrivate(), PASSWORD.toCharArray(), chain);
      save(store, type.equals("JKS") ? identity.jksKeyStore : identity.keyStore);
    }
    Files.writeString(identity.certificateChainPem, pem(chain), StandardCharsets.US_ASCII);
    Files.writeString(identity.privateKeyPem, pem("PRIVATE KEY", issued.getKeyPair().getPrivate().getEncoded()),
        StandardCharsets.US_ASCII);
    return identity;
  }

  private static void writeTrustStore(Path file, String type, X509Certificate ca) throws Exception {
    KeyStore store = newKeyStore(type);
    store.setCertificateEntry("ca", ca);
    save(store, file);
  }

  private static KeyStore newKeyStore(String type) throws Exception {
    KeyStore store = KeyStore.getInstance(type);
    store.load(null, null);
    return store;
  }

  private static void save(KeyStore store, Path file) throws Exception {
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, PASSWORD.toCharArray());
    }
  }

  private static String pem(X509Certificate... certificates) throws CertificateEncodingException {
    StringBuilder pem = new StringBuilder();
    for (X509Certificate certificate : certificates) {
      pem.append(pem("CERTIFICATE", certificate.getEncoded()));
    }
    return pem.toString();
  }
  /** A PEM block: base64 at 64 columns between the BEGIN and END lines, each line ending in {@code \n}. */
  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  /** A private key, its certificate and the certificate of the CA that issued it, in the formats TLS stacks read. */
  public static final class Identity {

    private final Path certificateChainPem;
    private final Path privateKeyPem;
    private final Path keyStore;
    private final Path jksKeyStore;
    private final X509Certificate certificate;

    private Identity(Path dir, String stem, X509Certificate certificate) {
      this.certificateChainPem = dir.resolve(stem + ".chain.pem");
      this.privateKeyPem = dir.resolve(stem + ".key.pem");
      this.keyStore = dir.resolve(stem + ".p12");
      this.jksKeyStore = dir.resolve(stem + ".jks");
      this.certificate = certificate;
    }

    /** {@return a PEM file with this certificate, then its CA's}: {@code <stem>.chain.pem}. */
    public Path certificateChainPem() {
      return certificateChainPem;
    }

    /**
     * {@return the private key (EC P-256) as unencrypted PKCS#8 PEM} ({@code -----BEGIN PRIVATE KEY-----}):
     * {@code <stem>.key.pem}.
     */
    public Path privateKeyPem() {
      return privateKeyPem;
    }

    /**
     * {@return a PKCS12 key store} with the key and its chain (this certificate, then its CA's) under the alias
     * {@code identity}: {@code <stem>.p12}.
     */
    public Path keyStore() {
      return keyStore;
    }

    /** {@return the key store of {@link #keyStore()} as JKS} (SOFABolt's default type): {@code <stem>.jks}. */
    public Path jksKeyStore() {
      return jksKeyStore;
    }

    /** {@return the password of both key stores and of the key in them} ({@code toCharArray()} it). */
    public String password() {
      return PASSWORD;
    }

    /** {@return this identity's certificate} (the leaf). */
    public X509Certificate certificate() {
      return certificate;
    }

    /** {@return the certificate's subject as RFC 2253 text}, such as {@code CN=localhost}. */
    public String subject() {
      return certificate.getSubjectX500Principal().getName();
    }

    @Override
    public String toString() {
      return "Identity[" + subject() + ", " + keyStore + "]";
    }
  }
}
