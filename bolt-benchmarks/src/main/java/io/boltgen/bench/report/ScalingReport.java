package io.boltgen.bench.report;

import io.boltgen.bench.load.EchoSystem;
import io.boltgen.bench.load.LoadCase;
import io.boltgen.bench.load.Measured;
import io.boltgen.bench.load.PointResult;
import io.boltgen.bench.load.ScalePoint;
import io.boltgen.bench.load.ScalingSettings;
import io.boltgen.bench.load.Sweep;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The scaling curves as tables (console and Markdown, docs/scaling.md) and PNG charts (docs/img/scaling-*.png):
 * per curve, each system's throughput (MB/s each way for the payload curve), p50 and p99, CPU and heap
 * allocation per call in the client and server JVMs, and the server's established connections.
 */
public final class ScalingReport {

  private final ScalingSettings settings;
  private final List<PointResult> results;

  public ScalingReport(ScalingSettings settings, List<PointResult> results) {
    this.settings = settings;
    this.results = List.copyOf(results);
  }

  /** The result of {@code system} at {@code point}, or null. */
  PointResult at(String system, ScalePoint point) {
    for (PointResult r : results) {
      if (r.system().equals(system) && r.point().equals(point)) {
        return r;
      }
    }
    return null;
  }

  /** What a curve holds fixed and varies, in words. */
  public String describe(Sweep sweep) {
    return switch (sweep) {
      case INFLIGHT -> "calls in flight on one connection (async, 100 B)";
      case PAYLOAD -> "payload size (async, " + settings.payloadInflight() + " calls in flight on one connection)";
      case CONNECTIONS -> "client connections to one server (async, 100 B, " + settings.perConnection()
          + " calls in flight on each)";
    };
  }

  /** The chart file of {@code sweep} under {@code imageDir}. */
  public static Path chartFile(Path imageDir, Sweep sweep) {
    return imageDir.resolve("scaling-" + sweep.id() + ".png");
  }

  /**
   * Draws one chart per curve into {@code imageDir}: throughput (MB/s each way for the payload curve) and p99
   * against the curve's variable, one line per system; {@code caption} lines (machine, date, command) under the
   * title. Returns the files written.
   */
  public List<Path> writeCharts(Path imageDir, List<String> caption) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Sweep sweep : settings.sweeps()) {
      boolean payload = sweep == Sweep.PAYLOAD;
      Charts.Panel rate = new Charts.Panel(payload ? "MB/s each way" : "calls/s", false,
          lines(sweep, payload ? PointResult::megabytesPerSecondEachWay : PointResult::throughput));
      Charts.Panel p99 = new Charts.Panel("p99 latency (µs, log)", true, lines(sweep, r -> r.m().p99Us()));
      Path file = chartFile(imageDir, sweep);
      Charts.write(file, "Scaling: " + describe(sweep), caption,
          payload ? "payload bytes (log)" : sweep.axis() + " (log)", List.of(rate, p99));
      files.add(file);
    }
    return files;
  }

  private Map<String, List<double[]>> lines(Sweep sweep, ToDoubleFunction<PointResult> metric) {
    Map<String, List<double[]>> lines = new LinkedHashMap<>();
    for (EchoSystem s : settings.systems()) {
      List<double[]> points = new ArrayList<>();
      for (ScalePoint p : settings.points(sweep)) {
        PointResult r = at(s.id(), p);
        if (r != null && r.m().calls() > 0) {
          points.add(new double[] {p.x(), metric.applyAsDouble(r)});
        }
      }
      lines.put(s.id(), points);
    }
    return lines;
  }

  /** The tables as console text. */
  public String console() {
    StringBuilder sb = new StringBuilder();
    for (Sweep sweep : settings.sweeps()) {
      sb.append(String.format(Locale.ROOT, "%nScaling: %s%n", describe(sweep)));
      sb.append(String.format(Locale.ROOT, "  %-10s %-14s %10s %10s %10s %10s %14s %22s %6s %8s %7s%n", sweep.id(),
          "system", "calls/s", "MB/s/way", "p50", "p99", "CPU µs/call", "alloc B/call cli+srv", "conns", "others",
          "errors"));
      for (ScalePoint p : settings.points(sweep)) {
        for (EchoSystem s : settings.systems()) {
          PointResult r = at(s.id(), p);
          if (r == null) {
            continue;
          }
          Measured m = r.m();
          sb.append(String.format(Locale.ROOT, "  %-10s %-14s %10s %10s %10s %10s %14s %22s %6d %8s %7d%s%n", x(p),
              s.id(), Fmt.rate(r.throughput()), Fmt.num(r.megabytesPerSecondEachWay(), 1), Fmt.micros(m.p50Us()),
              Fmt.micros(m.p99Us()), Fmt.num(r.cpuUs(), 1), Fmt.bytes(m.clientAllocBytes()) + " + "
                  + Fmt.bytes(m.serverAllocBytes()), m.serverConnections(), Fmt.percent(m.otherCpuPercent()),
              m.errors(), m.noisy() ? "  NOISY" : ""));
        }
      }
    }
    return sb.toString();
  }

  private static String x(ScalePoint p) {
    return p.sweep() == Sweep.PAYLOAD ? LoadCase.payloadLabel(p.payloadBytes()) : Integer.toString(p.x());
  }

  /**
   * The Markdown of docs/scaling.md: how the curves were measured, then per curve its chart ({@code imageLinks},
   * relative to the document) and its table, each captioned with {@code caption} (machine, date, command).
   */
  public String markdown(String heading, List<String> caption, Map<Sweep, String> imageLinks, List<String> caveats,
      List<String> failures) {
    StringBuilder md = new StringBuilder();
    md.append("# ").append(heading).append("\n\n");
    md.append("<!-- Written by bolt-benchmarks (io.boltgen.bench.report.ScalingReport). Do not edit the numbers by"
        + " hand: rerun the command below. -->\n\n");
    if (!caveats.isEmpty()) {
      md.append("> **Not a full measurement — do not quote these numbers.** ").append(String.join("; ", caveats))
          .append(".\n\n");
    }
    if (!failures.isEmpty()) {
      md.append("> **Some parts failed:**\n");
      failures.forEach(f -> md.append("> - ").append(f).append('\n'));
      md.append('\n');
    }
    caption.forEach(c -> md.append(c).append("  \n"));
    md.append('\n');
    md.append(method());
    for (Sweep sweep : settings.sweeps()) {
      md.append("## ").append(Character.toUpperCase(describe(sweep).charAt(0))).append(describe(sweep).substring(1))
          .append("\n\n");
      String link = imageLinks.get(sweep);
      if (link != null) {
        md.append("![").append(sweep.id()).append(" curve](").append(link).append(")\n\n");
      }
      md.append("_").append(String.join("; ", caption)).append("_\n\n");
      md.append(table(sweep)).append('\n');
    }
    return md.toString();
  }

  private String table(Sweep sweep) {
    StringBuilder sb = new StringBuilder();
    boolean payload = sweep == Sweep.PAYLOAD;
    sb.append("| ").append(sweep.axis()).append(" | system | calls/s |").append(payload ? " MB/s each way |" : "")
        .append(" p50 | p99 | CPU µs/call (client + server) | heap B/call client | heap B/call server |"
            + " server connections | other CPU | errors |\n");
    sb.append("|--:|---|--:|").append(payload ? "--:|" : "").append("--:|--:|--:|--:|--:|--:|--:|--:|\n");
    List<String> notes = new ArrayList<>();
    for (ScalePoint p : settings.points(sweep)) {
      for (EchoSystem s : settings.systems()) {
        PointResult r = at(s.id(), p);
        if (r == null) {
          continue;
        }
        Measured m = r.m();
        sb.append("| ").append(x(p)).append(" | ").append(s.id()).append(" | ").append(Fmt.rate(r.throughput()))
            .append(" |");
        if (payload) {
          sb.append(' ').append(Fmt.num(r.megabytesPerSecondEachWay(), 1)).append(" |");
        }
        sb.append(' ').append(Fmt.micros(m.p50Us())).append(" | ").append(Fmt.micros(m.p99Us())).append(" | ")
            .append(Fmt.num(r.cpuUs(), 1)).append(" (").append(Fmt.num(m.clientCpuUs(), 1)).append(" + ")
            .append(Fmt.num(m.serverCpuUs(), 1)).append(") | ").append(Fmt.bytes(m.clientAllocBytes())).append(" | ")
            .append(Fmt.bytes(m.serverAllocBytes())).append(" | ")
            .append(m.serverConnections() < 0 ? "n/a" : Integer.toString(m.serverConnections())).append(" | ")
            .append(Fmt.percent(m.otherCpuPercent())).append(m.noisy() ? " NOISY" : "").append(" | ")
            .append(m.errors()).append(" |\n");
        if (m.errors() > 0) {
          notes.add(s.id() + " at " + p.label() + ": " + m.errors() + " failed calls, e.g. `"
              + m.firstError().replace("`", "'") + "`");
        }
        if (m.serverConnections() >= 0 && m.serverConnections() != p.connections()) {
          notes.add(s.id() + " at " + p.label() + ": the server had " + m.serverConnections()
              + " established connections on its port, not " + p.connections());
        }
      }
    }
    if (!notes.isEmpty()) {
      sb.append('\n');
      notes.forEach(n -> sb.append("- ").append(n).append('\n'));
    }
    return sb.toString();
  }

  private String method() {
    return String.format(Locale.ROOT, """
        ## How the curves are measured

        Per curve, every system (%s) gets a fresh server JVM and a fresh client JVM over %s; the client connects
        once and warms the pair up for %s s (async, %d calls of 100 B in flight). The pairs stay up for the whole
        curve, and at each point the systems are measured one after another, point k starting with system
        k mod n, so that slow drift of the machine spreads over all of them; fresh JVMs per point would each need
        the load matrix's ~40 s warm-up. Each point: the load runs %s s unmeasured, then a %s s window is measured
        (a window in which other processes took more than %s of one core is measured again, up to %d more
        times, and marked NOISY if it stays above). One run: these are curves, not the Targets' medians.

        - **Load**: closed-loop async calls of random bytes, each completion issuing the next call on the same
          connection. The in-flight and payload curves use the client's one connection throughout; the
          connections curve closes it after the warm-up and opens N clients for each point (boltgen: N `BoltClient`s with one connection each, sharing one callback executor
          made as each would make its own, and the runtime's process-wide IO threads; sofabolt*: N `RpcClient`s,
          which share SOFABolt's static Netty worker group, each with its own scanner threads; netty: N channels
          on one client event-loop group of as many threads as cores; grpc*: N `ManagedChannel`s on gRPC's shared
          event loops), primes them and closes them after it.
        - **calls/s**: calls completed in the window over its length. **MB/s each way** (payload curve):
          payload bytes × calls/s, in 10⁶ B/s; requests carry that much out and echoes as much back, so the
          loopback moves twice that, headers not counted.
        - **p50, p99**: latency from issue to outcome, in the client (HdrHistogram, 3 digits).
        - **CPU µs/call**: client and server JVMs' CPU time in the window (`/proc/<pid>/stat`) over the calls.
        - **heap B/call**: bytes allocated per call in each JVM, `ThreadMXBean.getThreadAllocatedBytes` summed
          over its live threads at the window's start and end (the server answers on a side port of its own);
          the client's includes the load generator's own allocation (a lambda and a histogram record per call),
          the same for every system. A thread that ends inside the window takes its bytes with it.
        - **server connections**: established TCP connections on the server's port at the window's start,
          counted from `/proc/net/tcp`: the connections the point really used.
        - **other CPU**: the machine's busy CPU (`/proc/stat`) minus the two JVMs', in %% of one core.

        """, systemIds(), settings.host(), Fmt.seconds(settings.jvmWarmup()), io.boltgen.bench.load.ScaleClientMain.WARMUP_INFLIGHT, Fmt.seconds(settings.warmup()),
        Fmt.seconds(settings.measure()), Fmt.percent(settings.quiet().thresholdPercent()), settings.quiet().maxRepeats());
  }

  private String systemIds() {
    List<String> ids = new ArrayList<>();
    settings.systems().forEach(s -> ids.add(s.id()));
    return String.join(", ", ids);
  }
}
