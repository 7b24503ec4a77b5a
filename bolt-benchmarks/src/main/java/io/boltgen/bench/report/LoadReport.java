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
  public static final double WARM_RATIO = 0.97;

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

  private static String bold(String system) {
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
        double target = sync ? 1.8 : 3.0;
        out.add(row(label, "calls/s vs best peer (" + peer.system() + ", " + Fmt.rate(peer.throughput().median()) + "/s)",
            ratioSpread(ratio), "≥ " + Fmt.ratio(target), ratio.median() >= target));
        if (sync) {
          Spread p99 = PairedRatio.of(results, c, me, peer.system(), CaseResult::p99Us);
          out.add(row(label, "p99 vs best peer's (" + Fmt.micros(peer.p99().median()) + ")", ratioSpread(p99), "≤ 0.50×",
              p99.median() <= 0.5));
        }
      }
      if (netty != null) {
        Spread ratio = PairedRatio.of(results, c, me, "netty", CaseResult::throughput);
        double target = sync ? 0.8 : 0.4;
        out.add(row(label, "calls/s vs raw Netty (" + Fmt.rate(netty.throughput().median()) + "/s)", ratioSpread(ratio),
            "≥ " + Fmt.ratio(target), ratio.median() >= target));
      }
      if (!sync && c.payloadBytes() == 100) {
        out.add(row(label, "CPU µs per call, client + server", numSpread(boltgen.cpu()), "≤ 5.0",
            boltgen.cpu().median() <= 5.0));
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

  // ------------------------------------------------------------------ warm-up check

  /**
   * Per system: its first case's throughput over that of the same case measured again after all its cases, in
   * each run ({@link PairedRatio} of the result to its repeat), in system order; systems without a repeat are
   * left out.
   */
  public Map<String, Map<Integer, Double>> warmupRatios() {
    Map<String, Map<Integer, Double>> out = new LinkedHashMap<>();
    for (EchoSystem s : systems) {
      Map<Integer, Double> byRun = new java.util.TreeMap<>();
      for (CaseResult repeat : results) {
        if (!repeat.repeat() || !repeat.system().equals(s.id()) || repeat.throughput() <= 0) {
          continue;
        }
        for (CaseResult first : results) {
          if (!first.repeat() && first.system().equals(s.id()) && first.run() == repeat.run()
              && first.caseToken().equals(repeat.caseToken())) {
            byRun.put(repeat.run(), first.throughput() / repeat.throughput());
          }
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
    List<String> cold = new ArrayList<>();
    warmupRatios().forEach((system, byRun) -> {
      if (Spread.of(new ArrayList<>(byRun.values())).median() < WARM_RATIO) {
        cold.add(system);
      }
    });
    return cold;
  }

  /** The warm-up check as a Markdown section body, or empty when no client repeated its first case. */
  public String warmupMarkdown() {
    Map<String, Map<Integer, Double>> ratios = warmupRatios();
    if (ratios.isEmpty()) {
      return "";
    }
    String first = firstCaseLabel();
    int lastRun = 0;
    for (Map<Integer, Double> byRun : ratios.values()) {
      for (int run : byRun.keySet()) {
        lastRun = Math.max(lastRun, run);
      }
    }
    int maxRun = lastRun;
    StringBuilder sb = new StringBuilder();
    sb.append("Each client measured its first case (").append(first).append(") again after all its cases, with the"
        + " same warm-up and window. The ratio is the first measurement's throughput over the repeat's: at ")
        .append(Fmt.ratio(WARM_RATIO)).append(" or more the first case was already warm (the warm-up was long"
        + " enough); below, the first case still paid for the JVMs' way to their steady state.\n\n");
    sb.append("| system |");
    for (int run = 1; run <= maxRun; run++) {
      sb.append(" run ").append(run).append(" |");
    }
    sb.append(" median (range) | first case warm |\n|---|");
    for (int run = 1; run <= maxRun; run++) {
      sb.append("--:|");
    }
    sb.append("--:|---|\n");
    ratios.forEach((system, byRun) -> {
      sb.append("| ").append(bold(system)).append(" |");
      for (int run = 1; run <= maxRun; run++) {
        Double v = byRun.get(run);
        sb.append(' ').append(v == null ? "–" : Fmt.ratio(v)).append(" |");
      }
      Spread sp = Spread.of(new ArrayList<>(byRun.values()));
      sb.append(' ').append(ratioSpread(sp)).append(" | ").append(sp.median() >= WARM_RATIO ? "yes" : "**NO**")
          .append(" |\n");
    });
    List<String> cold = coldSystems();
    sb.append('\n').append(cold.isEmpty()
        ? "The first case was no slower than its repeat (≥ " + Fmt.ratio(WARM_RATIO) + ", median over runs) for every"
            + " system: the warm-up was long enough.\n"
        : "**The first case was slower than its repeat for " + String.join(", ", cold) + "**: its numbers for "
            + first + " are low; a longer warm-up pass (`--warmup-pass`) is needed on this machine.\n");
    return sb.toString();
  }

  /** The warm-up check as console lines, or empty. */
  public String warmupConsole() {
    Map<String, Map<Integer, Double>> ratios = warmupRatios();
    if (ratios.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder("\nWarm-up check: first case (" + firstCaseLabel()
        + ") throughput / its repeat after all cases, per run\n");
    ratios.forEach((system, byRun) -> {
      Spread sp = Spread.of(new ArrayList<>(byRun.values()));
      StringBuilder runs = new StringBuilder();
      byRun.forEach((run, v) -> runs.append(runs.length() == 0 ? "" : " ").append(Fmt.ratio(v)));
      sb.append(String.format(Locale.ROOT, "  %-20s %-30s median %s%s%n", system, runs, ratioSpread(sp),
          sp.median() >= WARM_RATIO ? "" : "  COLD: first case slower than its repeat"));
    });
    return sb.toString();
  }

  private String firstCaseLabel() {
    return cases.isEmpty() ? "" : cases.get(0).label();
  }

  // ------------------------------------------------------------------ quiet machine

  /**
   * How quiet the machine was, as Markdown: per run and overall, the mean and largest share of a core other
   * processes took per kept window, the windows kept noisy, those measured again, and the load averages at each
   * run's start and end; empty without measurements of other processes' CPU.
   */
  public String quietMarkdown(io.boltgen.bench.load.QuietPolicy quiet) {
    List<CaseResult> known = new ArrayList<>();
    for (CaseResult r : results) {
      if (!Double.isNaN(r.otherCpuPercent())) {
        known.add(r);
      }
    }
    if (known.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    sb.append("Other processes' CPU per measured window: the machine's busy time (`/proc/stat`: user + nice + system"
        + " + irq + softirq + steal, all CPUs) minus the CPU time of the two benchmark JVMs (`/proc/<pid>/stat`), in %"
        + " of one core. A window above ").append(Fmt.percent(quiet.thresholdPercent())).append(" was measured again (up to ")
        .append(quiet.maxRepeats()).append(" more times); if every attempt stayed above, the quietest was kept and is"
        + " marked NOISY under its table.\n\n");
    sb.append("| run | order | windows | other CPU mean | other CPU max | kept noisy | measured again | load average at"
        + " start | load average at end |\n|--:|---|--:|--:|--:|--:|--:|---|---|\n");
    for (Orchestrator.RunInfo info : runs) {
      List<CaseResult> mine = new ArrayList<>();
      for (CaseResult r : known) {
        if (r.run() == info.run()) {
          mine.add(r);
        }
      }
      quietRow(sb, Integer.toString(info.run()), String.join(", ", info.order()), mine, info.loadAverageStart(),
          info.loadAverageEnd());
    }
    String start = runs.isEmpty() ? "" : runs.get(0).loadAverageStart();
    String end = runs.isEmpty() ? "" : runs.get(runs.size() - 1).loadAverageEnd();
    quietRow(sb, "all", "", known, start, end);
    return sb.toString();
  }

  private static void quietRow(StringBuilder sb, String run, String order, List<CaseResult> windows, String loadStart,
      String loadEnd) {
    double sum = 0;
    double max = 0;
    int noisy = 0;
    int again = 0;
    for (CaseResult r : windows) {
      sum += r.otherCpuPercent();
      max = Math.max(max, r.otherCpuPercent());
      noisy += r.noisy() ? 1 : 0;
      again += r.attempts() > 1 ? 1 : 0;
    }
    double mean = windows.isEmpty() ? Double.NaN : sum / windows.size();
    sb.append("| ").append(run).append(" | ").append(order).append(" | ").append(windows.size()).append(" | ")
        .append(Fmt.percent(mean)).append(" | ").append(Fmt.percent(windows.isEmpty() ? Double.NaN : max)).append(" | ")
        .append(noisy).append(" | ").append(again).append(" | ").append(loadStart).append(" | ").append(loadEnd)
        .append(" |\n");
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
