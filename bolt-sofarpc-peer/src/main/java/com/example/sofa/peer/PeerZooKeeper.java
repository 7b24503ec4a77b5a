package com.example.sofa.peer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;

/**
 * A standalone ZooKeeper server of the version SOFARPC 5.13.2 ships (its bom's 3.5.7, on this peer's class
 * path): what many SOFARPC installations run, for registry tests that must work there too. Serves
 * {@code --port} with its data in {@code --data}; prints "READY N" once a client's session is served; stops at
 * the end of standard input or on SIGTERM.
 */
final class PeerZooKeeper {

  private PeerZooKeeper() {}

  /** Serves {@code port} with its data in {@code data} until the end of standard input or SIGTERM. */
  static void run(int port, String data) throws Exception {
    // no log4j MBeans (log4j is not on the class path) and no admin server (it would take port 8080)
    System.setProperty("zookeeper.jmx.log4j.disable", "true");
    System.setProperty("zookeeper.admin.enableServer", "false");
    ServerConfig config = new ServerConfig();
    config.parse(new String[] {Integer.toString(port), data});
    Server server = new Server();
    Thread serving = new Thread(() -> {
      try {
        server.runFromConfig(config);
      } catch (Exception e) {
        System.err.println("sofa-peer: ZooKeeper stopped: " + e);
      }
    }, "sofa-peer-zookeeper");
    serving.start();
    awaitListening(port, serving);
    awaitServing(port);

    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "sofa-peer-zookeeper-stop"));
    Thread stdin = new Thread(() -> {
      PeerProvider.drain(System.in);
      stop.countDown();
    }, "sofa-peer-stdin");
    stdin.setDaemon(true);
    PeerMain.OUT.println("READY " + port);
    PeerMain.OUT.flush();
    stdin.start();
    stop.await();
    server.stop();
    serving.join(TimeUnit.SECONDS.toMillis(20));
  }

  /** Waits (at most 60 s) until {@code port} accepts a connection, or the server thread ended. */
  private static void awaitListening(int port, Thread serving) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline && serving.isAlive()) {
      try (Socket probe = new Socket()) {
        probe.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return;
      } catch (IOException notYet) {
        serving.join(50); // bounded: the server thread ending also wakes this up
      }
    }
    throw new IllegalStateException("ZooKeeper did not listen on " + port + " within 60 s");
  }

  /**
   * Waits (at most 60 s) until a client's session is served: the port listens before the server runs, and a
   * client that connects in between is turned away ("ZooKeeperServer not running").
   */
  private static void awaitServing(int port) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper probe = new ZooKeeper("127.0.0.1:" + port, 10_000, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    });
    try {
      if (!connected.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("ZooKeeper on " + port + " served no session within 60 s");
      }
      probe.exists("/", false);
    } finally {
      probe.close();
    }
  }

  /** {@link ZooKeeperServerMain} whose shutdown this peer may call. */
  private static final class Server extends ZooKeeperServerMain {
    void stop() {
      shutdown();
    }
  }
}
