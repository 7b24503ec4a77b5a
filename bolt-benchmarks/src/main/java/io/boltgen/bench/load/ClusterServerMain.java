package io.boltgen.bench.load;

import io.boltgen.bench.service.ClusterEchoServiceBolt;
import io.boltgen.bench.service.ClusterEchoServiceImpl;
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
 * The server JVM of the {@code cluster} case: {@code instances} boltgen servers of {@link
 * io.boltgen.bench.service.ClusterEchoService}, every setting at its default, each on a port of its own;
 * the one at {@code slowIndex} answers {@code slowMillis} late (the answer is scheduled on a timer thread, so
 * no handler thread waits). Reports {@code READY ports=p0,p1,… pid=…} and runs until its standard input says
 * {@code stop} or ends, like {@link ServerMain}.
 */
public final class ClusterServerMain {

  private static final Logger log = LoggerFactory.getLogger(ClusterServerMain.class);

  private ClusterServerMain() {}

  /** Runs the servers until stopped; returns the process exit code. */
  public static int run(String host, int instances, int slowIndex, long slowMillis) throws Exception {
    Protocol.claimStdout();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "slow-instance-answers");
      t.setDaemon(true);
      return t;
    });
    List<BoltServer> servers = new ArrayList<>();
    StringBuilder ports = new StringBuilder();
    try {
      for (int i = 0; i < instances; i++) {
        long delay = i == slowIndex ? slowMillis : 0;
        BoltServer server = BoltServer.builder().bind(host, 0)
            .service(ClusterEchoServiceBolt.bind(new ClusterEchoServiceImpl(i, delay, timer)))
            .build().start();
        servers.add(server);
        ports.append(i == 0 ? "" : ",").append(server.port());
        log.info("instance {} on {}:{}{}", i, host, server.port(), delay > 0 ? ", answering " + delay + " ms late" : "");
      }
      long pid = ProcessHandle.current().pid();
      Protocol.send(Protocol.READY, "ports=" + ports + " pid=" + pid);
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null) {
        if (line.trim().equals("stop")) {
          break;
        }
      }
      log.info("stopping the cluster's servers");
    } finally {
      for (BoltServer server : servers) {
        try {
          server.close();
        } catch (Exception e) {
          log.warn("closing the server on port {} failed", server.port(), e);
        }
      }
      timer.shutdownNow();
    }
    return 0;
  }
}
