package io.boltgen.bench.run;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.scenario.Scenario;
import io.boltgen.bench.scenario.Scenario.Pair;
import io.boltgen.bench.scenario.Scenario.Slot;
import io.boltgen.bench.scenario.Scenario.Stage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs any {@link Scenario}: stage by stage, starts its JVM pairs, measures its windows in order, stops the pairs.
 * A pair that fails is reported and dropped (its remaining windows skipped); the others go on.
 */
public final class Runner {

  /**
   * One run of a scenario, for the account of how quiet the machine was.
   *
   * @param order the systems in the order their pairs started
   * @param loadAverageStart the 1, 5 and 15 minute load averages when the run started
   * @param loadAverageEnd the same when it ended
   */
  public record RunInfo(int run, List<String> order, String loadAverageStart, String loadAverageEnd) {}

  /** Every window measured (repeats included), the runs, and what failed. */
  public record Outcome(List<Window> windows, List<RunInfo> runs, List<String> failures) {}

  /** Standard input, read for Enter after a stage whose servers are kept up. */
  private static final BufferedReader CONSOLE = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

  private Runner() {}

  /** Runs {@code scenario}, printing progress to {@code progress}, each result as {@code describe} says. */
  public static Outcome run(Scenario scenario, PrintStream progress, Function<Window, String> describe)
      throws InterruptedException {
    progress.println(scenario.header());
    List<Window> windows = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    Map<Integer, RunInfo> runs = new LinkedHashMap<>();
    int total = scenario.windows();
    int done = 0;
    long start = System.nanoTime();
    for (Stage stage : scenario.stages()) {
      String loadStart = MachineInfo.loadAverage();
      Map<String, JvmPair> pairs = new LinkedHashMap<>();
      try {
        for (Pair p : stage.pairs()) {
          try {
            pairs.put(p.system(), JvmPair.start(p, stage.label(), scenario.setup(), progress));
          } catch (JvmPair.Failed e) {
            failures.add(e.getMessage());
          }
        }
        boolean rounds = stage.slots().stream().mapToInt(Slot::run).distinct().count() > 1;
        for (Slot slot : stage.slots()) {
          done++;
          JvmPair pair = pairs.get(slot.system());
          if (pair == null) {
            continue;
          }
          progress.printf(Locale.ROOT, "  [%3d/%3d] %-14s %-19s %-22s ", done, total, stage.label(), slot.system(),
              slot.point().id() + (slot.repeat() ? " again" : "") + (rounds ? ", round " + slot.run() : ""));
          progress.flush();
          try {
            Window w = pair.measure(slot);
            windows.add(w);
            progress.println(describe.apply(w) + eta(done, total, start));
          } catch (JvmPair.Failed e) {
            failures.add(e.getMessage());
            pairs.remove(slot.system()).close();
          }
        }
        for (JvmPair pair : pairs.values()) {
          JvmPair.Failed exited = pair.checkServer();
          if (exited != null) {
            failures.add(exited.getMessage());
          } else if (scenario.keepServer()) {
            progress.printf("  server still running: %s. Press Enter to stop it and go on.%n", pair.server());
            waitForEnter();
          }
        }
      } finally {
        pairs.values().forEach(JvmPair::close);
      }
      List<String> order = new ArrayList<>(runs.containsKey(stage.run()) ? runs.get(stage.run()).order() : List.of());
      stage.pairs().forEach(p -> order.add(p.system()));
      String first = runs.containsKey(stage.run()) ? runs.get(stage.run()).loadAverageStart() : loadStart;
      runs.put(stage.run(), new RunInfo(stage.run(), order, first, MachineInfo.loadAverage()));
    }
    progress.printf("done in %s%n", Fmt.duration(Duration.ofNanos(System.nanoTime() - start)));
    return new Outcome(windows, List.copyOf(runs.values()), failures);
  }

  private static String eta(int done, int total, long start) {
    return done >= total ? ""
        : "  (ETA " + Fmt.duration(Duration.ofNanos((System.nanoTime() - start) / done * (total - done))) + ")";
  }

  private static void waitForEnter() {
    try {
      CONSOLE.readLine();
    } catch (IOException e) {
      // no console: go on
    }
  }
}
