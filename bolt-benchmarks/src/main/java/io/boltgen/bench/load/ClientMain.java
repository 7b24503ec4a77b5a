package io.boltgen.bench.load;

import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child JVM driving one system's echo server through a list of cases, one after another over one
 * connection, reporting {@code CASE} when each starts and {@code RESULT} when it is measured.
 */
public final class ClientMain {

  private static final Logger log = LoggerFactory.getLogger(ClientMain.class);

  private ClientMain() {}

  /** Runs the cases; returns the process exit code. */
  public static int run(String systemId, String host, int port, long serverPid, List<LoadCase> cases, int run,
      Duration warmup, Duration measure) {
    Protocol.claimStdout();
    EchoSystem system = Systems.byId(systemId);
    try (EchoSystem.EchoClient client = system.connect(host, port)) {
      LoadRunner runner = new LoadRunner(client, system.id(), serverPid, warmup, measure);
      runner.prime();
      runner.warmUpPass(cases);
      for (LoadCase c : cases) {
        Protocol.send(Protocol.CASE, c.token());
        log.info("{} {}: warm-up {} ms, measuring {} ms", system.id(), c.label(), warmup.toMillis(), measure.toMillis());
        CaseResult result = runner.run(c, run);
        log.info("{} {}: {}", system.id(), c.label(), result);
        Protocol.send(Protocol.RESULT, result.toLine());
      }
    } catch (Throwable e) {
      log.error("{} client failed", system.id(), e);
      Protocol.send(Protocol.FAILED, String.valueOf(e).replace('\n', ' '));
      return 1;
    }
    Protocol.send(Protocol.DONE, "");
    return 0;
  }
}
