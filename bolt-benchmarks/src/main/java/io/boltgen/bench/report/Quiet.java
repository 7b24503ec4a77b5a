package io.boltgen.bench.report;

import io.boltgen.bench.scenario.QuietPolicy;
import java.util.List;

/**
 * How quiet one measured window was: other processes' CPU in it (% of one core, NaN if unknown), whether it was kept
 * noisy, and how many attempts it took. The "how quiet it was" tables of every report are made of these.
 */
public record Quiet(double otherCpuPercent, boolean noisy, int attempts) {

  /**
   * How other processes' CPU was measured and what a noisy window meant: {@code Other processes' CPU<per>: the
   * machine's busy time (…) minus the CPU time of <whose>, in % of one core. A window above … marked NOISY<after>}.
   */
  public static String method(String per, boolean detailed, String whose, QuietPolicy quiet, String after) {
    return "Other processes' CPU" + per + ": the machine's busy time (`/proc/stat`" + (detailed ? ": user + nice +"
        + " system + irq + softirq + steal, all CPUs" : "") + ") minus the CPU time of " + whose + ", in % of one"
        + " core. A window above " + Fmt.percent(quiet.thresholdPercent()) + " was measured again (up to "
        + quiet.maxRepeats() + " more times); if every attempt stayed above, the quietest was kept and is marked NOISY"
        + after + "\n\n";
  }

  /** The table by {@code unit} ({@code run}, {@code round}): order, windows, other CPU, retries, load averages. */
  public static Table byRun(String unit) {
    return new Table("rlrrrrrll", unit, "order", "windows", "other CPU mean", "other CPU max", "kept noisy",
        "measured again", "load average at start", "load average at end");
  }

  /** Adds the row of {@code windows} to a {@link #byRun} table. */
  public static void row(Table table, String label, String order, List<Quiet> windows, String start, String end) {
    String[] c = cells(windows);
    table.row(label, order, c[0], c[1], c[2], c[3], c[4], start, end);
  }

  /** Windows, other CPU mean and max (over the known figures), kept noisy, measured again. */
  public static String[] cells(List<Quiet> windows) {
    return new String[] {Integer.toString(windows.size()), Fmt.percent(mean(windows)), Fmt.percent(max(windows)),
        Long.toString(windows.stream().filter(Quiet::noisy).count()),
        Long.toString(windows.stream().filter(w -> w.attempts() > 1).count())};
  }

  /** The mean of the known other-CPU figures; NaN for none. */
  public static double mean(List<Quiet> windows) {
    return windows.stream().mapToDouble(Quiet::otherCpuPercent).filter(d -> !Double.isNaN(d)).average()
        .orElse(Double.NaN);
  }

  /** The largest known other-CPU figure; NaN for none. */
  public static double max(List<Quiet> windows) {
    return windows.stream().mapToDouble(Quiet::otherCpuPercent).filter(d -> !Double.isNaN(d)).max().orElse(Double.NaN);
  }
}
