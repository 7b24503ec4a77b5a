package io.boltgen.bench.mesh;

import io.boltgen.bench.run.Wrk;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The {@code mesh} command: the 2018 Alibaba mesh-agent contest on loopback. One etcd, three provider JVMs of
 * {@link HashService} (50 ms per call, 200 threads each, capacities 1:2:3), and the gateway ({@code GatewayMain}) as a
 * JVM of its own, loaded by wrk with random JSON texts at each connection count, once per balancing policy (a fresh
 * gateway per policy); the same closed loop through a boltgen client in this JVM (no HTTP); then the freeze: the
 * large provider stopped (SIGSTOP) and continued (SIGCONT) under load, throughput sampled every 250 ms. Then the
 * report ({@link MeshReport}). Everything started is stopped at the end, also on failure.
 */
public final class MeshBench {

  public static final List<Integer> DEFAULT_CONNECTIONS = List.of(128, 256, 512);
  public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(10);
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);
  public static final List<BalancingPolicy> DEFAULT_POLICIES = List.of(BalancingPolicy.LEAST_PENDING,
      BalancingPolicy.ROUND_ROBIN, BalancingPolicy.WEIGHTED_RANDOM);
  public static final Freeze DEFAULT_FREEZE = new Freeze(512, Duration.ofSeconds(10), Duration.ofSeconds(10),
      Duration.ofSeconds(40));
  public static final long DEFAULT_LEASE_SECONDS = 10;
  public static final long DEFAULT_SEED = 42;
  public static final int DEFAULT_WRK_THREADS = 2;
  /** Each provider's pool, and its stated maxConcurrentCalls. */
  public static final int THREADS = 200;
  /** Each call's work at the provider. */
  public static final long DELAY_MILLIS = 50;
  /** The freeze's sampling period. */
  public static final Duration SAMPLE = Duration.ofMillis(250);
  /** The mode of the direct client's points. */
  public static final String DIRECT = "direct";
  /** The key prefix the providers are registered under (EtcdRegistry's default layout). */
  static final String REGISTERED = "/boltgen/services/mesh.Hash:1.0/";

  /**
   * The freeze scenario: under {@code connections} through the gateway (default policy) for {@code run}, the large
   * provider stopped at {@code at} for {@code length}.
   */
  public record Freeze(int connections, Duration at, Duration length, Duration run) {
    public Freeze {
      if (connections < 1 || at.isNegative() || length.isNegative() || at.plus(length).compareTo(run) >= 0) {
        throw new IllegalArgumentException("the freeze must end before its run: at " + at.toMillis() + " ms for "
            + length.toMillis() + " ms in a run of " + run.toMillis() + " ms");
      }
    }
  }

  /**
   * What to run.
   *
   * @param connections wrk's connections, and the direct client's calls in flight, per point
   * @param policies the gateway's balancing policies, one gateway each
   * @param direct whether to measure the direct client
   * @param freeze the freeze, or null for none
   * @param leaseSeconds the providers' etcd lease
   * @param seed the random texts' seed (wrk thread n: seed + n; direct caller i: seed + i)
   * @param outDir where the report and its chart go, or null for none
   * @param command the command line, for the report
   * @param caveats why this is not the full measurement
   */
  public record Settings(List<Integer> connections, Duration warmup, Duration duration, List<BalancingPolicy> policies,
      boolean direct, Freeze freeze, long leaseSeconds, int wrkThreads, long seed, Path wrk, QuietPolicy quiet,
      List<String> jvmFlags, Path logDir, Path outDir, String command, List<String> caveats) {

    public Settings {
      connections = List.copyOf(connections);
      policies = List.copyOf(policies);
      jvmFlags = List.copyOf(jvmFlags);
      caveats = List.copyOf(caveats);
      if (connections.isEmpty() || connections.stream().anyMatch(c -> c < wrkThreads) || wrkThreads < 1
          || (policies.isEmpty() && !direct && freeze == null) || leaseSeconds < 1) {
        throw new IllegalArgumentException("mesh needs connection counts of at least wrk's threads each, something to"
            + " measure (a policy, the direct client or the freeze) and a lease of at least 1 s");
      }
    }
  }

  /**
   * One measured window: a mode at a connection count.
   *
   * @param mode the policy's id ({@code least-pending}) through the gateway, or {@link #DIRECT}
   * @param requests answered in the window (wrk's requests, whatever their status; the direct client's answers)
   * @param providerCalls calls each provider answered in the window, small to large
   * @param mostAtOnce the most calls any provider ran at once in the window
   * @param refused calls the providers' pools refused in the window
   * @param cpuUsPerRequest the gateway's CPU per request (the direct client's own for {@link #DIRECT})
   * @param machineBusyPercent all CPUs' busy time in the window, % of all of them
   * @param otherCpuPercent processes other than the benchmark's, % of one core
   */
  public record Window(String mode, int connections, long requests, double seconds, double qps, double p50Us,
      double p99Us, double maxUs, long errors, String errorText, List<Long> providerCalls, int mostAtOnce, long refused,
      double cpuUsPerRequest, double machineBusyPercent, double otherCpuPercent, int attempts, boolean noisy) {

    public Window {
      providerCalls = List.copyOf(providerCalls);
    }

    /** The physical ceiling: every connection one call per 50 ms. */
    public double ceiling() {
      return MeshBench.ceiling(connections);
    }

    /** Provider {@code i}'s share of the window's calls (NaN without calls). */
    public double share(int i) {
      long all = providerCalls.stream().mapToLong(Long::longValue).sum();
      return all == 0 ? Double.NaN : providerCalls.get(i) / (double) all;
    }

    Window attempts(int n, boolean isNoisy) {
      return new Window(mode, connections, requests, seconds, qps, p50Us, p99Us, maxUs, errors, errorText, providerCalls,
          mostAtOnce, refused, cpuUsPerRequest, machineBusyPercent, otherCpuPercent, n, isNoisy);
    }
  }

  /**
   * One sample of the freeze's timeline.
   *
   * @param seconds since the measured wrk run started
   * @param answered the providers' answered calls summed (a frozen provider's last count)
   * @param registered instances registered in etcd, or -1 when not asked in this sample
   * @param frozen whether the large provider was stopped from this sample on (the signals are sent right after the
   *     counts are read)
   */
  public record Sample(double seconds, long answered, int registered, boolean frozen) {}

  /**
   * What the freeze measured.
   *
   * @param stoppedAt when SIGSTOP was sent, seconds into the run
   * @param continuedAt when SIGCONT was sent
   * @param before calls/s over the second half of the time before the freeze
   * @param during calls/s while the large provider was stopped
   * @param duringMin the lowest 1-second rate while it was stopped
   * @param recoverySeconds after SIGCONT, when the next second's rate was first within 5% of {@code before}; NaN if
   *     never within the run
   * @param mostAtOnce the most calls any provider ran at once during the run
   * @param minRegistered the fewest instances etcd listed during the run
   */
  public record FreezeResult(Freeze freeze, Wrk.Report wrk, List<Sample> samples, double stoppedAt, double continuedAt,
      double before, double during, double duringMin, double recoverySeconds, int mostAtOnce, long refused,
      int minRegistered, double otherCpuPercent) {

    public FreezeResult {
      samples = List.copyOf(samples);
    }
  }

  /**
   * What came out.
   *
   * @param pinned whether the small provider ran under {@code taskset -c 0}
   * @param route the gateway's route of {@code hash}
   */
  public record Result(List<Window> points, FreezeResult freeze, boolean pinned, String route, List<String> failures,
      List<String> caveats) {}

  private MeshBench() {}

  /** Calls per second of {@code connections} closed loops of 50 ms each. */
  public static double ceiling(int connections) {
    return connections * 1000.0 / DELAY_MILLIS;
  }

  /** How long {@code s} takes when no window is measured again: the loads, and 5 s per JVM started. */
  public static Duration estimate(Settings s) {
    Duration point = s.warmup().plus(s.duration());
    int points = s.connections().size() * (s.policies().size() + (s.direct() ? 1 : 0));
    Duration total = point.multipliedBy(points).plusSeconds(5L * (3 + s.policies().size()));
    if (s.freeze() != null) {
      total = total.plus(s.warmup()).plus(s.freeze().run()).plusSeconds(5);
    }
    return total;
  }

  /** The id of {@code policy} on the gateway's command line: {@code least-pending}. */
  public static String id(BalancingPolicy policy) {
    return policy.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Calls per second between {@code from} and {@code to} seconds by the samples nearest after each; NaN if none. */
  public static double rate(List<Sample> samples, double from, double to) {
    Sample a = null;
    Sample b = null;
    for (Sample x : samples) {
      if (a == null && x.seconds() >= from - 1e-9) {
        a = x;
      }
      if (b == null && x.seconds() >= to - 1e-9) {
        b = x;
      }
    }
    if (b == null && !samples.isEmpty()) {
      b = samples.get(samples.size() - 1);
    }
    if (a == null || b == null || b.seconds() <= a.seconds()) {
      return Double.NaN;
    }
    return (b.answered() - a.answered()) / (b.seconds() - a.seconds());
  }

  static double secs(Duration d) {
    return d.toMillis() / 1000.0;
  }
}
