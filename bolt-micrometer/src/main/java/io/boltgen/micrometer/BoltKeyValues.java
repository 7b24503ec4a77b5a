package io.boltgen.micrometer;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * The key names of boltgen's observations and how the default conventions fill them. Low cardinality (tags
 * of every meter): {@value #SERVICE}, {@value #METHOD}, {@value #STATUS}, {@value #SIDE}. High cardinality
 * (spans only): {@value #REMOTE_ADDRESS}.
 */
public final class BoltKeyValues {

  /** The service's wire name, {@link MethodDescriptor#serviceName()}. */
  public static final String SERVICE = "service";
  /** The method's wire name, {@link MethodDescriptor#methodName()}. */
  public static final String METHOD = "method";
  /**
   * The call's {@link ResponseStatus} name, once it completed (absent while it is in flight, so the
   * {@code .active} long-task timers have no such tag).
   */
  public static final String STATUS = "status";
  /** {@code client} for calls sent, {@code server} for calls served. */
  public static final String SIDE = "side";
  /** The peer's {@code host:port}. */
  public static final String REMOTE_ADDRESS = "remote.address";

  private BoltKeyValues() {}

  static KeyValues lowCardinality(MethodDescriptor<?, ?> method, ResponseStatus status, String side) {
    KeyValues values = KeyValues.of(
        KeyValue.of(SERVICE, method.serviceName()),
        KeyValue.of(METHOD, method.methodName()),
        KeyValue.of(SIDE, side));
    return status == null ? values : values.and(KeyValue.of(STATUS, status.name()));
  }

  static KeyValues highCardinality(SocketAddress remoteAddress) {
    return KeyValues.of(KeyValue.of(REMOTE_ADDRESS, address(remoteAddress)));
  }

  /** {@code host:port} of an IP address (no reverse lookup); the address's own text otherwise. */
  static String address(SocketAddress address) {
    if (address instanceof InetSocketAddress inet) {
      String host = inet.getHostString();
      return (host.indexOf(':') >= 0 ? '[' + host + ']' : host) + ':' + inet.getPort();
    }
    return String.valueOf(address);
  }
}
