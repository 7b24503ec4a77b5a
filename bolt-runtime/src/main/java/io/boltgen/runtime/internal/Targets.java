package io.boltgen.runtime.internal;

import java.net.InetSocketAddress;

/**
 * What a channel's target names: {@code host:port} (one address), or {@code scheme:///service} (a cluster
 * resolved by the resolver of that scheme).
 */
final class Targets {

  private Targets() {}

  /** A parsed {@code scheme:///service}. */
  record Cluster(String scheme, String service) {}

  /** Whether {@code target} names a cluster rather than one address. */
  static boolean isCluster(String target) {
    return target.contains("://");
  }

  /** {@code scheme:///service}, checked. */
  static Cluster cluster(String target) {
    int colon = target.indexOf("://");
    String scheme = target.substring(0, colon);
    if (scheme.isEmpty() || !scheme.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '+' || c == '-'
        || c == '.')) {
      throw new IllegalArgumentException("bad scheme in target " + target);
    }
    String rest = target.substring(colon + 3);
    if (!rest.startsWith("/")) {
      throw new IllegalArgumentException("expected scheme:///service (three slashes: the resolver is the client's"
          + " for that scheme), got " + target);
    }
    String service = rest.substring(1);
    if (service.isEmpty()) {
      throw new IllegalArgumentException("no service in target " + target);
    }
    return new Cluster(scheme, service);
  }

  /** {@code host:port} or {@code [v6]:port}; a host name is looked up now. */
  static InetSocketAddress address(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostAndPort.length() - 1) {
      throw new IllegalArgumentException("expected host:port, got " + hostAndPort);
    }
    String host = hostAndPort.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(hostAndPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad port in " + hostAndPort, e);
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("port out of range in " + hostAndPort);
    }
    return new InetSocketAddress(host, port);
  }
}
