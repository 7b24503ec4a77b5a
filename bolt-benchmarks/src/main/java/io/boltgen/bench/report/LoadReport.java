package io.boltgen.bench.report;

import io.boltgen.bench.run.Measured;
import io.boltgen.bench.run.Runner.RunInfo;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.system.EchoSystem;
import io.boltgen.bench.system.Systems;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.ToDoubleFunction;

/**
 * The load matrix's results folded over runs: per case and system the median of each metric and its range, as
 * console and Markdown tables; the targets (boltgen's default configuration against the best peer configuration and
 * against raw Netty, each ratio the median of per-run paired ratios); the warm-up check (each client's first case
 * against its repeat at the end); and how quiet the machine was (other processes' CPU per window, load averages per
 * run).
 */
public final class LoadReport {

  /** The first case is warm if its throughput is at least this share of its repeat's at the end. */
  public static final double WARM_RATIO = 0.97;
  /** A client compiling for more than this share of a window had too short a warm-up. */
  public static final double JIT_WARNING_PERCENT = 5;
  /** The families boltgen is compared with ("peers"); raw Netty is the ceiling, not a peer. */
  private static final List<String> PEER_FAMILIES = List.of("sofabolt", "grpc");

  private final List<Point> cases;
  private final List<EchoSystem> systems;
  private final List<Window> windows;
  private final List<RunInfo> runs;
  private final Map<String, Map<String, Row>> rows;

  /** The report of {@code windows} (the repeats of first cases included) and of the {@code runs} they came from. */
  public LoadReport(List<Point> cases, List<EchoSystem> systems, List<Window> windows, List<RunInfo> runs) {
    this.cases = cases;
    this.systems = systems;
    this.windows = List.copyOf(windows);
    this.runs = List.copyOf(runs);
    this.rows = Row.fold(windows, cases.stream().map(Point::id).toList(),
        systems.stream().map(EchoSystem::id).toList());
  }

  /** The rows of case {@code point}, by system id, in system order. */
  public Map<String, Row> rows(String point) {
    return rows.getOrDefault(point, Map.of());
  }

  /** A workload in words, e.g. {@code async-256: 256 calls in flight on one connection}. */
  static String describe(Point c) {
    int n = c.perConnection();
    return c.sync() ? "sync-" + n + ": " + n + " threads making blocking calls over one connection"
        : "async-" + n + ": " + n + " calls in flight on one connection";
  }

  /** One result, for a progress line. */
  public static String describe(Window w) {
    Measured m = w.m();
    return String.format(Locale.ROOT, "%9s/s  p50 %8s  p99 %8s  p99.9 %8s  cpu %6s µs/call  others %s%s%s%s%s",
        Fmt.rate(m.throughput()), Fmt.micros(m.p50Us()), Fmt.micros(m.p99Us()), Fmt.micros(m.p999Us()),
        Fmt.num(m.cpuUs(), 1), Fmt.percent(m.otherCpuPercent()),
        m.attempts() > 1 ? "  [" + m.attempts() + " attempts]" : "", m.noisy() ? "  [NOISY]" : "",
        m.clientJitPercent() > JIT_WARNING_PERCENT
            ? String.format(Locale.ROOT, "  [client JIT %.0f%% of window]", m.clientJitPercent()) : "",
        m.errors() > 0 ? "  ERRORS " + m.errors() + " (" + m.firstError() + ")" : "");
  }

  /** The tables, the targets and the warm-up check as console text. */
  public String console() {
    StringBuilder sb = new StringBuilder();
    forEachCase((c, bySystem) -> {
      sb.append(String.format(Locale.ROOT, "%n%s, payload %s%n", describe(c), Point.bytes(c.payloadBytes())));
      Table t = new Table("lrrrrrr", "system", "calls/s (min–max)", "p50", "p99", "p99.9", "CPU µs/call cli+srv",
          "errors");
      bySystem.values().forEach(r -> t.row(r.system(), r.spread(Measured::throughput).format(Fmt::rate),
          median(r, Measured::p50Us), median(r, Measured::p99Us), median(r, Measured::p999Us),
          Fmt.num(r.spread(Measured::cpuUs).median(), 1) + " (" + cpu(r, "+"), r.errors()));
      sb.append(t.console("  %-12s %22s %10s %10s %10s %22s %8s%n"));
      notes(bySystem).forEach(n -> sb.append("  note: ").append(n).append('\n'));
    });
    Table targets = targets();
    if (!targets.isEmpty()) {
      sb.append("\nTargets: boltgen defaults vs the best peer configuration and raw Netty (ratios: median of per-run"
          + " paired ratios, range over runs)\n").append(targets.console("  %-16s %-44s %-22s %-10s %s%n"));
    }
    Map<String, Map<Integer, Double>> ratios = warmupRatios();
    if (!ratios.isEmpty()) {
      sb.append("\nWarm-up check: first case (").append(cases.get(0).id()).append(") throughput / its repeat after all"
          + " cases, per run\n");
      ratios.forEach((system, byRun) -> {
        Spread sp = Spread.of(new ArrayList<>(byRun.values()));
        sb.append(String.format(Locale.ROOT, "  %-20s %-30s median %s%s%n", system,
            String.join(" ", byRun.values().stream().map(Fmt::ratio).toList()), sp.ratio(),
            sp.median() >= WARM_RATIO ? "" : "  COLD: first case slower than its repeat"));
      });
    }
    return sb.toString();
  }

  private static String median(Row r, ToDoubleFunction<Measured> metric) {
    return Fmt.micros(r.spread(metric).median());
  }

  /** The medians of client and server CPU per call, {@code 1.2 + 0.8)} (the opening bracket is the caller's). */
  private static String cpu(Row r, String plus) {
    return Fmt.num(r.spread(Measured::clientCpuUs).median(), 1) + plus
        + Fmt.num(r.spread(Measured::serverCpuUs).median(), 1) + ")";
  }

  /** Each case with rows, in case order. */
  private void forEachCase(BiConsumer<Point, Map<String, Row>> each) {
    cases.stream().filter(c -> !rows(c.id()).isEmpty()).forEach(c -> each.accept(c, rows(c.id())));
  }

  /** One Markdown table per case, with its notes. */
  public String markdown() {
    StringBuilder sb = new StringBuilder();
    forEachCase((c, bySystem) -> {
      sb.append("### ").append(describe(c)).append(", payload ").append(Point.bytes(c.payloadBytes())).append("\n\n");
      Table t = new Table("llrrrrrr", "system", "configuration", "calls/s", "p50", "p99", "p99.9",
          "CPU µs/call (client + server)", "errors");
      bySystem.values().forEach(r -> t.row(bold(r.system()), Systems.byId(r.system()).description(),
          r.spread(Measured::throughput).format(Fmt::rate), r.spread(Measured::p50Us).format(Fmt::micros),
          r.spread(Measured::p99Us).format(Fmt::micros), r.spread(Measured::p999Us).format(Fmt::micros),
          r.spread(Measured::cpuUs).format(v -> Fmt.num(v, 1)) + " (" + cpu(r, " + "), r.errors()));
      List<String> notes = new ArrayList<>();
      bySystem.values().forEach(r -> notes.add(r.errorNote(r.system())));
      notes.addAll(notes(bySystem));
      String list = Markdown.list(notes);
      sb.append(t.markdown()).append('\n').append(list).append(list.isEmpty() ? "" : "\n");
    });
    return sb.toString();
  }

  /**
   * The notes under a case's table: which clients were still JIT-compiling in a measured window (compiler time as a
   * share of the window, worst run) beyond {@link #JIT_WARNING_PERCENT}, and which kept a noisy window in which runs.
   */
  private static List<String> notes(Map<String, Row> bySystem) {
    List<String> jit = new ArrayList<>();
    List<String> noisy = new ArrayList<>();
    for (Row r : bySystem.values()) {
      double worst = r.windows().stream().mapToDouble(w -> w.m().clientJitPercent()).max().orElse(0);
      if (worst > JIT_WARNING_PERCENT) {
        jit.add(r.system() + " " + Fmt.num(worst, 0) + "%");
      }
      List<String> noisyRuns = r.windows().stream().filter(w -> w.m().noisy()).map(w -> Integer.toString(w.run()))
          .toList();
      if (!noisyRuns.isEmpty()) {
        noisy.add(r.system() + " (run " + String.join(", ", noisyRuns) + ")");
      }
    }
    List<String> notes = new ArrayList<>();
    if (!jit.isEmpty()) {
      notes.add("clients still JIT-compiling during the measured window (compiler time as a share of the window; above "
          + Fmt.num(JIT_WARNING_PERCENT, 0) + "% the warm-up was too short for this machine): "
          + String.join(", ", jit));
    }
    if (!noisy.isEmpty()) {
      notes.add(Markdown.noisy("used", " (see Machine)", noisy));
    }
    return notes;
  }

  static String bold(String system) {
    return system.equals(Systems.BOLTGEN_DEFAULT) ? "**" + system + "**" : system;
  }

  /** The targets as a Markdown table, or empty when boltgen or its comparators were not run. */
  public String targetsMarkdown() {
    Table table = targets();
    return table.isEmpty() ? "" : table.markdown();
  }

  /** The targets: per case, boltgen against the best peer and raw Netty, and its CPU per call. */
  private Table targets() {
    Table out = new Table("llrrl", "case", "measure", "boltgen", "target", "met");
    String me = Systems.BOLTGEN_DEFAULT;
    forEachCase((c, bySystem) -> {
      Row boltgen = bySystem.get(me);
      if (boltgen == null) {
        return;
      }
      Row peer = bestPeer(bySystem);
      Row netty = bySystem.get("netty");
      if (peer != null) {
        Spread ratio = paired(c, peer.system(), Measured::throughput);
        double target = c.sync() ? 1.3 : 3.0;
        target(out, c, "calls/s vs best peer (" + peer.system() + ", "
            + Fmt.rate(peer.spread(Measured::throughput).median()) + "/s)", ratio.ratio(), "≥ " + Fmt.ratio(target),
            ratio.median() >= target);
        Spread p99 = paired(c, peer.system(), Measured::p99Us);
        target(out, c, "p99 vs best peer's (" + Fmt.micros(peer.spread(Measured::p99Us).median()) + ")", p99.ratio(),
            "≤ 0.80×", p99.median() <= 0.8);
      }
      if (netty != null) {
        Spread ratio = paired(c, "netty", Measured::throughput);
        double target = c.sync() ? 0.9 : 0.7;
        target(out, c, "calls/s vs raw Netty (" + Fmt.rate(netty.spread(Measured::throughput).median()) + "/s)",
            ratio.ratio(), "≥ " + Fmt.ratio(target), ratio.median() >= target);
      }
      if (!c.sync() && c.payloadBytes() == 100) {
        Spread cpu = boltgen.spread(Measured::cpuUs);
        target(out, c, "CPU µs per call, client + server", cpu.format(v -> Fmt.num(v, 1)), "≤ 1.5",
            cpu.median() <= 1.5);
      }
    });
    return out;
  }

  private static void target(Table t, Point c, String measure, String value, String target, boolean met) {
    t.row(c.id(), measure, value, target, met ? "yes" : "NO");
  }

  /** boltgen's {@code metric} over {@code other}'s on case {@code c}: the spread of the per-run paired ratios. */
  private Spread paired(Point c, String other, ToDoubleFunction<Measured> metric) {
    return Spread.of(new ArrayList<>(pairedRatios(c.id(), Systems.BOLTGEN_DEFAULT, other, metric).values()));
  }

  /**
   * {@code a}'s {@code metric} over {@code b}'s on case {@code point}, by run: the two ran minutes apart in the same
   * run, so slow drift of the machine cancels out. Runs where either has no window, or {@code b}'s metric is 0, are
   * left out; so are the repeats.
   */
  public Map<Integer, Double> pairedRatios(String point, String a, String b, ToDoubleFunction<Measured> metric) {
    Map<Integer, Double> theirs = byRun(point, b, metric);
    Map<Integer, Double> out = new TreeMap<>();
    byRun(point, a, metric).forEach((run, v) -> {
      Double other = theirs.get(run);
      if (other != null && other != 0) {
        out.put(run, v / other);
      }
    });
    return out;
  }

  private Map<Integer, Double> byRun(String point, String system, ToDoubleFunction<Measured> metric) {
    Map<Integer, Double> out = new TreeMap<>();
    rows(point).getOrDefault(system, new Row(system, point, List.of())).windows()
        .forEach(w -> out.put(w.run(), metric.applyAsDouble(w.m())));
    return out;
  }

  /** The peer configuration with the highest median throughput on this case, or null. */
  static Row bestPeer(Map<String, Row> bySystem) {
    Row best = null;
    for (Row r : bySystem.values()) {
      if (PEER_FAMILIES.contains(Systems.byId(r.system()).family()) && (best == null
          || r.spread(Measured::throughput).median() > best.spread(Measured::throughput).median())) {
        best = r;
      }
    }
    return best;
  }

  /** Per system (in system order), its first case's throughput over its repeat's at the end, by run. */
  public Map<String, Map<Integer, Double>> warmupRatios() {
    Map<String, Map<Integer, Double>> out = new LinkedHashMap<>();
    for (EchoSystem s : systems) {
      Map<Integer, Double> byRun = new TreeMap<>();
      for (Window repeat : windows) {
        if (repeat.repeat() && repeat.system().equals(s.id()) && repeat.m().throughput() > 0) {
          windows.stream().filter(w -> !w.repeat() && w.system().equals(s.id()) && w.run() == repeat.run()
                  && w.point().equals(repeat.point()))
              .forEach(first -> byRun.put(repeat.run(), first.m().throughput() / repeat.m().throughput()));
        }
      }
      if (!byRun.isEmpty()) {
        out.put(s.id(), byRun);
      }
    }
    return out;
  }

  /** The systems whose first case was slower than its repeat: median ratio below {@link #WARM_RATIO}. */
  public List<String> coldSystems() {
    return warmupRatios().entrySet().stream()
        .filter(e -> Spread.of(new ArrayList<>(e.getValue().values())).median() < WARM_RATIO).map(Map.Entry::getKey)
        .toList();
  }

  /** The warm-up check as a Markdown section body, or empty when no client repeated its first case. */
  public String warmupMarkdown() {
    Map<String, Map<Integer, Double>> ratios = warmupRatios();
    if (ratios.isEmpty()) {
      return "";
    }
    String first = cases.get(0).id();
    int lastRun = ratios.values().stream().flatMap(m -> m.keySet().stream()).mapToInt(r -> r).max().orElse(0);
    StringBuilder sb = new StringBuilder();
    sb.append(Markdown.fill("load-warmup.md", "first", first, "warm", Fmt.ratio(WARM_RATIO)));
    List<String> headers = new ArrayList<>(List.of("system"));
    for (int run = 1; run <= lastRun; run++) {
      headers.add("run " + run);
    }
    headers.addAll(List.of("median (range)", "first case warm"));
    Table t = new Table("l" + "r".repeat(lastRun) + "rl", headers.toArray(String[]::new));
    ratios.forEach((system, byRun) -> {
      List<String> cells = new ArrayList<>(List.of(bold(system)));
      for (int run = 1; run <= lastRun; run++) {
        cells.add(byRun.containsKey(run) ? Fmt.ratio(byRun.get(run)) : "–");
      }
      Spread sp = Spread.of(new ArrayList<>(byRun.values()));
      cells.add(sp.ratio());
      cells.add(sp.median() >= WARM_RATIO ? "yes" : "**NO**");
      t.row(cells.toArray());
    });
    sb.append(t.markdown());
    List<String> cold = coldSystems();
    sb.append('\n').append(cold.isEmpty()
        ? "The first case was no slower than its repeat (≥ " + Fmt.ratio(WARM_RATIO) + ", median over runs) for every"
            + " system: the warm-up was long enough.\n"
        : "**The first case was slower than its repeat for " + String.join(", ", cold) + "**: its numbers for "
            + first + " are low; a longer warm-up pass (`--warmup-pass`) is needed on this machine.\n");
    return sb.toString();
  }

  /**
   * How quiet the machine was, as Markdown: per run and overall, the mean and largest share of a core other processes
   * took per kept window, the windows kept noisy, those measured again, and the load averages at each run's start and
   * end; empty without measurements of other processes' CPU.
   */
  public String quietMarkdown(QuietPolicy quiet) {
    List<Window> known = windows.stream().filter(w -> !Double.isNaN(w.m().otherCpuPercent())).toList();
    if (known.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(Quiet.method(" per measured window", true, "the two benchmark JVMs (`/proc/<pid>/stat`)", quiet,
        " under its table."));
    Table t = Quiet.byRun("run");
    for (RunInfo info : runs) {
      Quiet.row(t, Integer.toString(info.run()), String.join(", ", info.order()),
          quiet(known.stream().filter(w -> w.run() == info.run()).toList()), info.loadAverageStart(),
          info.loadAverageEnd());
    }
    String start = runs.isEmpty() ? "" : runs.get(0).loadAverageStart();
    String end = runs.isEmpty() ? "" : runs.get(runs.size() - 1).loadAverageEnd();
    Quiet.row(t, "all", "", quiet(known), start, end);
    return sb.append(t.markdown()).toString();
  }

  private static List<Quiet> quiet(List<Window> windows) {
    return windows.stream().map(w -> new Quiet(w.m().otherCpuPercent(), w.m().noisy(), w.m().attempts())).toList();
  }
}
