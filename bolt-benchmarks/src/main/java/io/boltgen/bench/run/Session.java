package io.boltgen.bench.run;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What every command's run shares around its measurement: the first line (the machine, its load), the check that the
 * machine is quiet as it starts (a caveat when it is not), the failures and caveats collected on the way, the summary
 * that ends the console output, the reports written, and how long it all took. One per run, on its thread.
 */
public final class Session {

  private final PrintStream out;
  private final Instant started;
  private final Map<String, String> machine;
  private final List<String> caveats;
  private final List<String> failures = new ArrayList<>();

  private Session(PrintStream out, Instant started, Map<String, String> machine, List<String> caveats) {
    this.out = out;
    this.started = started;
    this.machine = machine;
    this.caveats = caveats;
  }

  /**
   * Starts a run: prints {@code "<what> on <CPU>, <cores>; load average <now><more>"}, then measures other processes'
   * CPU over 2 s and adds a caveat to {@code caveats} when they used more than {@link ProcStat#BUSY_PERCENT}% of a
   * core (the windows' own quietness is measured and reported per window).
   */
  public static Session begin(String what, String more, List<String> caveats, PrintStream out)
      throws InterruptedException {
    Instant started = Instant.now();
    Map<String, String> machine = MachineInfo.read();
    out.println(what + " on " + machine.get("CPU") + ", " + machine.get("cores") + "; load average "
        + machine.get("load average at start") + more);
    List<String> all = new ArrayList<>(caveats);
    double other = ProcStat.otherCpuPercent(Duration.ofSeconds(2));
    if (other > ProcStat.BUSY_PERCENT) {
      all.add(String.format(Locale.ROOT, "the machine was busy when it started (other processes took %.0f%% of a"
          + " core over 2 s; 1-minute load average %.1f): other work shared the CPUs", other, MachineInfo.loadAverage1()));
    }
    return new Session(out, started, machine, all);
  }

  /** Where progress and tables go. */
  public PrintStream out() {
    return out;
  }

  /** When the run started. */
  public Instant started() {
    return started;
  }

  /** The machine as it was at the start ({@link MachineInfo#read}). */
  public Map<String, String> machine() {
    return machine;
  }

  /** Why these numbers are not the full measurement, so far. */
  public List<String> caveats() {
    return List.copyOf(caveats);
  }

  /** What failed so far. */
  public List<String> failures() {
    return List.copyOf(failures);
  }

  /** Records a failure, printing {@code "  FAILED <what>"}. */
  public void failed(String what) {
    failures.add(what);
    out.println("  FAILED " + what);
  }

  /** Records a failure already told in the progress lines. */
  public void recordFailure(String what) {
    failures.add(what);
  }

  /** The time since the start. */
  public Duration took() {
    return Duration.between(started, Instant.now());
  }

  /** Prints the run's tables ({@code console}), then its failures and caveats, if any. */
  public void summary(String console) {
    out.print(console);
    if (!failures.isEmpty()) {
      out.println("\nFAILURES:");
      failures.forEach(f -> out.println("  " + f));
    }
    if (!caveats.isEmpty()) {
      out.println("\nNot a full measurement: " + String.join("; ", caveats));
    }
  }

  /** Writes a report (its directories made first) and says so. */
  public void write(Path file, String text) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    out.println("wrote " + file.toAbsolutePath());
  }

  /** Prints how long the run took; whether nothing failed. */
  public boolean finish() {
    out.println("took " + Fmt.duration(took()));
    return failures.isEmpty();
  }
}
