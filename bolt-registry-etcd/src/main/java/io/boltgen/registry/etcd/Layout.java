package io.boltgen.registry.etcd;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where instances live in etcd and how they are written: key {@code <prefix>/<service>/<host:port>}, value the
 * UTF-8 JSON {@code {"address":"host:port","weight":100,"version":"…","zone":"…","metadata":{…}}}. One place
 * for both directions, so that what is written is exactly what is read (docs/registry-etcd.md, Layout).
 */
final class Layout {

  /** The longest service name accepted. */
  static final int MAX_SERVICE_NAME = 512;

  /** The largest instance value written or read, in bytes; bigger values read are skipped. */
  static final int MAX_VALUE_BYTES = 64 * 1024;

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final String prefix;

  /** {@code prefix} starts with '/' and does not end with one (checked by the builder). */
  Layout(String prefix) {
    this.prefix = prefix;
  }

  String prefix() {
    return prefix;
  }

  /**
   * Checks that {@code service} can be one segment of a key: non-empty, at most {@value #MAX_SERVICE_NAME}
   * characters, no '/', no control characters.
   *
   * @throws IllegalArgumentException naming the service otherwise
   */
  static String checkService(String service) {
    if (service == null) {
      throw new IllegalArgumentException("service name is null");
    }
    if (service.isEmpty()) {
      throw new IllegalArgumentException("service name is empty");
    }
    if (service.length() > MAX_SERVICE_NAME) {
      throw new IllegalArgumentException("service name longer than " + MAX_SERVICE_NAME + " characters: \""
          + service.substring(0, 64) + "…\"");
    }
    for (int i = 0; i < service.length(); i++) {
      char c = service.charAt(i);
      if (c == '/') {
        throw new IllegalArgumentException("service name contains '/': \"" + service + "\"");
      }
      if (Character.isISOControl(c)) {
        throw new IllegalArgumentException("service name contains a control character: "
            + Json.quote(service));
      }
    }
    return service;
  }

  /**
   * Checks that {@code instance}'s {@code host:port} can be a key's last segment: no '/', no control
   * characters (an unresolved host name is taken as given).
   *
   * @throws IllegalArgumentException naming the address otherwise
   */
  static void checkAddress(ServiceInstance instance) {
    String address = instance.hostAndPort();
    for (int i = 0; i < address.length(); i++) {
      char c = address.charAt(i);
      if (c == '/' || Character.isISOControl(c)) {
        throw new IllegalArgumentException("an address with '/' or a control character cannot be a key: "
            + Json.quote(address));
      }
    }
  }

  /** {@code <prefix>/<service>/}: every key of the service starts with it. */
  String servicePrefix(String service) {
    return prefix + "/" + service + "/";
  }

  /** {@code <prefix>/<service>/<host:port>}. */
  String key(String service, ServiceInstance instance) {
    return servicePrefix(service) + instance.hostAndPort();
  }

  /** The value stored for {@code instance}. */
  static String value(ServiceInstance instance) {
    StringBuilder out = new StringBuilder(128);
    out.append("{\"address\":");
    Json.appendQuoted(out, instance.hostAndPort());
    out.append(",\"weight\":").append(instance.weight());
    out.append(",\"version\":");
    Json.appendQuoted(out, instance.version());
    out.append(",\"zone\":");
    Json.appendQuoted(out, instance.zone());
    out.append(",\"metadata\":").append(Json.stringObject(new java.util.TreeMap<>(instance.metadata())));
    return out.append('}').toString();
  }

  /**
   * The instance a value describes, stored under the key whose last segment is {@code segment}.
   *
   * @throws IllegalArgumentException saying what is wrong with it: not JSON, a field of the wrong type, an
   *     address that is not {@code host:port} or not the key's last segment, a weight out of range
   */
  static ServiceInstance parseValue(String segment, byte[] value) {
    if (value.length > MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("value of " + value.length + " bytes, more than " + MAX_VALUE_BYTES);
    }
    Map<String, Object> json = Json.parseObject(new String(value, StandardCharsets.UTF_8));
    String address = Json.string(json, "address", null);
    if (address == null) {
      throw new IllegalArgumentException("no \"address\"");
    }
    if (!address.equals(segment)) {
      throw new IllegalArgumentException("address \"" + address + "\" is not the key's last segment");
    }
    Object weight = json.getOrDefault("weight", (long) ServiceInstance.DEFAULT_WEIGHT);
    if (!(weight instanceof Long) || (Long) weight < 0 || (Long) weight > ServiceInstance.MAX_WEIGHT) {
      throw new IllegalArgumentException("\"weight\" is not an integer 0.." + ServiceInstance.MAX_WEIGHT);
    }
    Map<String, Object> rawMetadata = Json.object(json, "metadata");
    if (rawMetadata.size() > ServiceInstance.MAX_METADATA) {
      throw new IllegalArgumentException("more than " + ServiceInstance.MAX_METADATA + " metadata entries");
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    for (String name : rawMetadata.keySet()) {
      metadata.put(name, Json.string(rawMetadata, name, ""));
    }
    return new ServiceInstance(parseAddress(address), (int) (long) (Long) weight,
        Json.string(json, "version", ""), Json.string(json, "zone", ""), metadata);
  }

  /**
   * {@code host:port} or {@code [v6]:port} as an address: IP literals resolved (no lookup is needed), host
   * names left unresolved for the connection to resolve.
   */
  static InetSocketAddress parseAddress(String address) {
    int colon = address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      throw new IllegalArgumentException("address \"" + address + "\" is not host:port");
    }
    String host = address.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("address \"" + address + "\" has no numeric port");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("address \"" + address + "\" has a port out of range");
    }
    try {
      if (host.startsWith("[") && host.endsWith("]")) {
        String literal = host.substring(1, host.length() - 1);
        if (literal.indexOf(':') < 0) {
          throw new IllegalArgumentException("address \"" + address + "\" has a bad IPv6 literal");
        }
        return new InetSocketAddress(InetAddress.getByName(literal), port);
      }
      if (host.indexOf(':') >= 0 || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
        throw new IllegalArgumentException("address \"" + address + "\" needs [brackets] around IPv6");
      }
      if (IPV4.matcher(host).matches()) {
        return new InetSocketAddress(InetAddress.getByName(host), port);
      }
    } catch (UnknownHostException e) {
      // only literals get here, and a bad literal is a bad address
      throw new IllegalArgumentException("address \"" + address + "\" has a bad IP literal");
    }
    return InetSocketAddress.createUnresolved(host, port);
  }

  // ---- the gateway's encoding

  /** {@code text} as the gateway carries keys and values: base64 of its UTF-8 bytes. */
  static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The range end that selects every key starting with {@code prefix} (its last byte plus one), base64. */
  static String prefixEnd(String prefix) {
    byte[] bytes = prefix.getBytes(StandardCharsets.UTF_8);
    for (int i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] != (byte) 0xff) {
        bytes[i]++;
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(bytes, i + 1));
      }
    }
    return Base64.getEncoder().encodeToString(new byte[] {0}); // every key
  }

  /** Decodes a base64 key or value of a reply. */
  static byte[] decode(String base64) {
    return Base64.getDecoder().decode(base64);
  }
}
