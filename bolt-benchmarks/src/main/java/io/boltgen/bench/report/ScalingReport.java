package io.boltgen.bench.report;

import io.boltgen.bench.run.Measured;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.ScalingCurves;
import io.boltgen.bench.scenario.Sweep;
import io.boltgen.bench.system.EchoSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;

/**
 * The scaling curves as tables (console and Markdown, docs/scaling.md) and PNG charts (docs/img/scaling-*.png): per
 * curve, each system's throughput (MB/s each way for the payload curve), p50 and p99, CPU and heap allocation per
 * call in the client and server JVMs, and the server's established connections.
 */
public final class ScalingReport {

  private final ScalingCurves curves;
  private final List<Window> windows;

  /** The report of the curves' {@code windows}, one per system and point. */
  public ScalingReport(ScalingCurves curves, List<Window> windows) {
    this.curves = curves;
    this.windows = List.copyOf(windows);
  }

  /** The window of {@code system} at {@code point}, or null. */
  Window at(String system, Point point) {
    return windows.stream().filter(w -> w.system().equals(system) && w.point().equals(point.id())).findFirst()
        .orElse(null);
  }

  /** Payload bytes per second in each direction (requests out, the same again in echoes), in MB (10⁶ B). */
  static double megabytesPerSecondEachWay(Window w, Point point) {
    return w.m().throughput() * point.payloadBytes() / 1e6;
  }

  /** What a curve holds fixed and varies, in words. */
  public String describe(Sweep sweep) {
    return switch (sweep) {
      case INFLIGHT -> "calls in flight on one connection (async, 100 B)";
      case PAYLOAD -> "payload size (async, " + curves.payloadInflight() + " calls in flight on one connection)";
      case CONNECTIONS -> "client connections to one server (async, 100 B, " + curves.perConnection()
          + " calls in flight on each)";
    };
  }

  /** One point's window, for a progress line. */
  public String progress(Window w) {
    Measured m = w.m();
    Point point = curves.sweeps().stream().flatMap(s -> curves.points(s).stream()).filter(p -> p.id().equals(w.point()))
        .findFirst().orElseThrow();
    return String.format(Locale.ROOT, "%9s/s %s p50 %8s  p99 %8s  cpu %6s µs/call  alloc %s + %s /call  conns %d"
            + "  others %s%s%s%s", Fmt.rate(m.throughput()), w.point().startsWith("payload-")
            ? String.format(Locale.ROOT, "%7.1f MB/s each way ", megabytesPerSecondEachWay(w, point)) : "",
        Fmt.micros(m.p50Us()), Fmt.micros(m.p99Us()), Fmt.num(m.cpuUs(), 1), Fmt.bytes(m.clientAllocBytes()),
        Fmt.bytes(m.serverAllocBytes()), m.serverConnections(), Fmt.percent(m.otherCpuPercent()),
        m.attempts() > 1 ? "  [" + m.attempts() + " attempts]" : "", m.noisy() ? "  [NOISY]" : "",
        m.errors() > 0 ? "  ERRORS " + m.errors() + " (" + m.firstError() + ")" : "");
  }

  /** The chart file of {@code sweep} under {@code imageDir}. */
  public static Path chartFile(Path imageDir, Sweep sweep) {
    return imageDir.resolve("scaling-" + sweep.id() + ".png");
  }

  /**
   * Draws one chart per curve into {@code imageDir}: throughput (MB/s each way for the payload curve) and p99 against
   * the curve's variable, one line per system; {@code caption} lines (machine, date, command) under the title.
   * Returns the files written.
   */
  public List<Path> writeCharts(Path imageDir, List<String> caption) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Sweep sweep : curves.sweeps()) {
      boolean payload = sweep == Sweep.PAYLOAD;
      Charts.Panel rate = new Charts.Panel(payload ? "MB/s each way" : "calls/s", false,
          lines(sweep, payload ? ScalingReport::megabytesPerSecondEachWay : (w, p) -> w.m().throughput()));
      Charts.Panel p99 = new Charts.Panel("p99 latency (µs, log)", true, lines(sweep, (w, p) -> w.m().p99Us()));
      Path file = chartFile(imageDir, sweep);
      Charts.write(file, "Scaling: " + describe(sweep), caption,
          payload ? "payload bytes (log)" : sweep.axis() + " (log)", List.of(rate, p99));
      files.add(file);
    }
    return files;
  }

  private Map<String, List<double[]>> lines(Sweep sweep, ToDoubleBiFunction<Window, Point> metric) {
    Map<String, List<double[]>> lines = new LinkedHashMap<>();
    for (EchoSystem s : curves.systems()) {
      List<double[]> points = new ArrayList<>();
      for (Point p : curves.points(sweep)) {
        Window w = at(s.id(), p);
        if (w != null && w.m().calls() > 0) {
          points.add(new double[] {ScalingCurves.x(sweep, p), metric.applyAsDouble(w, p)});
        }
      }
      lines.put(s.id(), points);
    }
    return lines;
  }

  /** The tables as console text. */
  public String console() {
    StringBuilder sb = new StringBuilder();
    for (Sweep sweep : curves.sweeps()) {
      Table t = new Table("llrrrrrrrrrl", sweep.id(), "system", "calls/s", "MB/s/way", "p50", "p99", "CPU µs/call",
          "alloc B/call cli+srv", "conns", "others", "errors", "");
      forEach(sweep, (p, s, w) -> {
        Measured m = w.m();
        t.row(x(sweep, p), s, Fmt.rate(m.throughput()), Fmt.num(megabytesPerSecondEachWay(w, p), 1),
            Fmt.micros(m.p50Us()), Fmt.micros(m.p99Us()), Fmt.num(m.cpuUs(), 1),
            Fmt.bytes(m.clientAllocBytes()) + " + " + Fmt.bytes(m.serverAllocBytes()), m.serverConnections(),
            Fmt.percent(m.otherCpuPercent()), m.errors(), m.noisy() ? "  NOISY" : "");
      });
      sb.append(String.format(Locale.ROOT, "%nScaling: %s%n", describe(sweep)))
          .append(t.console("  %-10s %-14s %10s %10s %10s %10s %14s %22s %6s %8s %7s%s%n"));
    }
    return sb.toString();
  }

  private interface Cell {
    void accept(Point point, String system, Window window);
  }

  /** Every window of {@code sweep}, point by point, in system order. */
  private void forEach(Sweep sweep, Cell cell) {
    for (Point p : curves.points(sweep)) {
      for (EchoSystem s : curves.systems()) {
        Window w = at(s.id(), p);
        if (w != null) {
          cell.accept(p, s.id(), w);
        }
      }
    }
  }

  private static String x(Sweep sweep, Point p) {
    return sweep == Sweep.PAYLOAD ? Point.bytes(p.payloadBytes()) : Integer.toString(ScalingCurves.x(sweep, p));
  }

  /**
   * docs/scaling.md: how the curves were measured, then per curve its chart ({@code imageLinks}, relative to the
   * document) and its table, each captioned with {@code caption} (machine, date, command).
   */
  public String markdown(String heading, List<String> caption, Map<Sweep, String> imageLinks, List<String> caveats,
      List<String> failures) {
    StringBuilder md = new StringBuilder(Markdown.title(heading, ScalingReport.class, caveats, failures));
    caption.forEach(c -> md.append(c).append("  \n"));
    md.append('\n');
    md.append(Markdown.fill("scaling-method.md",
        "systems", String.join(", ", curves.systems().stream().map(EchoSystem::id).toList()), "host",
        curves.setup().host(), "jvmWarmup", Fmt.seconds(curves.jvmWarmup()), "inflight", ScalingCurves.WARMUP_INFLIGHT,
        "warmup", Fmt.seconds(curves.setup().warmup()), "measure", Fmt.seconds(curves.setup().measure()), "threshold",
        Fmt.percent(curves.setup().quiet().thresholdPercent()), "repeats", curves.setup().quiet().maxRepeats()));
    for (Sweep sweep : curves.sweeps()) {
      md.append("## ").append(Character.toUpperCase(describe(sweep).charAt(0))).append(describe(sweep).substring(1))
          .append("\n\n");
      if (imageLinks.containsKey(sweep)) {
        md.append("![").append(sweep.id()).append(" curve](").append(imageLinks.get(sweep)).append(")\n\n");
      }
      md.append("_").append(String.join("; ", caption)).append("_\n\n").append(table(sweep)).append('\n');
    }
    return md.toString();
  }

  private String table(Sweep sweep) {
    boolean payload = sweep == Sweep.PAYLOAD;
    List<String> headers = new ArrayList<>(List.of(sweep.axis(), "system", "calls/s", "MB/s each way", "p50", "p99",
        "CPU µs/call (client + server)", "heap B/call client", "heap B/call server", "server connections", "other CPU",
        "errors"));
    if (!payload) {
      headers.remove(3);
    }
    Table t = new Table("rl" + "r".repeat(headers.size() - 2), headers.toArray(String[]::new));
    List<String> notes = new ArrayList<>();
    forEach(sweep, (p, s, w) -> {
      Measured m = w.m();
      List<Object> cells = new ArrayList<>(List.of(x(sweep, p), s, Fmt.rate(m.throughput()),
          Fmt.num(megabytesPerSecondEachWay(w, p), 1), Fmt.micros(m.p50Us()), Fmt.micros(m.p99Us()),
          Fmt.num(m.cpuUs(), 1) + " (" + Fmt.num(m.clientCpuUs(), 1) + " + " + Fmt.num(m.serverCpuUs(), 1) + ")",
          Fmt.bytes(m.clientAllocBytes()), Fmt.bytes(m.serverAllocBytes()),
          m.serverConnections() < 0 ? "n/a" : m.serverConnections(),
          Fmt.percent(m.otherCpuPercent()) + (m.noisy() ? " NOISY" : ""), m.errors()));
      if (!payload) {
        cells.remove(3);
      }
      t.row(cells.toArray());
      notes.add(m.errors() > 0 ? Markdown.failedCalls(s + " at " + p.id(), m.errors(), m.firstError()) : "");
      notes.add(m.serverConnections() >= 0 && m.serverConnections() != p.connections() ? s + " at " + p.id()
          + ": the server had " + m.serverConnections() + " established connections on its port, not "
          + p.connections() : "");
    });
    String list = Markdown.list(notes);
    return t.markdown() + (list.isEmpty() ? "" : "\n" + list);
  }
}
