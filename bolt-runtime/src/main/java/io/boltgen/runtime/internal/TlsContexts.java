package io.boltgen.runtime.internal;

import io.boltgen.runtime.Tls;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Turns {@link Tls} settings into a Netty {@link SslContext}, reading the key and trust files now: PEM files
 * through Netty's own PEM reader, key stores through the JDK's. The provider is OpenSSL when asked for or
 * (for {@code AUTO}) when netty-tcnative loads, else the JDK's.
 *
 * <p>Stateless.
 */
final class TlsContexts {

  private TlsContexts() {}

  /** The provider {@code tls} runs on in this process. */
  static SslProvider provider(Tls tls) {
    switch (tls.provider()) {
      case JDK:
        return SslProvider.JDK;
      case OPENSSL:
        if (!OpenSsl.isAvailable()) {
          throw new IllegalStateException("Tls.Provider.OPENSSL needs netty-tcnative-boringssl-static on the class"
              + " path (classifier of this platform): " + OpenSsl.unavailabilityCause());
        }
        return SslProvider.OPENSSL;
      default:
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }
  }

  /**
   * A server's context: its key material is required. With {@code alpn} it offers {@code h2} and
   * {@code http/1.1} to clients that ask (Bolt clients do not, and get no protocol chosen).
   */
  static SslContext server(Tls tls, boolean alpn) {
    if (!tls.hasKeyMaterial()) {
      throw new IllegalArgumentException("a TLS server needs key material: Tls.Builder.keyPair or keyStore");
    }
    try {
      SslContextBuilder builder = tls.certificateChain() != null
          ? SslContextBuilder.forServer(tls.certificateChain().toFile(), tls.privateKey().toFile())
          : SslContextBuilder.forServer(keyManagers(tls));
      trust(builder, tls);
      builder.clientAuth(switch (tls.clientAuth()) {
        case NONE -> ClientAuth.NONE;
        case OPTIONAL -> ClientAuth.OPTIONAL;
        case REQUIRE -> ClientAuth.REQUIRE;
      });
      if (alpn) {
        builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
            ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1));
      }
      return finish(builder, tls);
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("bad TLS key or trust material (" + tls + "): " + e.getMessage(), e);
    }
  }

  /** A client's context: key material only for mutual TLS. */
  static SslContext client(Tls tls) {
    try {
      SslContextBuilder builder = SslContextBuilder.forClient();
      if (tls.certificateChain() != null) {
        builder.keyManager(tls.certificateChain().toFile(), tls.privateKey().toFile());
      } else if (tls.keyStore() != null) {
        builder.keyManager(keyManagers(tls));
      }
      trust(builder, tls);
      // Netty 4.2 checks the host name by default; null turns it off for an IP-only fleet
      builder.endpointIdentificationAlgorithm(tls.verifyHostname() ? "HTTPS" : null);
      return finish(builder, tls);
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("bad TLS key or trust material (" + tls + "): " + e.getMessage(), e);
    }
  }

  private static SslContext finish(SslContextBuilder builder, Tls tls) throws SSLException {
    return builder.sslProvider(provider(tls)).protocols(tls.protocols()).build();
  }

  private static void trust(SslContextBuilder builder, Tls tls) {
    if (tls.trustCertificates() != null) {
      builder.trustManager(tls.trustCertificates().toFile());
    } else if (tls.trustStore() != null) {
      try {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(load(tls.trustStore(), tls.trustStorePassword(), tls.trustStoreType()));
        builder.trustManager(factory);
      } catch (GeneralSecurityException e) {
        throw new IllegalArgumentException("cannot use trust store " + tls.trustStore() + ": " + e, e);
      }
    } // else the JDK's default trust
  }

  private static KeyManagerFactory keyManagers(Tls tls) {
    try {
      KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(load(tls.keyStore(), tls.keyStorePassword(), tls.keyStoreType()), tls.keyStorePassword());
      return factory;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot use key store " + tls.keyStore() + ": " + e, e);
    }
  }

  private static KeyStore load(Path file, char[] password, String type) throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type);
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return store;
  }
}
