package io.boltgen.bench.run;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.scenario.Scenario;
import io.boltgen.bench.scenario.Scenario.Pair;
import io.boltgen.bench.scenario.Scenario.Part;
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
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Runs any {@link Scenario}: stage by stage, starts its parts, measures its windows in order, stops the parts. A
 * part that fails is reported and dropped (its remaining windows skipped); the others go on.
 */
public final class Runner {

  /**
   * One run of a scenario, for the account of how quiet the machine was.
   *
   * @param order the systems in the order their parts started
   * @param loadAverageStart the 1, 5 and 15 minute load averages when the run started
   * @param loadAverageEnd the same when it ended
   */
  public record RunInfo(int run, List<String> order, String loadAverageStart, String loadAverageEnd) {}

  /** Every window measured (repeats included), the runs, and what failed. */
  public record Outcome<W>(List<W> windows, List<RunInfo> runs, List<String> failures) {}

  /** A part that cannot go on, or one window of it that failed; the message says why and names its log. */
  public static final class Failed extends Exception {
    private final boolean partGoesOn;

    /** The part cannot go on: its remaining windows are skipped. */
    public Failed(String message) {
      this(message, false);
    }

    private Failed(String message, boolean partGoesOn) {
      super(message, null, false, false);
      this.partGoesOn = partGoesOn;
    }

    /** One window failed; the part measures its next windows. */
    public static Failed window(String message) {
      return new Failed(message, true);
    }
  }

  /** A part started: its windows measured one by one, then closed. */
  public interface Started<W> extends AutoCloseable {
    /** Measures {@code slot}'s window. */
    W measure(Slot slot) throws Failed, InterruptedException;

    /** A failure if the part stopped on its own during the stage, else null. */
    default Failed exited() {
      return null;
    }

    /** Where a person finds it, for a stage whose parts are kept up. */
    default String where() {
      return "";
    }

    @Override
    void close();

    /** This part, its windows turned into {@code V}s by {@code as}. */
    default <V> Started<V> map(BiFunction<Slot, W, V> as) {
      Started<W> self = this;
      return new Started<>() {
        @Override
        public V measure(Slot slot) throws Failed, InterruptedException {
          return as.apply(slot, self.measure(slot));
        }

        @Override
        public Failed exited() {
          return self.exited();
        }

        @Override
        public String where() {
          return self.where();
        }

        @Override
        public void close() {
          self.close();
        }
      };
    }
  }

  /** Starts a stage's part; {@code stage} names the stage in progress lines and failures. */
  @FunctionalInterface
  public interface Starter<P, W> {
    Started<W> start(P part, String stage) throws Failed, InterruptedException;
  }

  /** Standard input, read for Enter after a stage whose servers are kept up. */
  private static final BufferedReader CONSOLE = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

  private Runner() {}

  /** Runs a scenario of JVM pairs, whose clients measure the windows; each result as {@code describe} says. */
  public static Outcome<Window> run(Scenario.OfPairs scenario, PrintStream progress, Function<Window, String> describe)
      throws InterruptedException {
    return run(scenario, jvmPairs(scenario.setup(), progress), progress, describe);
  }

  /** Starts JVM pairs ({@link ServerMain}, {@link ClientMain}) as {@code setup} says. */
  public static Starter<Pair, Window> jvmPairs(Scenario.Setup setup, PrintStream progress) {
    return (pair, stage) -> JvmPair.start(pair, stage, setup, progress);
  }

  /** Runs {@code scenario}, its parts started by {@code starter}, printing progress, each result as {@code describe} says. */
  public static <P extends Part, W> Outcome<W> run(Scenario<P> scenario, Starter<P, W> starter, PrintStream progress,
      Function<W, String> describe) throws InterruptedException {
    progress.println(scenario.header());
    List<W> windows = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    Map<Integer, RunInfo> runs = new LinkedHashMap<>();
    int total = scenario.windows();
    int done = 0;
    long start = System.nanoTime();
    for (Stage<P> stage : scenario.stages()) {
      String loadStart = MachineInfo.loadAverage();
      Map<P, Started<W>> started = new LinkedHashMap<>();
      try {
        for (P part : stage.parts()) {
          try {
            started.put(part, starter.start(part, stage.label()));
          } catch (Failed e) {
            failed(e, failures, progress);
          }
        }
        boolean rounds = stage.slots().stream().mapToInt(Slot::run).distinct().count() > 1;
        for (Slot slot : stage.slots()) {
          done++;
          P part = stage.parts().stream().filter(p -> p.measures(slot.system())).findFirst().orElse(null);
          Started<W> on = part == null ? null : started.get(part);
          if (on == null) {
            continue;
          }
          String line = String.format(Locale.ROOT, "  [%3d/%3d] %-14s %-19s %-22s ", done, total, stage.label(),
              slot.system(), slot.point().id() + (slot.repeat() ? " again" : "") + (rounds ? ", round " + slot.run() : ""));
          try {
            W w = on.measure(slot); // what it prints on the way comes before the window's line
            windows.add(w);
            progress.println(line + describe.apply(w) + eta(done, total, start));
          } catch (Failed e) {
            failed(e, failures, progress);
            if (!e.partGoesOn) {
              close(started.remove(part), progress);
            }
          }
        }
        for (Started<W> on : started.values()) {
          Failed exited = on.exited();
          if (exited != null) {
            failed(exited, failures, progress);
          } else if (scenario.keepServer()) {
            progress.printf("  server still running: %s. Press Enter to stop it and go on.%n", on.where());
            waitForEnter();
          }
        }
      } finally {
        started.values().forEach(on -> close(on, progress));
      }
      List<String> order = new ArrayList<>(runs.containsKey(stage.run()) ? runs.get(stage.run()).order() : List.of());
      stage.parts().forEach(p -> order.add(p.system()));
      String first = runs.containsKey(stage.run()) ? runs.get(stage.run()).loadAverageStart() : loadStart;
      runs.put(stage.run(), new RunInfo(stage.run(), order, first, MachineInfo.loadAverage()));
    }
    progress.printf("done in %s%n", Fmt.duration(Duration.ofNanos(System.nanoTime() - start)));
    return new Outcome<>(windows, List.copyOf(runs.values()), failures);
  }

  private static void failed(Failed e, List<String> failures, PrintStream progress) {
    failures.add(e.getMessage());
    progress.println("  FAILED " + e.getMessage());
  }

  /** Closes {@code on}; a failure to close is said and the others are closed all the same. */
  private static void close(Started<?> on, PrintStream progress) {
    try {
      on.close();
    } catch (RuntimeException e) {
      progress.println("  closing a part failed: " + e);
    }
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
