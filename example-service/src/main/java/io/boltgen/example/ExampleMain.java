package io.boltgen.example;

import io.boltgen.gateway.BoltGateway;
import io.boltgen.gateway.GatewayMain;
import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.cluster.Registry;
import java.io.PrintStream;
import java.io.PrintWriter;
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
 *   <li>{@code call --port N}: runs only the demo client against a server already listening there, and exits
 *       0 when every call behaved as expected. It can be run against one server again and again, and from a
 *       few terminals at once: the reservation it makes is held only while it stays connected;</li>
 *   <li>{@code help} ({@code -h}, {@code --help}): prints the usage; {@code serve --help} and the like, a
 *       command's options.</li>
 * </ul>
 *
 * <p>With {@code --registry etcd://HOST:PORT} (or {@code zookeeper://HOST:PORT}), {@code serve} also registers
 * the server there (and on stop deregisters, keeps serving while clients move away, then drains), and
 * {@code call} finds the servers there instead of taking a port: {@code call --registry etcd://HOST:PORT}.
 * {@code gateway --port N --registry URI} runs the mesh agent: the inventory over HTTP (and its console) on
 * that port, every call forwarded to the servers registered there; it prints {@code READY <port>}.
 *
 * <p>A command line that cannot be run (a port that is not a number, an option without its value, an unknown
 * command or option, a URI that names no registry) is answered on standard error by a line {@code error: …}
 * naming the argument and what is wrong with it (then, for a parse error, the help to read), with exit status 2
 * ({@link Arguments}).
 */
public final class ExampleMain {

  private ExampleMain() {}

  /** See the class comment; {@code --help} lists the commands and their options. */
  public static void main(String[] args) {
    // the JVM ends here, with the command's status, whatever threads the demo or the client left behind
    System.exit(Arguments.commandLine().execute(args));
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

  /**
   * Starts the inventory server on 127.0.0.1:{@code port}, registered in {@code registry} unless null. It
   * also serves HTTP on that port: {@code curl} can call every method, and a browser opens the console at
   * {@code http://127.0.0.1:<port>/} (see docs/http.md).
   */
  public static BoltServer startServer(int port, ExecutorService reservationWork, Registry registry) {
    InventoryService inventory = new InventoryService(reservationWork, 1_500);
    BoltServer.Builder builder = BoltServer.builder()
        .bind("127.0.0.1", port)
        .service(InventoryBolt.bind(inventory))
        .http(true)
        .console(true);
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

  /** The demo client against every server registered in {@code registry} (which it closes), balancing between them. */
  static boolean callCluster(Registry registry, PrintStream out) throws InterruptedException {
    RecordingStockAlerts alerts = new RecordingStockAlerts("demo-client");
    try (registry;
        BoltClient client = BoltClient.builder().service(StockAlertsBolt.bind(alerts)).nameResolver(registry)
            .build()) {
      String target = registry.scheme() + ":///demo.Inventory:1.0";
      Inventory inventory = InventoryBolt.newClient(client.channel(target));
      out.println("client calling " + target);
      return new DemoClient(inventory, alerts, out).run();
    }
  }

  /**
   * Serves until the process is stopped; a server that cannot start is said in one line on {@code err}, exit
   * status 1.
   */
  static int serve(int port, Registry registry, PrintStream out, PrintWriter err) throws InterruptedException {
    ExecutorService work = Executors.newFixedThreadPool(2);
    BoltServer server;
    try {
      server = startServer(port, work, registry);
    } catch (RuntimeException e) {
      // its message names the address
      err.println("error: the server could not start: " + (e.getMessage() != null ? e.getMessage() : e));
      work.shutdownNow();
      if (registry != null) {
        registry.close();
      }
      return 1;
    }
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
    return 0;
  }

  /**
   * The mesh agent, started: serves the inventory over HTTP (and its console) on 127.0.0.1:{@code port} (0 = any
   * free port), forwarding every call through {@code client} to the instances registered in {@code registry}.
   */
  public static BoltGateway startGateway(int port, BoltClient client, Registry registry) {
    return BoltGateway.builder()
        .client(client)
        .service(Inventory.class, registry.scheme() + ":///" + InventoryBolt.SERVICE_NAME + ':' + InventoryBolt.SERVICE_VERSION)
        .bind("127.0.0.1", port)
        .console(true)
        .build()
        .start();
  }

  /** Runs the mesh agent until the process is stopped; one that cannot start is said on {@code err}, status 1. */
  static int gateway(int port, Registry registry, PrintStream out, PrintWriter err) throws InterruptedException {
    BoltClient client = BoltClient.builder().nameResolver(registry)
        .connectionsPerAddress(BoltClient.ioThreads()) // each IO thread forwards on its own connection
        .build();
    BoltGateway gateway;
    try {
      gateway = startGateway(port, client, registry);
    } catch (RuntimeException e) {
      err.println("error: the gateway could not start: " + (e.getMessage() != null ? e.getMessage() : e));
      client.close();
      registry.close();
      return 1;
    }
    GatewayMain.serveUntilStopped(gateway, out, client, registry);
    return 0;
  }
}
