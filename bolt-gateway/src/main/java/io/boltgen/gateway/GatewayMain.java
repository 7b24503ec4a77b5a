package io.boltgen.gateway;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.service.GeneratedService;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * The gateway as a program: {@code java -cp bolt-gateway.jar:<its dependencies>:<API jars>
 * io.boltgen.gateway.GatewayMain --registry etcd://HOST:PORT [--port N] [--host H] [--service NAME:VERSION]...
 * [--policy least-pending|round-robin|weighted-random] [--console]}. It forwards the named services (every
 * generated service on the class path when none is named) to their instances in the registry, prints
 * {@code READY <port>} once it listens, and runs until stopped (SIGTERM drains it first). A wrong argument
 * is answered on standard error, exit status 2.
 */
public final class GatewayMain {

  static final String USAGE = "usage: GatewayMain --registry etcd://HOST:PORT|zookeeper://HOST:PORT [--port N]"
      + " [--host H] [--service NAME:VERSION]... [--policy least-pending|round-robin|weighted-random] [--console]";

  private GatewayMain() {}

  /** Runs the gateway until the process is stopped. */
  public static void main(String[] args) throws InterruptedException {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    Registry registry = openRegistry(options.registry);
    BoltClient client = BoltClient.builder().nameResolver(registry)
        .connectionsPerAddress(BoltClient.ioThreads()) // each IO thread forwards on its own connection
        .build();
    BoltGateway gateway;
    try {
      gateway = build(options, registry, client, System.out);
    } catch (RuntimeException e) {
      System.err.println(e.getMessage());
      client.close();
      registry.close();
      System.exit(2);
      return;
    }
    gateway.start();
    serveUntilStopped(gateway, System.out, client, registry);
  }

  /**
   * Prints {@code READY <port>} for the started {@code gateway} and waits until the process is stopped; its
   * shutdown hook (SIGTERM) closes the gateway, draining it, then each of {@code alsoClose} in order.
   */
  public static void serveUntilStopped(BoltGateway gateway, PrintStream out, AutoCloseable... alsoClose)
      throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        gateway.close();
        for (AutoCloseable c : alsoClose) {
          try {
            c.close();
          } catch (Exception e) {
            System.err.println("closing " + c + " failed: " + e);
          }
        }
      } finally {
        stopped.countDown();
      }
    }, "gateway-shutdown"));
    out.println("READY " + gateway.port());
    out.flush();
    stopped.await();
  }

  /** The gateway {@code options} describe, forwarding through {@code client} to {@code registry}'s instances. */
  static BoltGateway build(Options options, Registry registry, BoltClient client, PrintStream out) {
    BoltGateway.Builder builder = BoltGateway.builder().client(client).bind(options.host, options.port)
        .console(options.console);
    if (options.policy != null) {
      builder.balancingPolicy(options.policy);
    }
    ClassLoader loader = GatewayMain.class.getClassLoader();
    List<ServiceDescriptor> services = new ArrayList<>();
    if (options.services.isEmpty()) {
      for (GeneratedService<?> generated : GeneratedService.all(loader)) {
        services.add(generated.descriptor());
      }
      services.sort(Comparator.comparing(ServiceDescriptor::name));
      if (services.isEmpty()) {
        throw new IllegalArgumentException("no generated service on the class path: add the API jar of the"
            + " services to forward");
      }
    } else {
      for (String key : options.services) {
        services.add(BoltGateway.Builder.find(key, loader));
      }
    }
    for (ServiceDescriptor d : services) {
      String target = registry.scheme() + ":///" + d.name() + ':' + d.version();
      builder.service(d, target);
      out.println("forwarding " + d.name() + ':' + d.version() + " to " + target);
    }
    return builder.build();
  }

  private static Registry openRegistry(String uri) {
    if (uri.startsWith("etcd://")) {
      return EtcdRegistry.fromUri(uri);
    }
    return ZooKeeperRegistry.fromUri(uri);
  }

  /** The command line, read. */
  static final class Options {
    String registry;
    String host = "0.0.0.0";
    int port = 8080;
    final List<String> services = new ArrayList<>();
    BalancingPolicy policy;
    boolean console;

    /** Reads {@code args}, naming the argument that is wrong. */
    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String option = args[i];
        if (option.equals("--console")) {
          o.console = true;
          continue;
        }
        if (!List.of("--registry", "--host", "--port", "--service", "--policy").contains(option)) {
          throw new IllegalArgumentException("unknown option " + quote(option));
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(option + " needs a value");
        }
        String value = args[++i];
        switch (option) {
          case "--registry" -> {
            if (!value.startsWith("etcd://") && !value.startsWith("zookeeper://")) {
              throw new IllegalArgumentException("--registry: " + quote(value)
                  + " is not etcd://HOST:PORT or zookeeper://HOST:PORT");
            }
            o.registry = value;
          }
          case "--host" -> o.host = value;
          case "--port" -> o.port = port(value);
          case "--service" -> {
            if (value.indexOf(':') <= 0 || value.endsWith(":")) {
              throw new IllegalArgumentException("--service: " + quote(value) + " is not NAME:VERSION");
            }
            o.services.add(value);
          }
          default -> o.policy = policy(value);
        }
      }
      if (o.registry == null) {
        throw new IllegalArgumentException("--registry URI is missing");
      }
      return o;
    }

    private static int port(String text) {
      try {
        int port = Integer.parseInt(text);
        if (port >= 0 && port <= 65535) {
          return port;
        }
      } catch (NumberFormatException e) {
        // said below
      }
      throw new IllegalArgumentException("--port: " + quote(text) + " is not a port number (0..65535)");
    }

    private static BalancingPolicy policy(String text) {
      try {
        return BalancingPolicy.valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--policy: " + quote(text)
            + " is not least-pending, round-robin or weighted-random", e);
      }
    }

    private static String quote(String text) {
      return '"' + (text.length() > 80 ? text.substring(0, 80) + "..." : text) + '"';
    }
  }
}
