package io.boltgen.registry.zookeeper;

import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.runtime.support.HostAndPort;
import io.boltgen.runtime.support.MessageText;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * SOFARPC's provider URLs, as its {@code registry-zk} module (5.13.x) writes them as node names under
 * {@code /sofa-rpc/<interface>/providers} and as its consumers parse them ({@code ProviderHelper.toProviderInfo}):
 *
 * <pre>{@code
 * bolt://10.0.0.7:12200?version=1.0&uniqueId=&interface=com.example.Greet&protocol=bolt&weight=100&...
 * }</pre>
 *
 * <p>The node name is the whole URL encoded once with {@link URLEncoder} (UTF-8); a consumer decodes it once,
 * takes the scheme before {@code ://} (lower-cased; none means {@code bolt}), the address up to the first
 * {@code /} or {@code ?}, then splits the query at every {@code &} and each pair at every {@code =}, keeping the
 * text between the first and second {@code =} as the value, the last of equal keys winning. A pair without
 * {@code =} (an empty one too) makes SOFARPC's parser throw for the whole list, so such a URL counts as garbled
 * here. Values are not decoded again: a value cannot hold {@code &}, {@code =} or {@code /} (a {@code /} would
 * end SOFARPC's address early), so those are never written. Stateless.
 */
final class SofaRpcUrl {

  /** What {@code rpcVer} says: SOFARPC 5.13.2's {@code Version.RPC_VERSION}, the release whose wire boltgen speaks. */
  static final String RPC_VERSION = "51302";

  /** The version a URL without {@code version} has, and SOFARPC's unique names without one. */
  static final String DEFAULT_VERSION = "1.0";

  /** SOFARPC's default serialization, written unless the instance's metadata names another. */
  static final String DEFAULT_SERIALIZATION = "hessian2";

  /** SOFARPC's default provider weight (its {@code provider.weight}), for a URL without {@code weight}. */
  static final int DEFAULT_WEIGHT = 100;

  /** The scheme (SOFARPC's protocol) of the providers boltgen speaks to; others are skipped. */
  static final String BOLT = "bolt";

  /** Parameters that come from the service name and the instance's weight, never from its metadata. */
  private static final Set<String> DERIVED = Set.of("version", "uniqueId", "interface", "protocol", "weight",
      "dynamic");

  /** Parameters with a default that the instance's metadata may replace, in the order they are written. */
  private static final List<String> DEFAULTED = List.of("serialization", "timeout", "dynamic", "startTime", "pid",
      "language", "rpcVer");

  private SofaRpcUrl() {}

  /**
   * A SOFARPC unique name, {@code interface:version[:uniqueId]} ({@code ConfigUniqueNameGenerator}): what a
   * boltgen service name means in the SOFARPC layout.
   */
  record Name(String interfaceName, String version, String uniqueId) {

    /**
     * Parses {@code service}; the uniqueId is everything after the second {@code :}.
     *
     * @throws IllegalArgumentException naming it, if it is not of that form or cannot be written in a URL
     */
    static Name parse(String service) {
      int first = service.indexOf(':');
      int second = first < 0 ? -1 : service.indexOf(':', first + 1);
      String interfaceName = first < 0 ? service : service.substring(0, first);
      String version = first < 0 ? "" : second < 0 ? service.substring(first + 1) : service.substring(first + 1, second);
      String uniqueId = second < 0 ? "" : service.substring(second + 1);
      String problem = interfaceName.isEmpty() ? "has no interface"
          : first < 0 || version.isEmpty() ? "has no version"
          : second >= 0 && uniqueId.isEmpty() ? "ends with ':' (a SOFARPC unique name without uniqueId has none)"
          : null;
      if (problem == null) {
        problem = unwritable(service);
      }
      if (problem != null) {
        throw new IllegalArgumentException("service name " + MessageText.quote(service) + " " + problem
            + ": in the SOFARPC layout a service is interface:version or interface:version:uniqueId");
      }
      return new Name(interfaceName, version, uniqueId);
    }
  }

  /**
   * The URL of {@code instance} as one of {@code name}'s providers: the parameters SOFARPC's own providers write
   * (version, uniqueId, interface, protocol, weight, serialization, timeout, dynamic, startTime, pid, language,
   * rpcVer, and appName if the metadata has one), then every other metadata entry, sorted by key. Metadata
   * entries named like the defaulted parameters replace the default; those named like the derived ones
   * (version, uniqueId, interface, protocol, weight, dynamic) are ignored; entries a SOFARPC consumer could not
   * read back unchanged are left out and returned in {@code leftOut}.
   *
   * @throws IllegalArgumentException if the address is an IPv6 literal, which SOFARPC's parser cannot read
   */
  static String write(Name name, ServiceInstance instance, long startTime, List<String> leftOut) {
    String address = instance.hostAndPort();
    if (address.startsWith("[")) {
      throw new IllegalArgumentException("the instance address " + address + " is an IPv6 literal, which "
          + "SOFARPC's provider URLs cannot hold");
    }
    Map<String, String> metadata = new TreeMap<>(instance.metadata());
    Map<String, String> params = new LinkedHashMap<>();
    params.put("version", name.version());
    params.put("uniqueId", name.uniqueId());
    params.put("interface", name.interfaceName());
    params.put("protocol", BOLT);
    params.put("weight", Integer.toString(instance.weight()));
    Map<String, String> defaults = Map.of("serialization", DEFAULT_SERIALIZATION, "timeout", "0", "dynamic", "true",
        "startTime", Long.toString(startTime), "pid", Long.toString(ProcessHandle.current().pid()),
        "language", "java", "rpcVer", RPC_VERSION);
    for (String key : DEFAULTED) {
      String value = DERIVED.contains(key) ? null : metadata.remove(key);
      params.put(key, value != null && unwritable(value) == null ? value : defaults.get(key));
      if (value != null && unwritable(value) != null) {
        leftOut.add(key);
      }
    }
    metadata.keySet().removeAll(DERIVED);
    String appName = metadata.remove("appName");
    if (appName != null) {
      metadata = withFirst("appName", appName, metadata);
    }
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      if (e.getKey().isEmpty() || unwritable(e.getKey()) != null || unwritable(e.getValue()) != null) {
        leftOut.add(e.getKey());
      } else {
        params.put(e.getKey(), e.getValue());
      }
    }
    StringBuilder url = new StringBuilder(256).append(BOLT).append("://").append(address);
    char separator = '?';
    for (Map.Entry<String, String> e : params.entrySet()) {
      url.append(separator).append(e.getKey()).append('=').append(e.getValue());
      separator = '&';
    }
    return url.toString();
  }

  private static Map<String, String> withFirst(String key, String value, Map<String, String> rest) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put(key, value);
    all.putAll(rest);
    return all;
  }

  /** The node name of {@code url}: the URL encoded once, as SOFARPC's providers name their nodes. */
  static String nodeName(String url) {
    return URLEncoder.encode(url, StandardCharsets.UTF_8);
  }

  /** Why {@code text} cannot be a parameter (or a part of one) in a SOFARPC URL, or null if it can. */
  private static String unwritable(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '&' || c == '=' || c == '/') {
        return "contains '" + c + "', which SOFARPC's URL parser splits at";
      }
    }
    return null;
  }

  /** A provider URL as a SOFARPC consumer parses it: its scheme, address text and parameters. */
  record Provider(String protocol, String address, Map<String, String> params, int weight) {}

  /**
   * Parses node name {@code nodeName} by SOFARPC's rules (see the class comment).
   *
   * @throws IllegalArgumentException saying why, if SOFARPC's parser would fail on it (or it is longer than
   *     {@code maxLength} characters)
   */
  static Provider parse(String nodeName, int maxLength) {
    if (nodeName.length() > 3 * maxLength) {
      throw new IllegalArgumentException("a node name of " + nodeName.length() + " characters");
    }
    String url;
    try {
      url = URLDecoder.decode(nodeName, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not URL-encoded (" + e.getMessage() + ")");
    }
    if (url.length() > maxLength) {
      throw new IllegalArgumentException("a provider URL of " + url.length() + " characters, more than " + maxLength);
    }
    int schemeEnd = url.indexOf("://");
    String protocol = schemeEnd < 0 ? BOLT : url.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
    String rest = schemeEnd < 0 ? url : url.substring(schemeEnd + 3);
    int slash = rest.indexOf('/');
    int end = slash >= 0 ? slash : rest.indexOf('?') >= 0 ? rest.indexOf('?') : rest.length();
    String address = rest.substring(0, end);
    rest = rest.substring(end);
    int query = rest.indexOf('?');
    Map<String, String> params = new LinkedHashMap<>();
    int weight = DEFAULT_WEIGHT;
    if (query >= 0) {
      for (String pair : rest.substring(query + 1).split("&", -1)) {
        String[] kv = pair.split("=", -1);
        if (kv.length < 2) {
          throw new IllegalArgumentException("the parameter " + MessageText.quote(pair) + " has no '='");
        }
        if (kv[0].equals("weight") && !kv[1].isEmpty()) {
          weight = parseInt(kv[1], weight); // SOFARPC keeps the weight it had for a value that is no number
        } else if (!kv[0].equals("weight")) {
          params.put(kv[0], kv[1]); // the last of equal keys wins, in the first one's place
        }
      }
    }
    return new Provider(protocol, address, params, weight);
  }

  private static int parseInt(String text, int otherwise) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  /**
   * The instance {@code provider} describes if it is one of {@code name}'s bolt providers, else null: its
   * scheme is {@code bolt}, its {@code version} (1.0 if absent) and {@code uniqueId} (empty if absent) are the
   * name's. Its weight is clamped to 0..{@value ServiceInstance#MAX_WEIGHT}; its metadata is every parameter but
   * {@code weight}, the first {@value ServiceInstance#MAX_METADATA} keys; the version and zone are empty.
   *
   * @param dropped gets a description of what did not fit, if anything
   * @throws IllegalArgumentException if its address is not {@code host:port}
   */
  static ServiceInstance instance(Name name, Provider provider, List<String> dropped) {
    Map<String, String> params = provider.params();
    if (!provider.protocol().equals(BOLT)
        || !params.getOrDefault("version", DEFAULT_VERSION).equals(name.version())
        || !params.getOrDefault("uniqueId", "").equals(name.uniqueId())) {
      return null;
    }
    InetSocketAddress address;
    try {
      address = HostAndPort.parse(provider.address());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("address " + MessageText.quote(provider.address()) + ": " + e.getMessage());
    }
    int weight = Math.max(0, Math.min(ServiceInstance.MAX_WEIGHT, provider.weight()));
    if (weight != provider.weight()) {
      dropped.add("weight " + provider.weight() + " taken as " + weight);
    }
    Map<String, String> metadata = params;
    if (params.size() > ServiceInstance.MAX_METADATA) {
      metadata = new LinkedHashMap<>();
      List<String> keys = new ArrayList<>(params.keySet());
      for (String key : keys.subList(0, ServiceInstance.MAX_METADATA)) {
        metadata.put(key, params.get(key));
      }
      dropped.add(params.size() + " parameters, of which the first " + ServiceInstance.MAX_METADATA
          + " are kept as metadata");
    }
    return new ServiceInstance(address, weight, "", "", metadata);
  }
}
