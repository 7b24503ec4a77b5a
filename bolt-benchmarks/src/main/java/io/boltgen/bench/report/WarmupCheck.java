package io.boltgen.bench.report;

import io.boltgen.bench.load.CaseResult;
import io.boltgen.bench.load.EchoSystem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The warm-up check of the load matrix: each client measured its first case again after all its cases, and
 * the first measurement's throughput over the repeat's says whether the first case was already warm (at least
 * {@link #WARM_RATIO}) or still paid for the JVMs' way to their steady state.
 */
final class WarmupCheck {

  /** The first case is warm if its throughput is at least this share of its repeat's at the end. */
  static final double WARM_RATIO = 0.97;

  private final List<EchoSystem> systems;
  private final List<CaseResult> results;
  private final String firstCase;

  /** The check of {@code results} (repeats included); {@code firstCase} labels the repeated case. */
  WarmupCheck(List<EchoSystem> systems, List<CaseResult> results, String firstCase) {
    this.systems = systems;
    this.results = results;
    this.firstCase = firstCase;
  }

  /**
   * Per system: its first case's throughput over that of the same case measured again after all its cases, in
   * each run ({@link PairedRatio} of the result to its repeat), in system order; systems without a repeat are
   * left out.
   */
  Map<String, Map<Integer, Double>> ratios() {
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
  List<String> coldSystems() {
    List<String> cold = new ArrayList<>();
    ratios().forEach((system, byRun) -> {
      if (Spread.of(new ArrayList<>(byRun.values())).median() < WARM_RATIO) {
        cold.add(system);
      }
    });
    return cold;
  }

  /** The warm-up check as a Markdown section body, or empty when no client repeated its first case. */
  String markdown() {
    Map<String, Map<Integer, Double>> ratios = ratios();
    if (ratios.isEmpty()) {
      return "";
    }
    String first = firstCase;
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
      sb.append("| ").append(LoadReport.bold(system)).append(" |");
      for (int run = 1; run <= maxRun; run++) {
        Double v = byRun.get(run);
        sb.append(' ').append(v == null ? "–" : Fmt.ratio(v)).append(" |");
      }
      Spread sp = Spread.of(new ArrayList<>(byRun.values()));
      sb.append(' ').append(LoadReport.ratioSpread(sp)).append(" | ").append(sp.median() >= WARM_RATIO ? "yes" : "**NO**")
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
  String console() {
    Map<String, Map<Integer, Double>> ratios = ratios();
    if (ratios.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder("\nWarm-up check: first case (" + firstCase
        + ") throughput / its repeat after all cases, per run\n");
    ratios.forEach((system, byRun) -> {
      Spread sp = Spread.of(new ArrayList<>(byRun.values()));
      StringBuilder runs = new StringBuilder();
      byRun.forEach((run, v) -> runs.append(runs.length() == 0 ? "" : " ").append(Fmt.ratio(v)));
      sb.append(String.format(Locale.ROOT, "  %-20s %-30s median %s%s%n", system, runs, LoadReport.ratioSpread(sp),
          sp.median() >= WARM_RATIO ? "" : "  COLD: first case slower than its repeat"));
    });
    return sb.toString();
  }
}
