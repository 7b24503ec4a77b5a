package io.boltgen.bench.report;

import io.boltgen.bench.load.CaseResult;
import io.boltgen.bench.load.Orchestrator;
import io.boltgen.bench.load.QuietPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * How quiet the machine was during the load matrix, for the report's Machine section: per run and overall,
 * the CPU other processes took in the kept windows ({@link io.boltgen.bench.load.OtherCpu}'s figure), the
 * windows kept noisy or measured again, and the load averages at each run's start and end.
 */
final class QuietReport {

  private QuietReport() {}

  /**
   * How quiet the machine was, as Markdown: per run and overall, the mean and largest share of a core other
   * processes took per kept window, the windows kept noisy, those measured again, and the load averages at each
   * run's start and end; empty without measurements of other processes' CPU.
   */
  static String markdown(List<CaseResult> results, List<Orchestrator.RunInfo> runs, QuietPolicy quiet) {
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
}
