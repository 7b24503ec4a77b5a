package io.boltgen.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * TLS settings of a client or server ({@code BoltClient.Builder.tls}, {@code BoltServer.Builder.tls}): TLS
 * runs straight on the socket, the Bolt frames inside it, as SOFABolt's SSL does. Immutable; built with
 * {@link #builder()}.
 *
 * <pre>{@code
 * Tls serverTls = Tls.builder()
 *     .keyPair(Path.of("server-chain.pem"), Path.of("server-key.pem"))   // PKCS#8, unencrypted
 *     .trust(Path.of("ca.pem"))                                           // whom client certificates may chain to
 *     .clientAuth(Tls.ClientAuth.REQUIRE)                                 // mutual TLS
 *     .build();
 * }</pre>
 *
 * <p>Defaults: TLSv1.3 and TLSv1.2; trust in the JDK's default trust store unless {@link Builder#trust} or
 * {@link Builder#trustStore} is set; a client verifies that the server's certificate names the host it
 * connects to ({@link Builder#verifyHostname}); a server asks for no client certificate; the provider is
 * OpenSSL (BoringSSL) when {@code netty-tcnative-boringssl-static} is on the class path, else the JDK's.
 *
 * <p>Key material is read when the client or server is built, and again on {@code reloadTls()} or, with
 * {@link Builder#reloadEvery}, when a file it was read from changes: new connections use the new material,
 * existing ones keep theirs.
 */
public final class Tls {

  /** Which TLS implementation runs the handshakes and the records. */
  public enum Provider {
    /** OpenSSL when netty-tcnative is on the class path and loads, else the JDK's. */
    AUTO,
    /** The JDK's own (SunJSSE). */
    JDK,
    /** OpenSSL (BoringSSL through netty-tcnative); fails at build time when it is not available. */
    OPENSSL
  }

  /** Whether a server asks its clients for a certificate. */
  public enum ClientAuth {
    /** No client certificate (the default). */
    NONE,
    /** A client certificate is asked for and checked if sent; a client without one is accepted. */
    OPTIONAL,
    /** Mutual TLS: a client without a trusted certificate is refused during the handshake. */
    REQUIRE
  }

  private final Path certificateChain;
  private final Path privateKey;
  private final Path keyStore;
  private final char[] keyStorePassword;
  private final String keyStoreType;
  private final Path trustCertificates;
  private final Path trustStore;
  private final char[] trustStorePassword;
  private final String trustStoreType;
  private final List<String> protocols;
  private final ClientAuth clientAuth;
  private final boolean verifyHostname;
  private final Provider provider;
  private final long reloadMillis;

  private Tls(Builder b) {
    this.certificateChain = b.certificateChain;
    this.privateKey = b.privateKey;
    this.keyStore = b.keyStore;
    this.keyStorePassword = b.keyStorePassword == null ? null : b.keyStorePassword.clone();
    this.keyStoreType = b.keyStoreType;
    this.trustCertificates = b.trustCertificates;
    this.trustStore = b.trustStore;
    this.trustStorePassword = b.trustStorePassword == null ? null : b.trustStorePassword.clone();
    this.trustStoreType = b.trustStoreType;
    this.protocols = b.protocols;
    this.clientAuth = b.clientAuth;
    this.verifyHostname = b.verifyHostname;
    this.provider = b.provider;
    this.reloadMillis = b.reloadMillis;
  }

  /** A builder with the defaults above. */
  public static Builder builder() {
    return new Builder();
  }

  /** The PEM certificate chain (leaf first), or {@code null} when the key material is a key store or absent. */
  public Path certificateChain() {
    return certificateChain;
  }

  /** The PEM PKCS#8 private key, or {@code null}. */
  public Path privateKey() {
    return privateKey;
  }

  /** The key store holding this side's key and chain, or {@code null}. */
  public Path keyStore() {
    return keyStore;
  }

  /** The key store's password (a copy), or {@code null}. */
  public char[] keyStorePassword() {
    return keyStorePassword == null ? null : keyStorePassword.clone();
  }

  /** The key store's type ({@code PKCS12}, {@code JKS}), or {@code null}. */
  public String keyStoreType() {
    return keyStoreType;
  }

  /** The PEM certificates trusted, or {@code null}. */
  public Path trustCertificates() {
    return trustCertificates;
  }

  /** The trust store, or {@code null}. */
  public Path trustStore() {
    return trustStore;
  }

  /** The trust store's password (a copy), or {@code null}. */
  public char[] trustStorePassword() {
    return trustStorePassword == null ? null : trustStorePassword.clone();
  }

  /** The trust store's type, or {@code null}. */
  public String trustStoreType() {
    return trustStoreType;
  }

  /** Whether neither trust certificates nor a trust store is set: the JDK's default trust applies. */
  public boolean usesDefaultTrust() {
    return trustCertificates == null && trustStore == null;
  }

  /** Whether this side has key material of its own. */
  public boolean hasKeyMaterial() {
    return certificateChain != null || keyStore != null;
  }

  /** The protocols enabled, in order of preference. */
  public List<String> protocols() {
    return protocols;
  }

  /** Whether a server asks for client certificates. */
  public ClientAuth clientAuth() {
    return clientAuth;
  }

  /** Whether a client checks that the server's certificate names the host it connects to. */
  public boolean verifyHostname() {
    return verifyHostname;
  }

  /** The provider asked for. */
  public Provider provider() {
    return provider;
  }

  /** How often the key and trust files are checked for changes, in milliseconds; 0 = never. */
  public long reloadMillis() {
    return reloadMillis;
  }

  /** The files the material is read from (those that are set). */
  public List<Path> files() {
    return java.util.stream.Stream.of(certificateChain, privateKey, keyStore, trustCertificates, trustStore)
        .filter(Objects::nonNull).toList();
  }

  @Override
  public String toString() {
    return "Tls{key=" + (certificateChain != null ? certificateChain + " + " + privateKey : keyStore)
        + ", trust=" + (usesDefaultTrust() ? "JDK default" : trustCertificates != null ? trustCertificates : trustStore)
        + ", protocols=" + protocols + ", clientAuth=" + clientAuth + ", verifyHostname=" + verifyHostname
        + ", provider=" + provider + '}';
  }

  /** Builds {@link Tls}. Not thread-safe. */
  public static final class Builder {
    private Path certificateChain;
    private Path privateKey;
    private Path keyStore;
    private char[] keyStorePassword;
    private String keyStoreType;
    private Path trustCertificates;
    private Path trustStore;
    private char[] trustStorePassword;
    private String trustStoreType;
    private List<String> protocols = List.of("TLSv1.3", "TLSv1.2");
    private ClientAuth clientAuth = ClientAuth.NONE;
    private boolean verifyHostname = true;
    private Provider provider = Provider.AUTO;
    private long reloadMillis;

    private Builder() {}

    /**
     * This side's certificate and key as PEM files: the chain (leaf first, then intermediates) and an
     * unencrypted PKCS#8 private key ({@code -----BEGIN PRIVATE KEY-----}).
     */
    public Builder keyPair(Path certificateChainPem, Path privateKeyPem) {
      this.certificateChain = Objects.requireNonNull(certificateChainPem, "certificateChainPem");
      this.privateKey = Objects.requireNonNull(privateKeyPem, "privateKeyPem");
      this.keyStore = null;
      return this;
    }

    /** This side's certificate and key from a key store file ({@code type} PKCS12 or JKS) with one key entry. */
    public Builder keyStore(Path file, char[] password, String type) {
      this.keyStore = Objects.requireNonNull(file, "file");
      this.keyStorePassword = Objects.requireNonNull(password, "password").clone();
      this.keyStoreType = Objects.requireNonNull(type, "type");
      this.certificateChain = null;
      this.privateKey = null;
      return this;
    }

    /** Trusts the certificates of a PEM file (the CAs peers' certificates chain to) instead of the JDK's. */
    public Builder trust(Path certificatesPem) {
      this.trustCertificates = Objects.requireNonNull(certificatesPem, "certificatesPem");
      this.trustStore = null;
      return this;
    }

    /** Trusts the certificates of a trust store file ({@code type} PKCS12 or JKS) instead of the JDK's. */
    public Builder trustStore(Path file, char[] password, String type) {
      this.trustStore = Objects.requireNonNull(file, "file");
      this.trustStorePassword = Objects.requireNonNull(password, "password").clone();
      this.trustStoreType = Objects.requireNonNull(type, "type");
      this.trustCertificates = null;
      return this;
    }

    /** The protocols to enable, most preferred first; TLSv1.3 and TLSv1.2 unless set. */
    public Builder protocols(String... protocols) {
      if (protocols.length == 0) {
        throw new IllegalArgumentException("at least one protocol");
      }
      for (String p : protocols) {
        if (!p.equals("TLSv1.3") && !p.equals("TLSv1.2")) {
          throw new IllegalArgumentException("only TLSv1.3 and TLSv1.2 are supported: " + p);
        }
      }
      this.protocols = List.of(protocols);
      return this;
    }

    /** A server's demand for client certificates; {@link ClientAuth#NONE} unless set. */
    public Builder clientAuth(ClientAuth clientAuth) {
      this.clientAuth = Objects.requireNonNull(clientAuth, "clientAuth");
      return this;
    }

    /**
     * Whether a client checks that the server's certificate names the host it connects to (a DNS or IP
     * subject alternative name); on unless set. Turn it off only for fleets addressed by IP whose
     * certificates do not list their IPs: the certificate is then still checked against the trust.
     */
    public Builder verifyHostname(boolean verify) {
      this.verifyHostname = verify;
      return this;
    }

    /** The TLS implementation; {@link Provider#AUTO} unless set. */
    public Builder provider(Provider provider) {
      this.provider = Objects.requireNonNull(provider, "provider");
      return this;
    }

    /**
     * Checks the key and trust files every {@code interval} and reloads them when one changed (new
     * connections use the new material); off unless set. {@code reloadTls()} reloads at once.
     */
    public Builder reloadEvery(Duration interval) {
      this.reloadMillis = Checks.positiveMillis(interval, "reload interval");
      return this;
    }

    /**
     * The settings, checked: every file set must be readable. Whether a side needs key material is checked
     * by the builder it is given to (a server always does).
     *
     * @throws IllegalArgumentException naming a file that cannot be read
     */
    public Tls build() {
      Tls tls = new Tls(this);
      for (Path file : tls.files()) {
        if (!Files.isReadable(file)) {
          throw new IllegalArgumentException("cannot read " + file);
        }
      }
      return tls;
    }
  }
}
