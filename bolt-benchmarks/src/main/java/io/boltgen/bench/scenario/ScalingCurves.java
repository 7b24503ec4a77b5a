package io.boltgen.bench.scenario;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.system.EchoSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The scaling curves: per curve, every system gets a fresh server JVM and client JVM, warmed up once and kept for
 * the whole curve; at point k the systems are measured one after another, starting with system k mod n.
 *
 * @param inflights the in-flight counts of {@link Sweep#INFLIGHT} (one connection, 100 B)
 * @param payloads the payload sizes of {@link Sweep#PAYLOAD} (one connection, {@code payloadInflight} in flight)
 * @param connections the connection counts of {@link Sweep#CONNECTIONS} (100 B, {@code perConnection} in flight on each)
 * @param jvmWarmup the warm-up of each JVM pair before its first point
 */
public record ScalingCurves(List<EchoSystem> systems, List<Sweep> sweeps, List<Integer> inflights, List<Integer> payloads,
    List<Integer> connections, int payloadInflight, int perConnection, Duration jvmWarmup, Setup setup)
    implements Scenario.OfPairs {

  public static final String DEFAULT_SYSTEMS = "boltgen,sofabolt-io,netty";
  public static final List<Integer> DEFAULT_INFLIGHTS = List.of(1, 4, 16, 64, 256, 1024, 4096);
  public static final List<Integer> DEFAULT_PAYLOADS = List.of(100, 1024, 16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024);
  public static final List<Integer> DEFAULT_CONNECTIONS = List.of(1, 4, 16, 64, 256, 1024);
  public static final int DEFAULT_PAYLOAD_INFLIGHT = 16;
  public static final int DEFAULT_PER_CONNECTION = 4;
  /** The JVM warm-up load: async, 100 B, this many calls in flight on the client's first connection. */
  public static final int WARMUP_INFLIGHT = 16;

  /** The points of {@code sweep}, in order. */
  public List<Point> points(Sweep sweep) {
    List<Point> out = new ArrayList<>();
    switch (sweep) {
      case INFLIGHT -> inflights.forEach(n -> out.add(new Point("inflight-" + n, false, 1, n, 100, "")));
      case PAYLOAD -> payloads.forEach(b -> out.add(new Point("payload-" + Point.bytes(b), false, 1, payloadInflight, b, "")));
      case CONNECTIONS -> connections.forEach(c -> out.add(new Point("connections-" + c, false, c, perConnection, 100, "")));
    }
    return out;
  }

  /** The value of {@code point} on the x axis of {@code sweep}. */
  public static int x(Sweep sweep, Point point) {
    return switch (sweep) {
      case INFLIGHT -> point.perConnection();
      case PAYLOAD -> point.payloadBytes();
      case CONNECTIONS -> point.connections();
    };
  }

  @Override
  public List<Stage<Pair>> stages() {
    List<Stage<Pair>> stages = new ArrayList<>();
    Point warm = new Point("warm-up", false, 1, WARMUP_INFLIGHT, 100, "");
    for (Sweep sweep : sweeps) {
      List<Pair> pairs = new ArrayList<>();
      for (EchoSystem s : systems) {
        List<String> client = new ArrayList<>(List.of("client", "--system", s.id()));
        client.addAll(Scenario.warmUp(List.of(warm), jvmWarmup));
        if (sweep == Sweep.CONNECTIONS) {
          client.add("--close-first"); // every point opens its own connections, so the server has exactly those
        }
        pairs.add(new Pair(s.id(), "scaling-" + sweep.id() + "-" + s.id(), s.description(),
            List.of("server", "--system", s.id()), client, jvmWarmup, List.of(), List.of(), s.java()));
      }
      List<Slot> slots = new ArrayList<>();
      List<Point> points = points(sweep);
      for (int k = 0; k < points.size(); k++) {
        for (EchoSystem s : Scenario.rotation(systems, k + 1)) {
          slots.add(new Slot(s.id(), points.get(k), 1, false));
        }
      }
      stages.add(new Stage<>(sweep.id() + " curve", 1, pairs, slots));
    }
    return stages;
  }

  @Override
  public String header() {
    return String.format(Locale.ROOT, "scaling: %d system(s) × %d point(s) in %d curve(s); per curve fresh JVM pairs"
            + " warmed up for %ss, then per point %ss warm-up + %ss measured; about %s. Child logs: %s", systems.size(),
        windows() / Math.max(1, systems.size()), sweeps.size(), Fmt.seconds(jvmWarmup), Fmt.seconds(setup.warmup()),
        Fmt.seconds(setup.measure()), Fmt.duration(estimate()), setup.logDir());
  }

  @Override
  public Duration estimate() {
    long connectionSetups = sweeps.contains(Sweep.CONNECTIONS) ? connections.stream().mapToLong(c -> c).sum() : 0;
    return setup.warmup().plus(setup.measure()).plusMillis(500).multipliedBy(windows())
        .plus(jvmWarmup.plusSeconds(3).multipliedBy((long) sweeps.size() * systems.size()))
        .plusMillis(2 * connectionSetups * systems.size()); // about a millisecond to open each, as much to close it
  }
}
