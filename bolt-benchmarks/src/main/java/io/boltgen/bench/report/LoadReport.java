package io.boltgen.bench.report;

import io.boltgen.bench.load.CaseResult;
import io.boltgen.bench.load.EchoSystem;
import io.boltgen.bench.load.LoadCase;
import io.boltgen.bench.load.Orchestrator;
import io.boltgen.bench.load.Systems;
import io.boltgen.bench.load.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The load results folded over runs: per case and system, the median of each metric and its range; the
 * console table; the Markdown tables; the targets (boltgen's default configuration against the
 * best peer configuration and against raw Netty, each ratio the median of per-run paired ratios, see
 * {@link PairedRatio}); the warm-up check (each client's first case against its repeat at the end); and how
 * quiet the machine was (other processes' CPU per window, load averages per run).
 */
public final class LoadReport {

  /** The families boltgen is compared with ("peers"); raw Netty is the ceiling, not a peer. */
  private static final List<String> PEER_FAMILIES = List.of("sofabolt", "grpc");

  /**
   * One system on one case over all runs.
   *
   * @param system the system's id
   * @param loadCase the case
   * @param throughput calls per second
   * @param p50 median latency, µs
   * @param p99 99th percentile, µs
   * @param p999 99.9th percentile, µs
   * @param cpu client + server CPU µs per call
   * @param clientCpu client CPU µs per call
   * @param serverCpu server CPU µs per call
   * @param errors failed calls over all runs
   * @param firstError one failure's description, or empty
   * @param maxClientJitPercent the largest share of a window the client spent compiling, over runs
   * @param noisyRuns the runs whose kept window was still noisy (other processes above the quiet threshold)
   */
  public record Row(String system, LoadCase loadCase, Spread throughput, Spread p50, Spread p99, Spread p999,
      Spread cpu, Spread clientCpu, Spread serverCpu, long errors, String firstError, double maxClientJitPercent,
      List<Integer> noisyRuns) {}

  /** The first case is warm if its throughput is at least this share of its repeat's at the end. */
  public static final double WARM_RATIO = WarmupCheck.WARM_RATIO;

  /** A client compiling for more than this share of a window had too short a warm-up. */
  public static final double JIT_WARNING_PERCENT = 5;

  private final List<LoadCase> cases;
  private final List<EchoSystem> systems;
  private final List<CaseResult> results;
  private final List<Orchestrator.RunInfo> runs;
  private final Map<LoadCase, Map<String, Row>> rows = new LinkedHashMap<>();

  /** The report of {@code results} (the repeats of first cases included), without per-run machine figures. */
  public LoadReport(List<LoadCase> cases, List<EchoSystem> systems, List<CaseResult> results) {
    this(cases, systems, results, List.of());
  }

  /** The report of {@code results} (the repeats of first cases included) and of the {@code runs} they came from. */
  public LoadReport(List<LoadCase> cases, List<EchoSystem> systems, List<CaseResult> results,
      List<Orchestrator.RunInfo> runs) {
    this.cases = cases;
    this.systems = systems;
    this.results = List.copyOf(results);
    this.runs = List.copyOf(runs);
    for (LoadCase c : cases) {
      Map<String, Row> bySystem = new LinkedHashMap<>();
      for (EchoSystem s : systems) {
        List<CaseResult> mine = new ArrayList<>();
        for (CaseResult r : results) {
          if (!r.repeat() && r.system().equals(s.id()) && r.loadCase().equals(c)) {
            mine.add(r);
          }
        }
        if (!mine.isEmpty()) {
          long errors = 0;
          String firstError = "";
          double jit = 0;
          List<Integer> noisy = new ArrayList<>();
          for (CaseResult r : mine) {
            errors += r.errors();
            jit = Math.max(jit, r.clientJitPercent());
            if (firstError.isEmpty()) {
              firstError = r.firstError();
            }
            if (r.noisy()) {
              noisy.add(r.run());
            }
          }
          bySystem.put(s.id(), new Row(s.id(), c, spread(mine, CaseResult::throughput), spread(mine, CaseResult::p50Us),
              spread(mine, CaseResult::p99Us), spread(mine, CaseResult::p999Us), spread(mine, CaseResult::cpuUs),
              spread(mine, CaseResult::clientCpuUs), spread(mine, CaseResult::serverCpuUs), errors, firstError, jit,
              noisy));
        }
      }
      rows.put(c, bySystem);
    }
  }

  private static Spread spread(List<CaseResult> results, ToDoubleFunction<CaseResult> metric) {
    List<Double> values = new ArrayList<>();
    for (CaseResult r : results) {
      values.add(metric.applyAsDouble(r));
    }
    return Spread.of(values);
  }

  /** The rows of {@code c}, by system id, in system order. */
  public Map<String, Row> rows(LoadCase c) {
    return rows.getOrDefault(c, Map.of());
  }

  /** Every row. */
  public List<Row> allRows() {
    List<Row> all = new ArrayList<>();
    rows.values().forEach(m -> all.addAll(m.values()));
    return all;
  }

  // ------------------------------------------------------------------ console

  /** The console table. */
  public String console() {
    StringBuilder sb = new StringBuilder();
    for (LoadCase c : cases) {
      Map<String, Row> bySystem = rows(c);
      if (bySystem.isEmpty()) {
        continue;
      }
      sb.append(String.format(Locale.ROOT, "%n%s, payload %s%n", describe(c.workload()), LoadCase.payloadLabel(c.payloadBytes())));
      sb.append(String.format(Locale.ROOT, "  %-12s %22s %10s %10s %10s %22s %8s%n", "system", "calls/s (min–max)", "p50",
          "p99", "p99.9", "CPU µs/call cli+srv", "errors"));
      for (Row r : bySystem.values()) {
        sb.append(String.format(Locale.ROOT, "  %-12s %22s %10s %10s %10s %22s %8d%n", r.system(), rateSpread(r.throughput()),
            Fmt.micros(r.p50().median()), Fmt.micros(r.p99().median()), Fmt.micros(r.p999().median()),
            Fmt.num(r.cpu().median(), 1) + " (" + Fmt.num(r.clientCpu().median(), 1) + "+"
                + Fmt.num(r.serverCpu().median(), 1) + ")", r.errors()));
      }
      String jit = jitNote(bySystem);
      if (!jit.isEmpty()) {
        sb.append("  note: ").append(jit).append('\n');
      }
      String noisy = noisyNote(bySystem);
      if (!noisy.isEmpty()) {
        sb.append("  note: ").append(noisy).append('\n');
      }
    }
    return sb.toString();
  }

  private static String rateSpread(Spread s) {
    if (s.n() < 2) {
      return Fmt.rate(s.median());
    }
    return Fmt.rate(s.median()) + " (" + Fmt.rate(s.min()) + "–" + Fmt.rate(s.max()) + ")";
  }

  private static String microsSpread(Spread s) {
    if (s.n() < 2) {
      return Fmt.micros(s.median());
    }
    return Fmt.micros(s.median()) + " (" + Fmt.micros(s.min()) + "–" + Fmt.micros(s.max()) + ")";
  }

  private static String numSpread(Spread s) {
    if (s.n() < 2) {
      return Fmt.num(s.median(), 1);
    }
    return Fmt.num(s.median(), 1) + " (" + Fmt.num(s.min(), 1) + "–" + Fmt.num(s.max(), 1) + ")";
  }

  /** A workload in words. */
  public static String describe(Workload w) {
    return w == Workload.SYNC
        ? "sync-32: 32 threads making blocking calls over one connection"
        : "async-256: 256 calls in flight on one connection";
  }

  // ------------------------------------------------------------------ Markdown

  /** One Markdown table per case. */
  public String markdown() {
    StringBuilder sb = new StringBuilder();
    for (LoadCase c : cases) {
      Map<String, Row> bySystem = rows(c);
      if (bySystem.isEmpty()) {
        continue;
      }
      sb.append("### ").append(describe(c.workload())).append(", payload ").append(LoadCase.payloadLabel(c.payloadBytes()))
          .append("\n\n");
      sb.append("| system | configuration | calls/s | p50 | p99 | p99.9 | CPU µs/call (client + server) | errors |\n");
      sb.append("|---|---|--:|--:|--:|--:|--:|--:|\n");
      for (Row r : bySystem.values()) {
        EchoSystem s = Systems.byId(r.system());
        sb.append("| ").append(bold(r.system())).append(" | ").append(s.description()).append(" | ")
            .append(rateSpread(r.throughput())).append(" | ").append(microsSpread(r.p50())).append(" | ")
            .append(microsSpread(r.p99())).append(" | ").append(microsSpread(r.p999())).append(" | ")
            .append(numSpread(r.cpu())).append(" (").append(Fmt.num(r.clientCpu().median(), 1)).append(" + ")
            .append(Fmt.num(r.serverCpu().median(), 1)).append(") | ").append(r.errors()).append(" |\n");
      }
      sb.append('\n');
      int before = sb.length();
      for (Row r : bySystem.values()) {
        if (r.errors() > 0) {
          sb.append("- ").append(r.system()).append(": ").append(r.errors()).append(" failed calls, e.g. `")
              .append(r.firstError().replace("`", "'")).append("`\n");
        }
      }
      String jit = jitNote(bySystem);
      if (!jit.isEmpty()) {
        sb.append("- ").append(jit).append('\n');
      }
      String noisy = noisyNote(bySystem);
      if (!noisy.isEmpty()) {
        sb.append("- ").append(noisy).append('\n');
      }
      if (sb.length() > before) {
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  /**
   * Which clients were still JIT-compiling in a measured window (compiler-thread time as a share of the
   * window, summed over compiler threads, worst run), or empty when none passed {@link #JIT_WARNING_PERCENT}.
   */
  private static String jitNote(Map<String, Row> bySystem) {
    StringBuilder list = new StringBuilder();
    for (Row r : bySystem.values()) {
      if (r.maxClientJitPercent() > JIT_WARNING_PERCENT) {
        list.append(list.length() == 0 ? "" : ", ").append(r.system()).append(' ')
            .append(Fmt.num(r.maxClientJitPercent(), 0)).append('%');
      }
    }
    if (list.length() == 0) {
      return "";
    }
    return "clients still JIT-compiling during the measured window (compiler time as a share of the window; above "
        + Fmt.num(JIT_WARNING_PERCENT, 0) + "% the warm-up was too short for this machine): " + list;
  }

  /** Which systems kept a noisy window ({@link io.boltgen.bench.load.QuietPolicy}) in which runs, or empty. */
  private static String noisyNote(Map<String, Row> bySystem) {
    StringBuilder list = new StringBuilder();
    for (Row r : bySystem.values()) {
      if (!r.noisyRuns().isEmpty()) {
        list.append(list.length() == 0 ? "" : ", ").append(r.system()).append(" (run ")
            .append(joinInts(r.noisyRuns())).append(')');
      }
    }
    if (list.length() == 0) {
      return "";
    }
    return "NOISY: windows kept although other processes used more CPU than the quiet threshold in every attempt"
        + " (see Machine): " + list;
  }

  private static String joinInts(List<Integer> xs) {
    StringBuilder sb = new StringBuilder();
    for (int x : xs) {
      sb.append(sb.length() == 0 ? "" : ", ").append(x);
    }
    return sb.toString();
  }

  static String bold(String system) {
    return system.equals(Systems.BOLTGEN_DEFAULT) ? "**" + system + "**" : system;
  }

  // ------------------------------------------------------------------ targets

  /** The load targets as console text, or empty when boltgen or its comparators were not run. */
  public String targetsConsole() {
    List<String[]> table = targets();
    if (table.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder("\nTargets: boltgen defaults vs the best peer configuration and raw Netty"
        + " (ratios: median of per-run paired ratios, range over runs)\n");
    for (String[] row : table) {
      sb.append(String.format(Locale.ROOT, "  %-16s %-44s %-22s %-10s %s%n", (Object[]) row));
    }
    return sb.toString();
  }

  /** The load targets as a Markdown table, or empty. */
  public String targetsMarkdown() {
    List<String[]> table = targets();
    if (table.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    sb.append("| case | measure | boltgen | target | met |\n|---|---|--:|--:|---|\n");
    for (String[] row : table.subList(1, table.size())) {
      sb.append("| ").append(String.join(" | ", row)).append(" |\n");
    }
    return sb.toString();
  }

  private List<String[]> targets() {
    List<String[]> out = new ArrayList<>();
    String me = Systems.BOLTGEN_DEFAULT;
    for (LoadCase c : cases) {
      Map<String, Row> bySystem = rows(c);
      Row boltgen = bySystem.get(me);
      if (boltgen == null) {
        continue;
      }
      Row peer = bestPeer(bySystem);
      Row netty = bySystem.get("netty");
      boolean sync = c.workload() == Workload.SYNC;
      String label = c.label();
      if (peer != null) {
        Spread ratio = PairedRatio.of(results, c, me, peer.system(), CaseResult::throughput);
        double target = sync ? 1.3 : 3.0;
        out.add(row(label, "calls/s vs best peer (" + peer.system() + ", " + Fmt.rate(peer.throughput().median()) + "/s)",
            ratioSpread(ratio), "≥ " + Fmt.ratio(target), ratio.median() >= target));
        Spread p99 = PairedRatio.of(results, c, me, peer.system(), CaseResult::p99Us);
        out.add(row(label, "p99 vs best peer's (" + Fmt.micros(peer.p99().median()) + ")", ratioSpread(p99), "≤ 0.80×",
            p99.median() <= 0.8));
      }
      if (netty != null) {
        Spread ratio = PairedRatio.of(results, c, me, "netty", CaseResult::throughput);
        double target = sync ? 0.9 : 0.6;
        out.add(row(label, "calls/s vs raw Netty (" + Fmt.rate(netty.throughput().median()) + "/s)", ratioSpread(ratio),
            "≥ " + Fmt.ratio(target), ratio.median() >= target));
      }
      if (!sync && c.payloadBytes() == 100) {
        out.add(row(label, "CPU µs per call, client + server", numSpread(boltgen.cpu()), "≤ 1.5",
            boltgen.cpu().median() <= 1.5));
      }
    }
    if (!out.isEmpty()) {
      out.add(0, new String[] {"case", "measure", "boltgen", "target", "met"});
    }
    return out;
  }

  /** {@code 1.36× (1.30–1.41×)}: a paired ratio's median and range over runs. */
  static String ratioSpread(Spread s) {
    if (s.n() == 0) {
      return "n/a";
    }
    if (s.n() < 2) {
      return Fmt.ratio(s.median());
    }
    return Fmt.ratio(s.median()) + " (" + Fmt.num(s.min(), 2) + "–" + Fmt.ratio(s.max()) + ")";
  }

  private static String[] row(String label, String measure, String value, String target, boolean met) {
    return new String[] {label, measure, value, target, met ? "yes" : "NO"};
  }

  // ------------------------------------------------------------------ warm-up check and quiet machine

  /** Per system, its first case's throughput over its repeat's, by run ({@link WarmupCheck}). */
  public Map<String, Map<Integer, Double>> warmupRatios() {
    return warmup().ratios();
  }

  /** The systems whose first case was slower than its repeat ({@link WarmupCheck}). */
  public List<String> coldSystems() {
    return warmup().coldSystems();
  }

  /** The warm-up check as a Markdown section body, or empty. */
  public String warmupMarkdown() {
    return warmup().markdown();
  }

  /** The warm-up check as console lines, or empty. */
  public String warmupConsole() {
    return warmup().console();
  }

  private WarmupCheck warmup() {
    return new WarmupCheck(systems, results, cases.isEmpty() ? "" : cases.get(0).label());
  }

  /** How quiet the machine was, as Markdown ({@link QuietReport}), or empty. */
  public String quietMarkdown(io.boltgen.bench.load.QuietPolicy quiet) {
    return QuietReport.markdown(results, runs, quiet);
  }

  /** The peer configuration with the highest median throughput on this case, or null. */
  static Row bestPeer(Map<String, Row> bySystem) {
    Row best = null;
    for (Row r : bySystem.values()) {
      if (PEER_FAMILIES.contains(Systems.byId(r.system()).family())
          && (best == null || r.throughput().median() > best.throughput().median())) {
        best = r;
      }
    }
    return best;
  }
}
