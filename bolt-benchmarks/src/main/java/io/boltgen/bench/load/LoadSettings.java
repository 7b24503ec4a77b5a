package io.boltgen.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the orchestrator runs and how.
 *
 * @param systems the systems, in order
 * @param cases the cases each system runs, in order, in one client JVM per system and run
 * @param runs how many times the whole matrix runs (systems interleaved within each run)
 * @param warmup the warm-up of each case
 * @param measure the measured window of each case
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

  /** Measured windows in all. */
  public int windows() {
    return runs * systems.size() * cases.size();
  }

  /** The client's pass over every case before the first is measured (see LoadRunner#warmUpPass). */
  public Duration warmUpPass() {
    return warmup.multipliedBy(cases.size());
  }

  /** A rough duration of the whole matrix, JVM starts included. */
  public Duration estimate() {
    Duration perCase = warmup.multipliedBy(2).plus(measure).plusMillis(300); // with the warm-up pass
    Duration perSystemRun = perCase.multipliedBy(cases.size()).plusSeconds(4);
    return perSystemRun.multipliedBy((long) runs * systems.size());
  }
}
