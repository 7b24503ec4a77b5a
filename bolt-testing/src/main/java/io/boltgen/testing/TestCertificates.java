package io.boltgen.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Certificates for TLS tests, generated fresh (never committed) into a directory the test owns, with nothing
 * but the running JDK: its {@code keytool} makes the keys and signs the certificates, this class writes the
 * PEM files and key stores from them. Every key is EC P-256 signed with SHA256withECDSA, which both the JDK's
 * TLS provider and OpenSSL/BoringSSL accept in TLS 1.2 and 1.3, and which is quicker to generate than RSA.
 *
 * <p>{@link #create} makes a trusted CA ({@code CN=boltgen test CA}) and an untrusted one
 * ({@code CN=boltgen other CA}) and issues from them, in parallel, a server certificate for
 * {@code localhost}/{@code 127.0.0.1} ({@link #server}), one for another host ({@link #serverWrongHost}), a
 * second one for the same host ({@link #serverRotated}), an expired client certificate ({@link #expiredClient})
 * and one from the untrusted CA ({@link #untrustedClient}); client certificates by name ({@link #client}) are
 * issued when first asked for. The set takes a second or two; it is made once per directory and JVM and then
 * shared, so a test class can call {@code create} in every test at no cost.
 *
 * <p>The files, all in the directory, are named for what they hold: {@code ca.pem}, {@code truststore.p12},
 * {@code truststore.jks}, {@code other-ca.pem}, the CAs' own key stores {@code ca-key.p12} and
 * {@code other-ca-key.p12} (tests need not touch them), and for each identity {@code <stem>.chain.pem},
 * {@code <stem>.key.pem}, {@code <stem>.p12} and {@code <stem>.jks}, where the stem is {@code server},
 * {@code server-wrong-host}, {@code server-rotated}, {@code expired-client}, {@code untrusted-client} or
 * {@code client-<name>}. Every key store and key has the password {@link #trustStorePassword()} (the same as
 * each {@link Identity#password()}).
 *
 * <p>Server certificates carry the extended key usage {@code serverAuth} only and client certificates
 * {@code clientAuth} only, as real ones do: a test cannot use a server identity as a TLS client.
 * Generation failures are thrown as {@link IllegalStateException}s carrying keytool's output.
 */
public final class TestCertificates {

  private static final String PASSWORD = "boltgen-test";
  private static final String ALIAS = "identity";
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
  private static final Map<Path, TestCertificates> BY_DIRECTORY = new HashMap<>();

  private final Path dir;
  private final Ca ca;
  private final Path otherCaPem;
  private final Path trustStore;
  private final Path jksTrustStore;
  private final Identity server;
  private final Identity serverWrongHost;
  private final Identity serverRotated;
  private final Identity expiredClient;
  private final Identity untrustedClient;
  private final Map<String, Identity> clients = new HashMap<>();

  private TestCertificates(Path dir, Ca ca, Path otherCaPem, Path trustStore, Path jksTrustStore,
      List<Identity> issued) {
    this.dir = dir;
    this.ca = ca;
    this.otherCaPem = otherCaPem;
    this.trustStore = trustStore;
    this.jksTrustStore = jksTrustStore;
    this.server = issued.get(0);
    this.serverWrongHost = issued.get(1);
    this.serverRotated = issued.get(2);
    this.expiredClient = issued.get(3);
    this.untrustedClient = issued.get(4);
  }

  /**
   * The certificates in {@code dir} (created if missing): generated on the first call for that directory in
   * this JVM, the same instance afterwards (unless its files were deleted meanwhile, then they are made anew).
   *
   * @param dir the directory the files go to, typically a JUnit {@code @TempDir}
   * @return the CAs and the identities issued from them
   * @throws IllegalStateException if keytool or a key store fails (keytool's output is in the message)
   * @throws UncheckedIOException if a file cannot be written
   */
  public static synchronized TestCertificates create(Path dir) {
    Path key = dir.toAbsolutePath().normalize();
    TestCertificates cached = BY_DIRECTORY.get(key);
    if (cached != null && Files.exists(cached.caPem()) && Files.exists(cached.server.keyStore())) {
      return cached;
    }
    TestCertificates created = generate(key);
    BY_DIRECTORY.put(key, created);
    return created;
  }

  /**
   * A client certificate {@code CN=<name>} from the trusted CA, with the SANs {@code DNS:<name>.test} and
   * {@code URI:spiffe://boltgen.test/<name>}, issued on the first call for {@code name} and the same afterwards;
   * its files are {@code client-<name>.*}.
   *
   * @param name a DNS label in lower case (it names files too): letters, digits, inner hyphens, at most 63
   * @return the identity
   * @throws IllegalArgumentException if {@code name} is not such a label
   */
  public synchronized Identity client(String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a client name is a lower-case DNS label (a-z, 0-9, inner -): " + name);
    }
    return clients.computeIfAbsent(name, n -> client(dir, ca, "client-" + n, n, "-1d", 30));
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
    return ca.pem;
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

  private static TestCertificates generate(Path dir) {
    ExecutorService pool = Executors.newFixedThreadPool(4, runnable -> {
      Thread thread = new Thread(runnable, "test-certificates");
      thread.setDaemon(true);
      return thread;
    });
    try {
      Files.createDirectories(dir);
      Future<Ca> other = pool.submit(() -> Ca.create(dir, "other-ca", "CN=boltgen other CA"));
      Ca ca = Ca.create(dir, "ca", "CN=boltgen test CA");
      List<Future<Identity>> issued = new ArrayList<>();
      issued.add(pool.submit(() -> server(dir, ca, "server")));
      issued.add(pool.submit(() -> issue(dir, ca, "server-wrong-host", "wrong.example", "-1d", 30,
          "san=dns:wrong.example", "eku=serverAuth")));
      issued.add(pool.submit(() -> server(dir, ca, "server-rotated")));
      issued.add(pool.submit(() -> client(dir, ca, "expired-client", "expired", "-3d", 1)));
      Ca otherCa = get(other);
      issued.add(pool.submit(() -> client(dir, otherCa, "untrusted-client", "untrusted", "-1d", 30)));

      Path trustStore = dir.resolve("truststore.p12");
      Path jksTrustStore = dir.resolve("truststore.jks");
      writeTrustStore(trustStore, "PKCS12", ca.certificate);
      writeTrustStore(jksTrustStore, "JKS", ca.certificate);
      List<Identity> identities = new ArrayList<>();
      for (Future<Identity> identity : issued) {
        identities.add(get(identity));
      }
      return new TestCertificates(dir, ca, otherCa.pem, trustStore, jksTrustStore, identities);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("could not write a trust store in " + dir, e);
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> T get(Future<T> future) {
    try {
      return future.get(2, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      if (e.getCause() instanceof IOException) {
        throw new UncheckedIOException((IOException) e.getCause());
      }
      throw new IllegalStateException("could not generate a test CA", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while generating test certificates", e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("generating test certificates took over 2 minutes", e);
    }
  }

  private static Identity server(Path dir, Ca ca, String stem) {
    return issue(dir, ca, stem, "localhost", "-1d", 30, "san=dns:localhost,ip:127.0.0.1", "eku=serverAuth");
  }

  private static Identity client(Path dir, Ca ca, String stem, String name, String startDate, int days) {
    return issue(dir, ca, stem, name, startDate, days,
        "san=dns:" + name + ".test,uri:spiffe://boltgen.test/" + name, "eku=clientAuth");
  }

  /**
   * keytool's {@code -genkeypair -signer} (JDK 16+) makes the key and the certificate signed by the CA in one
   * run, but only in the key store holding the CA's key: so it runs in a copy of that, which is then dropped.
   */
  private static Identity issue(Path dir, Ca ca, String stem, String commonName, String startDate, int days,
      String san, String extendedKeyUsage) {
    Path work = dir.resolve(stem + ".issuing.p12");
    try {
      Files.copy(ca.keyStore, work, StandardCopyOption.REPLACE_EXISTING);
      keytool(dir, stem, "-genkeypair", "-keystore", work.toString(), "-storetype", "PKCS12",
          "-storepass", PASSWORD, "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
          "-sigalg", "SHA256withECDSA", "-dname", "CN=" + commonName, "-signer", "ca",
          "-startdate", startDate, "-validity", Integer.toString(days),
          "-ext", san, "-ext", extendedKeyUsage, "-ext", "ku:c=digitalSignature", "-ext", "bc=ca:false");
      KeyStore issued = load(work, "PKCS12");
      PrivateKey key = (PrivateKey) issued.getKey(ALIAS, PASSWORD.toCharArray());
      Certificate[] chain = issued.getCertificateChain(ALIAS);
      Identity identity = new Identity(dir, stem, (X509Certificate) chain[0]);
      writeKeyStore(identity.keyStore, "PKCS12", key, chain);
      writeKeyStore(identity.jksKeyStore, "JKS", key, chain);
      Files.writeString(identity.certificateChainPem, pem("CERTIFICATE", chain[0].getEncoded())
          + pem("CERTIFICATE", chain[1].getEncoded()), StandardCharsets.US_ASCII);
      Files.writeString(identity.privateKeyPem, pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
      return identity;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("could not read or write the key stores of " + stem + " in " + dir, e);
    } finally {
      deleteQuietly(work);
    }
  }

  /** Runs this JDK's keytool with {@code args}; its output goes to a log that is kept only if it fails. */
  private static void keytool(Path dir, String stem, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        // a short-lived JVM: the C1 compiler and the serial collector start it about a third faster
        "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
    command.addAll(List.of(args));
    Path log = dir.resolve(stem + ".keytool.log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    process.getOutputStream().close(); // any prompt reads end of input and fails instead of waiting
    boolean exited;
    try {
      exited = process.waitFor(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while keytool ran for " + stem, e);
    }
    if (!exited) {
      process.destroyForcibly();
    }
    if (!exited || process.exitValue() != 0) {
      throw new IllegalStateException("keytool " + (exited ? "exited with " + process.exitValue() : "hung")
          + " for " + stem + ": " + String.join(" ", command) + "\n" + Files.readString(log));
    }
    Files.delete(log);
  }

  private static KeyStore load(Path file, String type) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type);
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD.toCharArray());
    }
    return store;
  }

  private static void writeKeyStore(Path file, String type, PrivateKey key, Certificate[] chain)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type);
    store.load(null, null);
    store.setKeyEntry(ALIAS, key, PASSWORD.toCharArray(), chain);
    store(store, file);
  }

  private static void writeTrustStore(Path file, String type, X509Certificate ca)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type);
    store.load(null, null);
    store.setCertificateEntry("ca", ca);
    store(store, file);
  }

  private static void store(KeyStore store, Path file) throws IOException, GeneralSecurityException {
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, PASSWORD.toCharArray());
    }
  }

  /** A PEM block: base64 at 64 columns between the BEGIN and END lines, each line ending in {@code \n}. */
  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a left-over work file in a temporary directory is harmless
    }
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

  /** A CA: its key store (key and self-signed certificate under the alias {@code ca}) and its certificate. */
  private static final class Ca {

    final Path keyStore;
    final Path pem;
    final X509Certificate certificate;

    private Ca(Path keyStore, Path pem, X509Certificate certificate) {
      this.keyStore = keyStore;
      this.pem = pem;
      this.certificate = certificate;
    }

    static Ca create(Path dir, String stem, String subject) throws IOException, GeneralSecurityException {
      Path keyStore = dir.resolve(stem + "-key.p12");
      Files.deleteIfExists(keyStore); // keytool refuses to make an alias that exists
      keytool(dir, stem, "-genkeypair", "-keystore", keyStore.toString(), "-storetype", "PKCS12",
          "-storepass", PASSWORD, "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
          "-sigalg", "SHA256withECDSA", "-dname", subject, "-startdate", "-7d", "-validity", "365",
          "-ext", "bc:c=ca:true,pathlen:0", "-ext", "ku:c=keyCertSign,cRLSign");
      X509Certificate certificate = (X509Certificate) load(keyStore, "PKCS12").getCertificate("ca");
      Path pem = dir.resolve(stem + ".pem");
      Files.writeString(pem, pem("CERTIFICATE", certificate.getEncoded()), StandardCharsets.US_ASCII);
      return new Ca(keyStore, pem, certificate);
    }
  }
}
