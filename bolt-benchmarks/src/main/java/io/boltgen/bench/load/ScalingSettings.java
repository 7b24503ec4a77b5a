package io.boltgen.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the scaling sweep runs and how.
 *
 * @param systems the systems, each measured at every point (in an order rotating from point to point)
 * @param sweeps the curves, in order
 * @param inflights the in-flight counts of {@link Sweep#INFLIGHT} (one connection, 100 B)
 * @param payloads the payload sizes of {@link Sweep#PAYLOAD} (one connection, {@code payloadInflight} in flight)
 * @param connections the connection counts of {@link Sweep#CONNECTIONS} (100 B, {@code perConnection} in flight on each)
 * @param payloadInflight calls in flight in the payload sweep
 * @param perConnection calls in flight on each connection in the connections sweep
 * @param jvmWarmup the warm-up of each JVM pair before its first point
 * @param warmup the warm-up of each point
 * @param measure the measured window of each point
 * @param quiet when a noisy window is measured again
 * @param jvmFlags JVM flags of every child
 * @param logDir where each child's output goes
 * @param host the loopback address servers bind and clients call
 */
public record ScalingSettings(
    List<EchoSystem> systems,
    List<Sweep> sweeps,
    List<Integer> inflights,
    List<Integer> payloads,
    List<Integer> connections,
    int payloadInflight,
    int perConnection,
    Duration jvmWarmup,
    Duration warmup,
    Duration measure,
    QuietPolicy quiet,
    List<String> jvmFlags,
    Path logDir,
    String host) {

  /** The systems the scaling curves compare unless told otherwise. */
  public static final String DEFAULT_SYSTEMS = "boltgen,sofabolt-io,netty";
  public static final List<Integer> DEFAULT_INFLIGHTS = List.of(1, 4, 16, 64, 256, 1024, 4096);
  public static final List<Integer> DEFAULT_PAYLOADS = List.of(100, 1024, 16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024);
  public static final List<Integer> DEFAULT_CONNECTIONS = List.of(1, 4, 16, 64, 256, 1024);
  public static final int DEFAULT_PAYLOAD_INFLIGHT = 16;
  public static final int DEFAULT_PER_CONNECTION = 4;

  /** The points of {@code sweep}, in order. */
  public List<ScalePoint> points(Sweep sweep) {
    List<ScalePoint> out = new ArrayList<>();
    switch (sweep) {
      case INFLIGHT -> inflights.forEach(n -> out.add(new ScalePoint(sweep, 1, n, 100)));
      case PAYLOAD -> payloads.forEach(b -> out.add(new ScalePoint(sweep, 1, payloadInflight, b)));
      case CONNECTIONS -> connections.forEach(c -> out.add(new ScalePoint(sweep, c, perConnection, 100)));
    }
    return out;
  }

  /** Measured points in all (each system at each point). */
  public int windows() {
    int n = 0;
    for (Sweep s : sweeps) {
      n += points(s).size();
    }
    return n * systems.size();
  }

  /** A rough duration, JVM starts and connection set-ups included, no window measured again. */
  public Duration estimate() {
    Duration perPoint = warmup.plus(measure).plusMillis(500);
    Duration perSweepAndSystem = jvmWarmup.plusSeconds(3);
    long connectionSetups = 0;
    if (sweeps.contains(Sweep.CONNECTIONS)) {
      for (int c : connections) {
        connectionSetups += c; // about a millisecond each, and as much to close
      }
    }
    return perPoint.multipliedBy(windows()).plus(perSweepAndSystem.multipliedBy((long) sweeps.size() * systems.size()))
        .plusMillis(2 * connectionSetups * systems.size());
  }
}
