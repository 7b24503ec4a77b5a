package io.boltgen.runtime.cluster;

import io.boltgen.runtime.support.HostAndPort;
import io.boltgen.runtime.support.MessageText;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;

/**
 * One instance of a service as a registry lists it: where it listens and how it wants to be treated.
 *
 * @param address where the instance listens (an unresolved address is resolved when a connection is made)
 * @param weight its share of calls relative to the other instances, 0..10,000 (0 takes no calls while
 *     another instance can); {@value #DEFAULT_WEIGHT} for {@link #of}
 * @param version the version the instance runs (free text, empty if unknown)
 * @param zone the zone or rack it runs in (free text, empty if unknown)
 * @param metadata anything else, copied; at most {@value #MAX_METADATA} entries, each key Unicode text (no
 *     unpaired surrogate, which JSON readers refuse in a name)
 */
public record ServiceInstance(
    InetSocketAddress address, int weight, String version, String zone, Map<String, String> metadata) {

  /** The weight of an instance that sets none. */
  public static final int DEFAULT_WEIGHT = 100;

  /** The highest weight. */
  public static final int MAX_WEIGHT = 10_000;

  /** The most metadata entries an instance carries. */
  public static final int MAX_METADATA = 64;

  /**
   * The metadata key under which an instance states how many calls it takes at once (a decimal number from
   * 1 to {@value Integer#MAX_VALUE}); a client's balancer never has more of its calls waiting on the instance.
   */
  public static final String MAX_CONCURRENT_CALLS = "maxConcurrentCalls";

  /** Checks and copies. */
  public ServiceInstance {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(zone, "zone");
    if (weight < 0 || weight > MAX_WEIGHT) {
      throw new IllegalArgumentException("weight must be 0.." + MAX_WEIGHT + ": " + weight);
    }
    if (metadata.size() > MAX_METADATA) {
      throw new IllegalArgumentException("at most " + MAX_METADATA + " metadata entries: " + metadata.size());
    }
    metadata = Map.copyOf(metadata);
    for (String key : metadata.keySet()) {
      if (key.codePoints().anyMatch(c -> c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE)) {
        throw new IllegalArgumentException("metadata key " + MessageText.quote(key)
            + " has an unpaired surrogate: not Unicode text");
      }
    }
  }

  /** An instance at {@code address} with the default weight, no version, zone or metadata. */
  public static ServiceInstance of(InetSocketAddress address) {
    return new ServiceInstance(address, DEFAULT_WEIGHT, "", "", Map.of());
  }

  /** A copy with this weight. */
  public ServiceInstance withWeight(int weight) {
    return new ServiceInstance(address, weight, version, zone, metadata);
  }

  /** A copy with this version. */
  public ServiceInstance withVersion(String version) {
    return new ServiceInstance(address, weight, version, zone, metadata);
  }

  /** A copy with this zone. */
  public ServiceInstance withZone(String zone) {
    return new ServiceInstance(address, weight, version, zone, metadata);
  }

  /** A copy with these metadata entries. */
  public ServiceInstance withMetadata(Map<String, String> metadata) {
    return new ServiceInstance(address, weight, version, zone, metadata);
  }

  /**
   * How many calls the instance takes at once, from its {@value #MAX_CONCURRENT_CALLS} metadata entry; 0 when
   * it states none, or states something that is not a number from 1 to {@value Integer#MAX_VALUE} (no limit).
   */
  public int maxConcurrentCalls() {
    String text = metadata.get(MAX_CONCURRENT_CALLS);
    if (text == null || text.isEmpty() || text.length() > 10) {
      return 0;
    }
    long value = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return 0;
      }
      value = value * 10 + (c - '0');
    }
    return value > Integer.MAX_VALUE ? 0 : (int) value;
  }

  /** {@code host:port} of the address, as registries write it ({@code [v6]:port} for IPv6 literals). */
  public String hostAndPort() {
    return HostAndPort.format(address);
  }
}
