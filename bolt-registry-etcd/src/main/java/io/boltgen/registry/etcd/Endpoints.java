package io.boltgen.registry.etcd;

import io.boltgen.runtime.support.MessageText;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/** Reading the ways endpoints are written: URLs, comma lists, and {@code etcd://host:port,host:port/prefix}. */
final class Endpoints {

  /** etcd's client port, for an endpoint that names none. */
  static final int DEFAULT_PORT = 2379;

  private Endpoints() {}

  /** {@code etcd://…} read: the member URLs and the prefix (null if the URI has no path). */
  record Parsed(List<String> endpoints, String prefix) {}

  /**
   * {@code urls} as {@code scheme://host:port} URIs: http or https, a host, a port (2379 if none), no path
   * beyond '/', no query; a bare {@code host:port} means http.
   */
  static List<URI> parse(List<String> urls) {
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("no etcd endpoint given");
    }
    List<URI> out = new ArrayList<>();
    for (String url : urls) {
      String text = url.strip();
      if (!text.contains("://")) {
        text = "http://" + text;
      }
      URI uri;
      try {
        uri = new URI(text);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("not an etcd endpoint URL: \"" + url + "\" (" + e.getMessage() + ")");
      }
      String scheme = uri.getScheme();
      if (!"http".equals(scheme) && !"https".equals(scheme)) {
        throw new IllegalArgumentException("etcd endpoint \"" + url + "\" is not http:// or https://");
      }
      if (uri.getHost() == null) {
        throw new IllegalArgumentException("etcd endpoint \"" + url + "\" has no host");
      }
      String path = uri.getRawPath();
      if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null
          || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
        throw new IllegalArgumentException("etcd endpoint \"" + url + "\" must be just scheme://host:port");
      }
      int port = uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort();
      out.add(URI.create(scheme + "://" + uri.getRawAuthority().replaceFirst(":\\d+$", "") + ":" + port));
    }
    return List.copyOf(out);
  }

  /** The entries of a comma-separated list, blanks skipped. */
  static List<String> splitList(String list) {
    List<String> out = new ArrayList<>();
    for (String part : list.split(",")) {
      if (!part.isBlank()) {
        out.add(part.strip());
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no etcd endpoint in \"" + list + "\"");
    }
    return out;
  }

  /** Reads {@code etcd://host:port[,host:port…][/prefix]}. */
  static Parsed parseEtcdUri(String uri) {
    String scheme = "etcd://";
    if (uri == null || !uri.regionMatches(true, 0, scheme, 0, scheme.length())) {
      throw new IllegalArgumentException("not an etcd://host:port[,host:port…][/prefix] URI: \"" + uri + "\"");
    }
    String rest = uri.substring(scheme.length());
    if (rest.contains("://")) {
      throw new IllegalArgumentException("\"" + uri + "\" lists host:port pairs, not URLs");
    }
    int slash = rest.indexOf('/');
    String hosts = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash);
    if (hosts.isBlank()) {
      throw new IllegalArgumentException("no host in \"" + uri + "\" (etcd://host:port[,host:port…][/prefix])");
    }
    List<String> endpoints = new ArrayList<>();
    for (String host : splitList(hosts)) {
      endpoints.add("http://" + host);
    }
    parse(endpoints); // checks them
    String prefix = path.isEmpty() || path.equals("/") ? null : checkPrefix(path);
    return new Parsed(List.copyOf(endpoints), prefix);
  }

  /** A key prefix: starts with '/', no control characters; trailing '/' dropped, and it must not then be empty. */
  static String checkPrefix(String prefix) {
    String p = prefix;
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (!prefix.startsWith("/") || p.isEmpty()) {
      throw new IllegalArgumentException("the key prefix must start with '/' and name something: \"" + prefix + "\"");
    }
    for (int i = 0; i < p.length(); i++) {
      if (Character.isISOControl(p.charAt(i))) {
        throw new IllegalArgumentException("the key prefix has a control character: " + MessageText.quote(prefix));
      }
    }
    return p;
  }
}
