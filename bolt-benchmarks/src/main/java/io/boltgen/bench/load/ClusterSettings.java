package io.boltgen.bench.load;

import io.boltgen.runtime.cluster.LoadBalancer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the {@code cluster} case runs and how: three boltgen echo servers in one server JVM, one of them
 * answering {@code slowMillis} late, called by {@code concurrency} async callers of one client JVM through a
 * {@code static:///} cluster channel, each policy in turn.
 *
 * @param policies the balancing policies compared, in the order each round runs them
 * @param rounds how many times every policy is measured; policies alternate within a round (A B A B …)
 * @param warmup the load before each measured window (and, once per policy, before the first round)
 * @param measure each measured window
 * @param slowMillis the extra delay of every answer of the slow instance
 * @param concurrency async callers, each keeping one call in flight
 * @param payloadBytes the payload of every call
 * @param jvmFlags JVM flags of the server and the client JVM
 * @param logDir where each child's output goes
 * @param host the loopback address the servers bind and the client calls
 * @param command the command line that ran this, for the report
 * @param caveats why these numbers are not a full measurement (short windows, few rounds, a busy machine)
 */
public record ClusterSettings(
    List<LoadBalancer> policies,
    int rounds,
    Duration warmup,
    Duration measure,
    long slowMillis,
    int concurrency,
    int payloadBytes,
    List<String> jvmFlags,
    Path logDir,
    String host,
    String command,
    List<String> caveats) {

  /** Instances in the cluster. */
  public static final int INSTANCES = 3;
  /** The index of the slow one (which one does not matter: every policy treats instances alike). */
  public static final int SLOW_INDEX = 0;

  public static final List<LoadBalancer> DEFAULT_POLICIES = List.of(LoadBalancer.ROUND_ROBIN, LoadBalancer.LEAST_PENDING);
  public static final int DEFAULT_ROUNDS = 5;
  public static final int DEFAULT_WARMUP_SECONDS = 10;
  public static final int DEFAULT_MEASURE_SECONDS = 10;
  public static final long DEFAULT_SLOW_MILLIS = 5;
  public static final int DEFAULT_CONCURRENCY = 64;
  public static final int PAYLOAD_BYTES = 100;

  public ClusterSettings {
    policies = List.copyOf(policies);
    jvmFlags = List.copyOf(jvmFlags);
    caveats = List.copyOf(caveats);
    if (policies.isEmpty() || rounds < 1 || concurrency < 1 || slowMillis < 0 || payloadBytes < 0) {
      throw new IllegalArgumentException("cluster: need a policy, rounds ≥ 1, concurrency ≥ 1, slow-ms ≥ 0");
    }
  }

  /** Measured windows in all. */
  public int windows() {
    return rounds * policies.size();
  }

  /** A rough duration of the whole case, JVM starts included. */
  public Duration estimate() {
    Duration pass = warmup.multipliedBy(policies.size());
    return pass.plus(warmup.plus(measure).plusMillis(200).multipliedBy(windows())).plusSeconds(5);
  }
}
