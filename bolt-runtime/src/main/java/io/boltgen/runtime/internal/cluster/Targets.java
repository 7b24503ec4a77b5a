package io.boltgen.runtime.internal.cluster;

import io.boltgen.runtime.support.HostAndPort;
import java.net.InetSocketAddress;

/**
 * What a channel's target names: {@code host:port} (one address), or {@code scheme:///service} (a cluster
 * resolved by the resolver of that scheme).
 */
public final class Targets {

  private Targets() {}

  /** A parsed {@code scheme:///service}. */
  public record Cluster(String scheme, String service) {}

  /** Whether {@code target} names a cluster rather than one address. */
  public static boolean isCluster(String target) {
    return target.contains("://");
  }

  /** {@code scheme:///service}, checked. */
  public static Cluster cluster(String target) {
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

  /**
   * One address, {@code host:port} by {@link HostAndPort}'s rules; a host name is looked up now (an unknown
   * one stays unresolved, and connecting to it fails).
   *
   * @throws IllegalArgumentException quoting the target and saying what is wrong with it
   */
  public static InetSocketAddress address(String hostAndPort) {
    InetSocketAddress address = HostAndPort.parse(hostAndPort);
    return address.isUnresolved() ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
  }
}
