package io.boltgen.example;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import java.io.PrintStream;
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
 */
public final class ExampleMain {

  private ExampleMain() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    String command = args.length == 0 ? "demo" : args[0];
    int port = args.length >= 3 && args[1].equals("--port") ? Integer.parseInt(args[2]) : -1;
    switch (command) {
      case "demo" -> System.exit(demo(out) ? 0 : 1);
      case "serve" -> serve(requirePort(port), out);
      case "call" -> System.exit(call(requirePort(port), out) ? 0 : 1);
      default -> {
        System.err.println("usage: example-service.jar [serve --port N | call --port N]");
        System.exit(2);
      }
    }
  }

  private static int requirePort(int port) {
    if (port < 0 || port > 65535) {
      System.err.println("usage: example-service.jar [serve --port N | call --port N]");
      System.exit(2);
    }
    return port;
  }

  /** Starts the inventory server on 127.0.0.1:{@code port} (0 = any free port). */
  public static BoltServer startServer(int port, ExecutorService reservationWork) {
    InventoryService inventory = new InventoryService(reservationWork, 1_500);
    return BoltServer.builder()
        .bind("127.0.0.1", port)
        .service(InventoryBolt.bind(inventory))
        .build()
        .start();
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

  private static void serve(int port, PrintStream out) throws InterruptedException {
    ExecutorService work = Executors.newFixedThreadPool(2);
    BoltServer server = startServer(port, work);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      work.shutdownNow();
      stopped.countDown();
    }, "example-shutdown"));
    out.println("READY " + server.port());
    out.flush();
    stopped.await();
  }
}
