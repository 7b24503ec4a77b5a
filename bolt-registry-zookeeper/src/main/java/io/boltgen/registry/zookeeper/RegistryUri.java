package io.boltgen.registry.zookeeper;

import io.boltgen.registry.zookeeper.ZooKeeperRegistry.Layout;
import io.boltgen.runtime.support.HostAndPort;
import io.boltgen.runtime.support.MessageText;

/**
 * Reads a registry URI, {@code zookeeper://host:port[,host:port…][/root][?layout=boltgen|sofarpc]
 * [&persistentWatches=true|false]}, into a builder ({@link ZooKeeperRegistry#fromUri}). Stateless.
 */
final class RegistryUri {

  private static final String PREFIX = ZooKeeperRegistry.SCHEME + "://";
  private static final String PERSISTENT_WATCHES = "persistentWatches=";

  private RegistryUri() {}

  /**
   * The builder {@code uri} describes.
   *
   * @throws IllegalArgumentException naming what is wrong, if {@code uri} is not of that form
   */
  static ZooKeeperRegistry.Builder parse(String uri) {
    if (!uri.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      throw new IllegalArgumentException("not a " + PREFIX + "host:port URI: " + MessageText.quote(uri));
    }
    String rest = uri.substring(PREFIX.length());
    if (rest.indexOf('#') >= 0) {
      throw new IllegalArgumentException("a " + PREFIX + " URI takes no fragment: " + MessageText.quote(uri));
    }
    Layout layout = Layout.BOLTGEN;
    boolean persistentWatches = true;
    int query = rest.indexOf('?');
    if (query >= 0) {
      for (String pair : rest.substring(query + 1).split("&", -1)) {
        if (pair.startsWith(PERSISTENT_WATCHES)) {
          persistentWatches = booleanValue(pair.substring(PERSISTENT_WATCHES.length()), uri);
        } else {
          layout = layout(pair, uri);
        }
      }
      rest = rest.substring(0, query);
    }
    int slash = rest.indexOf('/');
    String hosts = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 || slash == rest.length() - 1 ? layout.defaultRoot() : rest.substring(slash);
    for (String host : hosts.split(",", -1)) {
      try {
        HostAndPort.parse(host); // the runtime's one rule for host:port
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("expected host:port in " + MessageText.quote(uri) + ", got "
            + MessageText.quote(host) + ": " + e.getMessage(), e);
      }
    }
    return ZooKeeperRegistry.builder().connectString(hosts).layout(layout).root(path)
        .persistentWatches(persistentWatches);
  }

  /** The layout a query parameter names: {@code layout=boltgen} or {@code layout=sofarpc}, any case. */
  private static Layout layout(String parameter, String uri) {
    String value = parameter.startsWith("layout=") ? parameter.substring("layout=".length()) : null;
    if (value != null && value.equalsIgnoreCase("sofarpc")) {
      return Layout.SOFARPC;
    }
    if (value != null && value.equalsIgnoreCase("boltgen")) {
      return Layout.BOLTGEN;
    }
    throw new IllegalArgumentException("a " + PREFIX + " URI takes the query parameters layout=boltgen or "
        + "layout=sofarpc, and persistentWatches=true or false; got " + MessageText.quote(parameter) + " in "
        + MessageText.quote(uri));
  }

  private static boolean booleanValue(String value, String uri) {
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new IllegalArgumentException("persistentWatches is true or false, not " + MessageText.quote(value)
        + " in " + MessageText.quote(uri));
  }
}
