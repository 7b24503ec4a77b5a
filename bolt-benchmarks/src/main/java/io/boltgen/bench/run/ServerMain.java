package io.boltgen.bench.run;

import io.boltgen.bench.service.ClusterEchoServiceBolt;
import io.boltgen.bench.service.ClusterEchoServiceImpl;
import io.boltgen.bench.system.ServedSystem;
import io.boltgen.bench.system.Systems;
import io.boltgen.runtime.BoltServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server JVM: one system's echo server, or ({@code cluster}) {@code instances} boltgen servers of
 * {@link io.boltgen.bench.service.ClusterEchoService}, each on a port of its own, every setting at its default, the
 * first answering {@code slowMillis} late (the answer scheduled on a timer thread, so that no handler thread waits).
 * Starts its {@link StatsPort}, says {@code READY port=… ports=… pid=… stats=…} and runs until its standard input
 * says {@code stop} or ends (so it never outlives the runner). Also usable by hand to profile a server:
 * {@code java -jar bolt-benchmarks.jar server --system boltgen --port 12200}.
 */
public final class ServerMain {

  private static final Logger log = LoggerFactory.getLogger(ServerMain.class);

  private ServerMain() {}

  /** Serves until stopped; returns the process exit code. */
  public static int run(String system, String host, int port, int instances, long slowMillis) throws Exception {
    Protocol.claimStdout();
    List<AutoCloseable> servers = new ArrayList<>();
    List<String> ports = new ArrayList<>();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "slow-instance-answers");
      t.setDaemon(true);
      return t;
    });
    try (StatsPort stats = StatsPort.start(host)) {
      if (system.equals("cluster")) {
        for (int i = 0; i < instances; i++) {
          long delay = i == 0 ? slowMillis : 0;
          BoltServer server = BoltServer.builder().bind(host, i == 0 ? port : 0)
              .service(ClusterEchoServiceBolt.bind(new ClusterEchoServiceImpl(i, delay, timer))).build().start();
          servers.add(server);
          ports.add(Integer.toString(server.port()));
          log.info("instance {} on {}:{}{}", i, host, server.port(), delay > 0 ? ", answering " + delay + " ms late" : "");
        }
      } else {
        ServedSystem.EchoServer server = Systems.byId(system).startServer(host, port);
        servers.add(server);
        ports.add(Integer.toString(server.port()));
      }
      long pid = ProcessHandle.current().pid();
      log.info("{} on {}:{} (pid {}, Java {}): type 'stop' or close standard input to stop it", system, host, ports,
          pid, Runtime.version());
      Protocol.send(Protocol.READY, "port=" + ports.get(0) + " ports=" + String.join(",", ports) + " pid=" + pid
          + " stats=" + stats.port());
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line; (line = in.readLine()) != null && !line.trim().equals(Protocol.STOP); ) {
        // waiting for 'stop'
      }
      log.info("stopping {}", system);
    } finally {
      for (AutoCloseable server : servers) {
        try {
          server.close();
        } catch (Exception e) {
          log.warn("closing a {} server failed", system, e);
        }
      }
      timer.shutdownNow();
    }
    return 0;
  }
}
