package io.boltgen.example;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.cluster.Registry;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The runnable example.
 *
 * <ul>
 *   <li>no argument: starts the inventory server on a free loopback port, runs the demo client against it,
 *       prints what happened, and exits 0 when every call behaved as expected;</li>
 *   <li>{@code serve --port N}: runs only the server, printing {@code READY <port>} once it listens, until
 *       the process is stopped;</li>
 *   <li>{@code call --port N}: runs only the demo client against a server already listening there.</li>
 * </ul>
 *
 * <p>With {@code --registry etcd://HOST:PORT} (or {@code zookeeper://HOST:PORT}), {@code serve} also registers
 * the server there (and on stop deregisters, keeps serving while clients move away, then drains), and
 * {@code call} finds the servers there instead of taking a port: {@code call --registry etcd://HOST:PORT}.
 */
public final class ExampleMain {

  private ExampleMain() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    String command = args.length == 0 ? "demo" : args[0];
    Map<String, String> options = options(args);
    String registry = options.get("--registry");
    if (registry != null && !registry.startsWith("etcd://") && !registry.startsWith("zookeeper://")) {
      System.err.println("unknown registry " + registry);
      usage();
    }
    switch (command) {
      case "demo" -> System.exit(demo(out) ? 0 : 1);
      case "serve" -> serve(requirePort(options.get("--port")), registry, out);
      case "call" -> System.exit((registry != null ? callCluster(registry, out)
          : call(requirePort(options.get("--port")), out)) ? 0 : 1);
      default -> usage();
    }
  }

  private static final String USAGE = "usage: example-service.jar [serve --port N [--registry URI]"
      + " | call --port N | call --registry URI]   (URI: etcd://HOST:PORT or zookeeper://HOST:PORT)";

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].equals("--port") && !args[i].equals("--registry") || i + 1 >= args.length) {
        usage();
      }
      options.put(args[i], args[i + 1]);
    }
    return options;
  }

  private static void usage() {
    System.err.println(USAGE);
    System.exit(2);
  }

  private static int requirePort(String text) {
    int port = -1;
    try {
      port = text == null ? -1 : Integer.parseInt(text);
    } catch (NumberFormatException e) {
      // below
    }
    if (port < 0 || port > 65535) {
      usage();
    }
    return port;
  }

  /** The registry {@code uri} names: {@code etcd://HOST:PORT[,HOST:PORT]} or {@code zookeeper://HOST:PORT}. */
  public static Registry openRegistry(String uri) {
    if (uri.startsWith("etcd://")) {
      return EtcdRegistry.fromUri(uri);
    }
    if (uri.startsWith("zookeeper://")) {
      return ZooKeeperRegistry.fromUri(uri);
    }
    throw new IllegalArgumentException("unknown registry " + uri + ": expected etcd://HOST:PORT or"
        + " zookeeper://HOST:PORT");
  }

  /** Starts the inventory server on 127.0.0.1:{@code port} (0 = any free port). */
  public static BoltServer startServer(int port, ExecutorService reservationWork) {
    return startServer(port, reservationWork, null);
  }

  /** Starts the inventory server on 127.0.0.1:{@code port}, registered in {@code registry} unless null. */
  public static BoltServer startServer(int port, ExecutorService reservationWork, Registry registry) {
    InventoryService inventory = new InventoryService(reservationWork, 1_500);
    BoltServer.Builder builder = BoltServer.builder()
        .bind("127.0.0.1", port)
        .service(InventoryBolt.bind(inventory));
    if (registry != null) {
      builder.registry(registry);
    }
    return builder.build().start();
  }

  /** A client that also serves {@link StockAlerts}, so the server can call it back. */
  public static BoltClient newClient(RecordingStockAlerts alerts) {
    return BoltClient.builder().service(StockAlertsBolt.bind(alerts)).build();
  }

  static boolean demo(PrintStream out) throws InterruptedException {
    ExecutorService work = Executors.newFixedThreadPool(2);
    try (BoltServer server = startServer(0, work)) {
      out.println("inventory server listening on " + server.localAddress());
      return call(server.port(), out);
    } finally {
      work.shutdownNow();
    }
  }

  static boolean call(int port, PrintStream out) throws InterruptedException {
    RecordingStockAlerts alerts = new RecordingStockAlerts("demo-client");
    try (BoltClient client = newClient(alerts)) {
      Inventory inventory = InventoryBolt.newClient(client.channel("127.0.0.1:" + port));
      out.println("client calling 127.0.0.1:" + port);
      return new DemoClient(inventory, alerts, out).run();
    }
  }

  /** The demo client against every server registered in {@code registryUri}, balancing between them. */
  static boolean callCluster(String registryUri, PrintStream out) throws InterruptedException {
    RecordingStockAlerts alerts = new RecordingStockAlerts("demo-client");
    try (Registry registry = openRegistry(registryUri);
        BoltClient client = BoltClient.builder().service(StockAlertsBolt.bind(alerts)).nameResolver(registry)
            .build()) {
      String target = registry.scheme() + ":///demo.Inventory:1.0";
      Inventory inventory = InventoryBolt.newClient(client.channel(target));
      out.println("client calling " + target);
      return new DemoClient(inventory, alerts, out).run();
    }
  }

  private static void serve(int port, String registryUri, PrintStream out) throws InterruptedException {
    ExecutorService work = Executors.newFixedThreadPool(2);
    Registry registry = registryUri == null ? null : openRegistry(registryUri);
    BoltServer server = startServer(port, work, registry);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      work.shutdownNow();
      if (registry != null) {
        registry.close();
      }
      stopped.countDown();
    }, "example-shutdown"));
    out.println("READY " + server.port());
    out.flush();
    stopped.await();
  }
}
