package io.boltgen.bench.scenario;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A kind of run, as data: which parts start together (stages), and the windows then measured on them, in order. The
 * load matrix, the scaling curves and the cluster load are scenarios of JVM pairs ({@link Pair}); the http, sofarpc
 * and mesh commands' are scenarios of their own parts. One runner runs them all.
 *
 * @param <P> what its stages start
 */
public interface Scenario<P extends Scenario.Part> {

  /** The stages, in order. */
  List<Stage<P>> stages();

  /** What it runs, how long it takes, where the logs go: the line printed when it starts. */
  String header();

  /** A rough duration, JVM starts included, no window measured again. */
  Duration estimate();

  /** Whether each stage's servers stay up, after its windows, until Enter is pressed. */
  default boolean keepServer() {
    return false;
  }

  /** Measured windows in all. */
  default int windows() {
    return stages().stream().mapToInt(s -> s.slots().size()).sum();
  }

  /**
   * What every window shares.
   *
   * @param warmup the load before each measured window
   * @param measure each measured window
   * @param quiet when a window in which other processes took CPU is measured again
   * @param jvmFlags JVM flags of every child JVM
   * @param logDir where each child's output goes
   * @param host the loopback address servers bind and clients call
   */
  record Setup(Duration warmup, Duration measure, QuietPolicy quiet, List<String> jvmFlags, Path logDir, String host) {

    /** The JVM flags of every child JVM unless told otherwise: the same for every system. */
    public static final List<String> DEFAULT_JVM_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC",
        "-Dio.netty.leakDetection.level=disabled", "-Dio.grpc.netty.shaded.io.netty.leakDetection.level=disabled");

    /** The client's options for measuring windows like these. */
    public List<String> clientOptions() {
      return List.of("--warmup-ms", Long.toString(warmup.toMillis()), "--measure-ms", Long.toString(measure.toMillis()),
          "--quiet-threshold", Double.toString(quiet.thresholdPercent()), "--quiet-repeats",
          Integer.toString(quiet.maxRepeats()));
    }

    /** How long a client may take to answer for {@code point}: connections, warm-up and every attempt at the window. */
    public Duration windowTimeout(Point point) {
      return warmup.plus(measure.multipliedBy(1 + quiet.maxRepeats())).plusMillis(20L * point.connections())
          .plusSeconds(90);
    }
  }

  /** A scenario of JVM pairs, whose client JVMs measure the windows as {@link #setup} says. */
  interface OfPairs extends Scenario<Pair> {
    /** What every window of the scenario shares. */
    Setup setup();
  }

  /** What a stage starts, named by the system whose slots are measured on it. */
  interface Part {
    /** The system it is, in progress lines and in the order a run started them. */
    String system();

    /** Whether the slots of {@code slotSystem} are measured on it (those of its own system, unless told otherwise). */
    default boolean measures(String slotSystem) {
      return system().equals(slotSystem);
    }
  }

  /**
   * Parts started together, then measured window by window, then stopped.
   *
   * @param label e.g. {@code run 2}, {@code inflight curve}, for progress lines and failures
   * @param run the run the stage belongs to (1-based)
   */
  record Stage<P>(String label, int run, List<P> parts, List<Slot> slots) {}

  /**
   * One system's server JVM and client JVM.
   *
   * @param tag names their log files: {@code <tag>-server.log}, {@code <tag>-client.log}
   * @param serverArgs the server's command and options
   * @param clientArgs the client's command and options; the server's address and the window options follow
   * @param warmUp how long the client warms up before it is ready
   */
  record Pair(String system, String tag, String description, List<String> serverArgs, List<String> clientArgs,
      Duration warmUp, List<String> serverJvmArgs, List<String> clientJvmArgs, Path java) implements Part {}

  /** A window: {@code system}'s pair at {@code point}, in run {@code run}; {@code repeat}: the warm-up check's. */
  record Slot(String system, Point point, int run, boolean repeat) {}

  /** The client's options to warm up over {@code points} for {@code pass} in all, before it says it is ready. */
  static List<String> warmUp(List<Point> points, Duration pass) {
    return List.of("--warmup-points", Point.tokens(points), "--warmup-pass-ms", Long.toString(pass.toMillis()));
  }

  /** {@code items} in the order of run {@code run} (1-based): starting with item {@code (run - 1) mod n}. */
  static <T> List<T> rotation(List<T> items, int run) {
    List<T> out = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      out.add(items.get((Math.floorMod(run - 1, items.size()) + i) % items.size()));
    }
    return out;
  }
}
