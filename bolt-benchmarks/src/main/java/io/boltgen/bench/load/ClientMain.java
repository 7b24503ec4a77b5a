package io.boltgen.bench.load;

import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child JVM driving one system's echo server through a list of cases, one after another over one
 * connection, reporting {@code CASE} when each starts and {@code RESULT} when it is measured; after the last,
 * it measures the first case again ({@code CASE <token> repeat}), the proof that the first was warm.
 */
public final class ClientMain {

  private static final Logger log = LoggerFactory.getLogger(ClientMain.class);

  /**
   * How the client measures.
   *
   * @param warmup the warm-up of each case
   * @param measure the measured window of each case
   * @param warmUpPass the pass over every case before the first is measured, all cases together
   * @param quiet when a window is measured again
   */
  public record Timing(Duration warmup, Duration measure, Duration warmUpPass, QuietPolicy quiet) {}

  private ClientMain() {}

  /**
   * Runs the cases; returns the process exit code.
   *
   * @param serverStatsPort the server's {@link StatsPort}, or 0 for none
   */
  public static int run(String systemId, String host, int port, long serverPid, int serverStatsPort,
      List<LoadCase> cases, int run, Timing timing) {
    Protocol.claimStdout();
    EchoSystem system = Systems.byId(systemId);
    StatsPort.Client stats = null;
    try (EchoSystem.EchoClient client = system.connect(host, port)) {
      stats = serverStatsPort > 0 ? new StatsPort.Client(host, serverStatsPort) : null;
      WindowMeter meter = new WindowMeter(system.id(), serverPid, port, stats, timing.measure(), timing.quiet());
      LoadRunner runner = new LoadRunner(client, system.id(), timing.warmup(), meter);
      runner.prime();
      runner.warmUpPass(cases, timing.warmUpPass());
      for (LoadCase c : cases) {
        measure(runner, system, c, run, false, timing);
      }
      if (!cases.isEmpty()) {
        measure(runner, system, cases.get(0), run, true, timing);
      }
    } catch (Throwable e) {
      log.error("{} client failed", system.id(), e);
      Protocol.send(Protocol.FAILED, String.valueOf(e).replace('\n', ' '));
      return 1;
    } finally {
      if (stats != null) {
        try {
          stats.close();
        } catch (Exception ignored) {
          // going away anyway
        }
      }
    }
    Protocol.send(Protocol.DONE, "");
    return 0;
  }

  private static void measure(LoadRunner runner, EchoSystem system, LoadCase c, int run, boolean repeat, Timing timing)
      throws InterruptedException {
    Protocol.send(Protocol.CASE, c.token() + (repeat ? " repeat" : ""));
    log.info("{} {}{}: warm-up {} ms, measuring {} ms", system.id(), c.label(), repeat ? " (repeat)" : "",
        timing.warmup().toMillis(), timing.measure().toMillis());
    CaseResult result = runner.run(c, run, repeat);
    log.info("{} {}: {}", system.id(), c.label(), result);
    Protocol.send(Protocol.RESULT, result.toLine());
  }
}
