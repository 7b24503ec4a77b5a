package io.boltgen.example;

import io.boltgen.runtime.cluster.Registry;
import java.util.HashSet;
import java.util.Set;

/**
 * The example's command line, read: which {@code command} to run, the {@code --port} (-1 when not given) and
 * the {@code --registry} URI (null when not given). {@link #parse} names the argument that is wrong and says
 * why, so that {@link ExampleMain} can print that above the usage.
 */
record Arguments(String command, int port, String registry) {

  static final String USAGE = "usage: example-service.jar [serve --port N [--registry URI]"
      + " | call --port N | call --registry URI | gateway --port N --registry URI]"
      + "   (URI: etcd://HOST:PORT or zookeeper://HOST:PORT)";

  /** A command line that cannot be run; the message names the argument at fault and what is wrong with it. */
  static final class BadArguments extends Exception {
    private static final long serialVersionUID = 1L;

    BadArguments(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Reads {@code args}: nothing (or {@code demo}) for the demo, {@code serve --port N [--registry URI]},
   * {@code call --port N}, {@code call --registry URI}, {@code gateway --port N --registry URI}, or
   * {@code help} ({@code --help}, {@code -h}).
   */
  static Arguments parse(String... args) throws BadArguments {
    if (args.length == 0) {
      return new Arguments("demo", -1, null);
    }
    String command = args[0];
    switch (command) {
      case "help", "--help", "-h" -> {
        return new Arguments("help", -1, null);
      }
      case "demo", "serve", "call", "gateway" -> {
        // below
      }
      default -> throw new BadArguments(quote(command) + ": unknown command (expected serve, call, gateway, or"
          + " none for the demo)");
    }
    int port = -1;
    String registry = null;
    Set<String> seen = new HashSet<>();
    for (int i = 1; i < args.length; i += 2) {
      String option = args[i];
      if (command.equals("demo")) {
        throw new BadArguments("demo: takes no option, got " + quote(option));
      }
      if (!option.equals("--port") && !option.equals("--registry")) {
        throw new BadArguments(quote(option) + ": unknown option (" + command + " takes --port N"
            + (command.equals("call") ? " or --registry URI)" : " and --registry URI)"));
      }
      if (i + 1 >= args.length) {
        throw new BadArguments(option + ": the value is missing (" + option
            + (option.equals("--port") ? " N)" : " URI)"));
      }
      if (!seen.add(option)) {
        throw new BadArguments(option + ": given twice");
      }
      String value = args[i + 1];
      if (option.equals("--port")) {
        port = port(value);
      } else {
        registry = registry(value);
      }
    }
    if (command.equals("serve") && port < 0) {
      throw new BadArguments("serve: --port N is missing");
    }
    if (command.equals("gateway") && (port < 0 || registry == null)) {
      throw new BadArguments("gateway: " + (port < 0 ? "--port N" : "--registry URI") + " is missing");
    }
    if (command.equals("call") && port < 0 && registry == null) {
      throw new BadArguments("call: --port N or --registry URI is missing");
    }
    return new Arguments(command, port, registry);
  }

  /**
   * The registry {@link #registry} names, opened; null when none was given.
   *
   * @throws BadArguments if the URI is not one of a registry (a host without a port, a bad key prefix…)
   */
  Registry openRegistry() throws BadArguments {
    if (registry == null) {
      return null;
    }
    try {
      return ExampleMain.openRegistry(registry);
    } catch (IllegalArgumentException e) {
      throw new BadArguments("--registry: " + e.getMessage());
    }
  }

  private static int port(String text) throws BadArguments {
    boolean digits = !text.isEmpty() && text.length() <= 5 && text.chars().allMatch(c -> c >= '0' && c <= '9');
    int port = digits ? Integer.parseInt(text) : -1;
    if (port < 0 || port > 65535) {
      throw new BadArguments("--port: " + quote(text) + " is not a port number (0..65535)");
    }
    return port;
  }

  private static String registry(String uri) throws BadArguments {
    if (!uri.startsWith("etcd://") && !uri.startsWith("zookeeper://")) {
      throw new BadArguments("--registry: " + quote(uri) + " is not etcd://HOST:PORT or zookeeper://HOST:PORT");
    }
    return uri;
  }

  /** {@code text} in single quotes, with control characters shown as {@code \\uXXXX}. */
  private static String quote(String text) {
    StringBuilder quoted = new StringBuilder("'");
    text.codePoints().forEach(c -> {
      if (Character.isISOControl(c)) {
        quoted.append(String.format("\\u%04x", c));
      } else {
        quoted.appendCodePoint(c);
      }
    });
    return quoted.append('\'').toString();
  }
}
