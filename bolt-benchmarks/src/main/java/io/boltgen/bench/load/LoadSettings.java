package io.boltgen.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the orchestrator runs and how.
 *
 * @param systems the systems, in order (run r starts with the one at index (r - 1) mod n, see {@link Rotation})
 * @param cases the cases each system runs, in order, in one client JVM per system and run
 * @param runs how many times the whole matrix runs (systems interleaved within each run)
 * @param warmup the warm-up of each case
 * @param measure the measured window of each case
 * @param warmUpPass the client's unmeasured pass over every case before the first is measured, all cases together
 * @param quiet when a window in which other processes took CPU is measured again
 * @param jvmFlags JVM flags of every child (server and client)
 * @param serverJvmArgs extra JVM arguments of server JVMs (e.g. a JFR recording)
 * @param clientJvmArgs extra JVM arguments of client JVMs
 * @param keepServer after each system's client finishes, keep its server running until Enter is pressed
 * @param logDir where each child's output goes
 * @param host the loopback address servers bind and clients call
 */
public record LoadSettings(
    List<EchoSystem> systems,
    List<LoadCase> cases,
    int runs,
    Duration warmup,
    Duration measure,
    Duration warmUpPass,
    QuietPolicy quiet,
    List<String> jvmFlags,
    List<String> serverJvmArgs,
    List<String> clientJvmArgs,
    boolean keepServer,
    Path logDir,
    String host) {

  /** The JVM flags of every child JVM unless told otherwise: the same for every system. */
  public static final List<String> DEFAULT_JVM_FLAGS = List.of(
      "-Xms1g", "-Xmx1g", "-XX:+UseG1GC",
      "-Dio.netty.leakDetection.level=disabled",
      "-Dio.grpc.netty.shaded.io.netty.leakDetection.level=disabled");

  /** The default warm-up pass: the ~40 s a JVM pair took under load on a 2-core machine to reach its steady state. */
  public static final Duration DEFAULT_WARM_UP_PASS = Duration.ofSeconds(40);

  /** Measured windows in all: every case, and the first case once more, per system and run. */
  public int windows() {
    return runs * systems.size() * windowsPerClient();
  }

  /** Measured windows of one client: its cases and the repeat of the first. */
  public int windowsPerClient() {
    return cases.isEmpty() ? 0 : cases.size() + 1;
  }

  /** A rough duration of the whole matrix, JVM starts included, no window measured again. */
  public Duration estimate() {
    Duration perCase = warmup.plus(measure).plusMillis(300);
    Duration perSystemRun = perCase.multipliedBy(windowsPerClient()).plus(warmUpPass).plusSeconds(4);
    return perSystemRun.multipliedBy((long) runs * systems.size());
  }
}
