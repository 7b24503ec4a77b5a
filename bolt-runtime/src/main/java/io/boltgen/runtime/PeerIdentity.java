package io.boltgen.runtime;

import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Who the peer of a TLS connection proved to be: its certificate chain, as the handshake verified it
 * against this side's trust ({@link Connection#peerIdentity()}; on a server only with client
 * authentication). Immutable.
 */
public final class PeerIdentity {

  private final List<X509Certificate> certificates;
  private final String subject;
  private final List<String> subjectAlternativeNames;

  private PeerIdentity(List<X509Certificate> certificates) {
    this.certificates = List.copyOf(certificates);
    X509Certificate leaf = certificates.get(0);
    this.subject = leaf.getSubjectX500Principal().getName();
    this.subjectAlternativeNames = namesOf(leaf);
  }

  /**
   * The identity of a verified chain (leaf first); {@code null} when there is no X.509 certificate in it.
   */
  public static PeerIdentity of(Certificate[] chain) {
    List<X509Certificate> x509 = new ArrayList<>();
    for (Certificate c : chain == null ? new Certificate[0] : chain) {
      if (c instanceof X509Certificate cert) {
        x509.add(cert);
      }
    }
    return x509.isEmpty() ? null : new PeerIdentity(x509);
  }

  /** The leaf certificate's subject, as RFC 2253 text: {@code CN=orders,O=acme}. */
  public String subject() {
    return subject;
  }

  /**
   * The leaf certificate's subject alternative names, each as {@code TYPE:value}: {@code DNS:orders.test},
   * {@code IP:10.0.0.7}, {@code URI:spiffe://acme/orders}, {@code EMAIL:a@b}.
   */
  public List<String> subjectAlternativeNames() {
    return subjectAlternativeNames;
  }

  /** The chain, leaf first. */
  public List<X509Certificate> certificates() {
    return certificates;
  }

  /** Whether {@code name} is this peer's subject or one of its subject alternative names (exact text). */
  public boolean isNamed(String name) {
    return subject.equals(name) || subjectAlternativeNames.contains(name);
  }

  private static List<String> namesOf(X509Certificate leaf) {
    Collection<List<?>> names;
    try {
      names = leaf.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return List.of();
    }
    if (names == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (List<?> entry : names) {
      Object type = entry.get(0);
      Object value = entry.get(1);
      String prefix = switch (type instanceof Integer i ? i : -1) {
        case 1 -> "EMAIL:";
        case 2 -> "DNS:";
        case 6 -> "URI:";
        case 7 -> "IP:";
        default -> null;
      };
      if (prefix != null && value instanceof String) {
        out.add(prefix + value);
      }
    }
    return List.copyOf(out);
  }

  @Override
  public String toString() {
    return subject + (subjectAlternativeNames.isEmpty() ? "" : " " + subjectAlternativeNames);
  }
}
