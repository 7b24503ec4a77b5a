package io.boltgen.bench.scenario;

import io.boltgen.bench.report.Fmt;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The cluster load: how the client's balancing policies route around one slow instance among three. One server JVM
 * runs the three boltgen echo servers, the first answering {@code slowMillis} late; one client JVM calls them
 * through a {@code static:///} cluster channel per policy with {@code concurrency} async callers. After a warm-up
 * pass over every policy, each round measures every policy in turn, each window on a fresh load.
 *
 * @param policies the balancing policies compared, in the order each round runs them
 * @param rounds how many times every policy is measured
 * @param slowMillis the extra delay of every answer of the slow instance
 * @param concurrency async callers, each keeping one call in flight
 */
public record ClusterBalancing(List<BalancingPolicy> policies, int rounds, long slowMillis, int concurrency, Setup setup)
    implements Scenario.OfPairs {

  /** Instances in the cluster; the first is the slow one (every policy treats instances alike). */
  public static final int INSTANCES = 3;
  public static final int PAYLOAD_BYTES = 100;
  public static final List<BalancingPolicy> DEFAULT_POLICIES = List.of(BalancingPolicy.ROUND_ROBIN, BalancingPolicy.LEAST_PENDING);
  public static final int DEFAULT_ROUNDS = 5;
  public static final int DEFAULT_SECONDS = 10;
  public static final long DEFAULT_SLOW_MILLIS = 5;
  public static final int DEFAULT_CONCURRENCY = 64;

  public ClusterBalancing {
    policies = List.copyOf(policies);
    if (policies.isEmpty() || rounds < 1 || concurrency < 1 || slowMillis < 0) {
      throw new IllegalArgumentException("cluster: need a policy, rounds ≥ 1, concurrency ≥ 1, slow-ms ≥ 0");
    }
  }

  /** The window of {@code policy}. */
  public Point point(BalancingPolicy policy) {
    return new Point(policy.name(), false, 1, concurrency, PAYLOAD_BYTES, policy.name());
  }

  @Override
  public List<Stage<Pair>> stages() {
    List<Point> points = policies.stream().map(this::point).toList();
    List<String> client = new ArrayList<>(List.of("client", "--system", "cluster"));
    client.addAll(Scenario.warmUp(points, setup.warmup().multipliedBy(points.size())));
    Pair pair = new Pair("cluster", "cluster", "3 boltgen servers, one slow", List.of("server", "--system", "cluster",
        "--instances", Integer.toString(INSTANCES), "--slow-ms", Long.toString(slowMillis)), client,
        setup.warmup().multipliedBy(points.size()), List.of(), List.of(), null);
    List<Slot> slots = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      for (Point p : points) {
        slots.add(new Slot("cluster", p, round, false));
      }
    }
    return List.of(new Stage<>("balancing", 1, List.of(pair), slots));
  }

  @Override
  public String header() {
    return String.format(Locale.ROOT, "cluster: %d instances (instance 0 answers %d ms late) in one server JVM; %d async"
            + " callers in one client JVM; policies %s; %d round(s) × %d windows of %ss warm-up + %ss measured; about %s."
            + " Child logs: %s", INSTANCES, slowMillis, concurrency, names(policies), rounds, policies.size(),
        Fmt.seconds(setup.warmup()), Fmt.seconds(setup.measure()), Fmt.duration(estimate()), setup.logDir());
  }

  @Override
  public Duration estimate() {
    return setup.warmup().multipliedBy(policies.size())
        .plus(setup.warmup().plus(setup.measure()).plusMillis(200).multipliedBy(windows())).plusSeconds(5);
  }

  /** {@code ROUND_ROBIN,LEAST_PENDING}. */
  public static String names(List<BalancingPolicy> policies) {
    return String.join(",", policies.stream().map(BalancingPolicy::name).toList());
  }
}
