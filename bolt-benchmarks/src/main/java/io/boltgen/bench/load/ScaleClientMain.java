package io.boltgen.bench.load;

import io.boltgen.bench.load.EchoSystem.ClientGroup;
import io.boltgen.bench.load.EchoSystem.EchoClient;
import io.boltgen.bench.load.Loads.Load;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child JVM measuring one system at the points of a scaling curve the orchestrator sends it, one
 * {@code POINT <token>} line at a time on standard input, each answered by a {@code RESULT} line ({@link
 * PointResult}); {@code stop} or the end of input ends it. It connects once and warms the JVM pair up (async,
 * 16 calls of 100 B in flight on that connection) before saying {@code READY}. A point on one connection uses
 * that connection; a point on several opens that many clients ({@link EchoSystem#connectMany}) for the point and
 * closes them after it. A client of the connections curve closes its first connection after the warm-up and opens
 * every point's connections afresh (one included), so that the server's connections are exactly the point's.
 * Every point has its own warm-up before its window.
 */
public final class ScaleClientMain {

  private static final Logger log = LoggerFactory.getLogger(ScaleClientMain.class);

  /** The JVM warm-up load: async, 100 B, this many calls in flight on the first connection. */
  public static final int WARMUP_INFLIGHT = 16;

  private ScaleClientMain() {}

  /**
   * Serves points until told to stop; returns the process exit code.
   *
   * @param serverStatsPort the server's {@link StatsPort}, or 0 for none
   * @param sweep the curve whose points this client will be asked for
   * @param jvmWarmup the warm-up of the JVM pair before the first point
   * @param warmup the warm-up of each point
   * @param measure the measured window of each point
   */
  public static int run(String systemId, String host, int port, long serverPid, int serverStatsPort, Sweep sweep,
      Duration jvmWarmup, Duration warmup, Duration measure, QuietPolicy quiet) {
    Protocol.claimStdout();
    EchoSystem system = Systems.byId(systemId);
    EchoClient first = null;
    try (StatsPort.Client stats = serverStatsPort > 0 ? new StatsPort.Client(host, serverStatsPort) : null) {
      first = system.connect(host, port);
      WindowMeter meter = new WindowMeter(system.id(), serverPid, port, stats, measure, quiet);
      LoadRunner.prime(List.of(first), system.id());
      Load load = new Loads.Async(List.of(first), WARMUP_INFLIGHT, Loads.payload(100, 7));
      load.start();
      try {
        TimeUnit.NANOSECONDS.sleep(jvmWarmup.toNanos());
      } finally {
        load.stop();
      }
      log.info("{}: JVM warm-up of {} ms done ({} calls failed)", system.id(), jvmWarmup.toMillis(), load.errors.sum());
      if (sweep == Sweep.CONNECTIONS) {
        first.close();
        first = null;
      }
      Protocol.send(Protocol.READY, "system=" + system.id());
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null) {
        line = line.trim();
        if (line.equals("stop")) {
          break;
        }
        if (!line.startsWith(Protocol.POINT)) {
          continue;
        }
        ScalePoint point = ScalePoint.parse(line.substring(Protocol.POINT.length()).trim());
        PointResult result = point.connections() == 1 && first != null
            ? measure(system, List.of(first), point, warmup, meter)
            : measureOnNewConnections(system, host, port, point, warmup, meter);
        log.info("{} {}: {}", system.id(), point.label(), result.toLine());
        Protocol.send(Protocol.RESULT, result.toLine());
      }
    } catch (Throwable e) {
      log.error("{} scaling client failed", system.id(), e);
      Protocol.send(Protocol.FAILED, String.valueOf(e).replace('\n', ' '));
      return 1;
    } finally {
      if (first != null) {
        first.close();
      }
    }
    Protocol.send(Protocol.DONE, "");
    return 0;
  }

  private static PointResult measureOnNewConnections(EchoSystem system, String host, int port, ScalePoint point,
      Duration warmup, WindowMeter meter) throws Exception {
    long t0 = System.nanoTime();
    try (ClientGroup group = system.connectMany(host, port, point.connections())) {
      log.info("{}: {} connections up in {} ms", system.id(), point.connections(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      LoadRunner.prime(group.clients(), system.id());
      return measure(system, group.clients(), point, warmup, meter);
    }
  }

  private static PointResult measure(EchoSystem system, List<EchoClient> clients, ScalePoint point, Duration warmup,
      WindowMeter meter) throws InterruptedException {
    Load load = new Loads.Async(clients, point.inflight(), Loads.payload(point.payloadBytes(), 42));
    load.start();
    try {
      TimeUnit.NANOSECONDS.sleep(warmup.toNanos());
      return new PointResult(system.id(), point, meter.measure(load, point.label()));
    } finally {
      load.stop();
    }
  }
}
