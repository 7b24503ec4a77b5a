package io.boltgen.registry.etcd;

import io.boltgen.json.InstanceRecord;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.HostAndPort;
import io.boltgen.runtime.support.MessageText;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where instances live in etcd: key {@code <prefix>/<service>/<host:port>}, value the instance's
 * {@link InstanceRecord} (the format both registries share), checked against its key on the way in
 * (docs/registry-etcd.md, Layout).
 */
final class Layout {

  /** The longest service name accepted. */
  static final int MAX_SERVICE_NAME = 512;

  /** The largest instance value written or read, in bytes; bigger values read are skipped. */
  static final int MAX_VALUE_BYTES = 64 * 1024;

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
            + MessageText.quote(service));
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
            + MessageText.quote(address));
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

  /**
   * The instance stored under the key whose last segment is {@code segment}: {@code value} in the stored form
   * ({@link InstanceRecord}), at most {@value #MAX_VALUE_BYTES} bytes, with the address the segment names.
   *
   * @throws IllegalArgumentException saying what is wrong with it: too big, not the stored form, or the
   *     address of another key
   */
  static ServiceInstance read(String segment, byte[] value) {
    if (value.length > MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("value of " + value.length + " bytes, more than " + MAX_VALUE_BYTES);
    }
    ServiceInstance instance = InstanceRecord.read(value);
    InetSocketAddress keyed;
    try {
      keyed = HostAndPort.parse(segment);
    } catch (IllegalArgumentException e) {
      keyed = null;
    }
    // the same address however it is spelled: [::1]:9 is [0:0:0:0:0:0:0:1]:9
    if (!instance.address().equals(keyed)) {
      throw new IllegalArgumentException("address " + instance.hostAndPort() + " is not the key's last segment "
          + MessageText.quote(segment));
    }
    return instance;
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
