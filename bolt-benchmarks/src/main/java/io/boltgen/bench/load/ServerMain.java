package io.boltgen.bench.load;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child JVM serving one system's echo: starts the server and its {@link StatsPort}, reports
 * {@code READY port=… pid=… stats=…}, and runs
 * until its standard input says {@code stop} or ends (so it never outlives the orchestrator), then closes
 * the server and exits. Also usable by hand to profile a server: {@code java -jar bolt-benchmarks.jar server
 * --system boltgen --port 12200}.
 */
public final class ServerMain {

  private static final Logger log = LoggerFactory.getLogger(ServerMain.class);

  private ServerMain() {}

  /** Runs the server until stopped; returns the process exit code. */
  public static int run(String systemId, String host, int port) throws Exception {
    Protocol.claimStdout();
    EchoSystem system = Systems.byId(systemId);
    EchoSystem.EchoServer server = system.startServer(host, port);
    StatsPort stats = StatsPort.start(host);
    long pid = ProcessHandle.current().pid();
    log.info("{} echo server on {}:{} (pid {}): type 'stop' or close standard input to stop it", system.id(), host,
        server.port(), pid);
    Protocol.send(Protocol.READY, "port=" + server.port() + " pid=" + pid + " stats=" + stats.port());
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.trim().equals("stop")) {
        break;
      }
    }
    log.info("stopping the {} echo server", system.id());
    stats.close();
    try {
      server.close();
    } catch (Exception e) {
      log.warn("closing the {} server failed", system.id(), e);
    }
    return 0;
  }
}
