package io.boltgen.registry.zookeeper;

import io.boltgen.runtime.support.MessageText;
import java.util.Objects;

/** Checks of the names that become ZooKeeper node names, and their quoting in messages. Stateless. */
final class Names {

  /** The longest service name. */
  static final int MAX_SERVICE_NAME = 512;

  private Names() {}

  /**
   * {@code service}, if it can be a node name under the root.
   *
   * @throws IllegalArgumentException naming it, if it cannot
   */
  static String service(String service) {
    Objects.requireNonNull(service, "service");
    String problem = service.length() > MAX_SERVICE_NAME
        ? "is longer than " + MAX_SERVICE_NAME + " characters"
        : nodeNameProblem(service);
    if (problem != null) {
      throw new IllegalArgumentException("service name " + MessageText.quote(service) + " " + problem);
    }
    return service;
  }

  /**
   * {@code hostAndPort} of an instance, if it can be a node name.
   *
   * @throws IllegalArgumentException naming it, if it cannot
   */
  static String instanceNode(String hostAndPort) {
    String problem = nodeNameProblem(hostAndPort);
    if (problem != null) {
      throw new IllegalArgumentException("instance address " + MessageText.quote(hostAndPort) + " " + problem);
    }
    return hostAndPort;
  }

  /**
   * The root path, absolute and without a trailing slash ({@code /} itself stays).
   *
   * @throws IllegalArgumentException naming it, if it is not a path ZooKeeper accepts
   */
  static String root(String root) {
    Objects.requireNonNull(root, "root");
    if (!root.startsWith("/")) {
      throw new IllegalArgumentException("root " + MessageText.quote(root) + " must start with '/'");
    }
    String trimmed = root;
    while (trimmed.length() > 1 && trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    if (trimmed.length() > 1) {
      for (String part : trimmed.substring(1).split("/", -1)) {
        String problem = nodeNameProblem(part);
        if (problem != null) {
          throw new IllegalArgumentException("root " + MessageText.quote(root) + ": a part " + problem);
        }
      }
    }
    if (trimmed.equals("/zookeeper") || trimmed.startsWith("/zookeeper/")) {
      throw new IllegalArgumentException("root " + MessageText.quote(root) + " is ZooKeeper's own subtree");
    }
    return trimmed;
  }

  /** Why {@code name} cannot be one node name, or null if it can (ZooKeeper's own path rules). */
  private static String nodeNameProblem(String name) {
    if (name.isEmpty()) {
      return "is empty";
    }
    if (name.equals(".") || name.equals("..")) {
      return "cannot be a ZooKeeper node name";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '/') {
        return "contains '/'";
      }
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        return "contains a control character";
      }
      if ((c >= '\ud800' && c <= '\uf8ff') || c >= '\ufff0') {
        return String.format("contains U+%04X, which ZooKeeper refuses in node names", (int) c);
      }
    }
    return null;
  }
}
