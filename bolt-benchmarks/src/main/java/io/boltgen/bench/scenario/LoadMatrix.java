package io.boltgen.bench.scenario;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.system.EchoSystem;
import io.boltgen.bench.system.Systems;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The load matrix: in each run every system in turn, the order rotating from run to run, each in a fresh server
 * JVM and client JVM; the client warms up over every case (the warm-up pass), then measures each case, then the
 * first case again (the warm-up check).
 *
 * @param systems the systems, in order (run r starts with the one at index (r - 1) mod n)
 * @param cases the cases each client measures, in order
 * @param runs how many times the whole matrix runs
 * @param warmUpPass the client's unmeasured pass over every case before the first is measured, all cases together
 * @param serverJvmArgs extra JVM arguments of server JVMs (e.g. a JFR recording)
 * @param clientJvmArgs extra JVM arguments of client JVMs
 * @param keepServer after each system's cases, keep its server running until Enter is pressed
 */
public record LoadMatrix(List<EchoSystem> systems, List<Point> cases, int runs, Duration warmUpPass, Setup setup,
    List<String> serverJvmArgs, List<String> clientJvmArgs, boolean keepServer) implements Scenario.OfPairs {

  /** The ~40 s a JVM pair took under load on a 2-core machine to reach its steady state. */
  public static final Duration DEFAULT_WARM_UP_PASS = Duration.ofSeconds(40);
  public static final List<String> DEFAULT_WORKLOADS = List.of("sync-32", "async-256");
  public static final List<Integer> DEFAULT_PAYLOADS = List.of(100, 1024);

  /**
   * The case of {@code workload} ({@code sync-32}: 32 threads making blocking calls; {@code async-256}: 256 calls
   * in flight; {@code sync} and {@code async} for short) at {@code payloadBytes}, on one connection.
   */
  public static Point point(String workload, int payloadBytes) {
    String w = workload.trim().toLowerCase(Locale.ROOT);
    boolean sync = w.equals("sync") || w.equals("sync-32");
    if (!sync && !w.equals("async") && !w.equals("async-256")) {
      throw new IllegalArgumentException("unknown workload " + workload + " (sync-32 or async-256)");
    }
    String label = sync ? "sync-32" : "async-256";
    return new Point(label + "/" + Point.bytes(payloadBytes), sync, 1, sync ? 32 : 256, payloadBytes, "");
  }

  /** {@code workloads} × {@code payloads}. */
  public static List<Point> cases(List<String> workloads, List<Integer> payloads) {
    List<Point> cases = new ArrayList<>();
    workloads.forEach(w -> payloads.forEach(p -> cases.add(point(w, p))));
    return cases;
  }

  /**
   * Whether this is the whole matrix: both workloads at 100 B and 1 KiB, and systems holding everything the Targets
   * compare (boltgen's default, raw Netty, a SOFABolt and a gRPC configuration).
   */
  public boolean complete() {
    List<String> families = systems.stream().map(EchoSystem::family).toList();
    return systems.stream().anyMatch(s -> s.id().equals(Systems.BOLTGEN_DEFAULT)) && families.contains("netty")
        && families.contains("sofabolt") && families.contains("grpc")
        && cases.equals(cases(DEFAULT_WORKLOADS, DEFAULT_PAYLOADS));
  }

  @Override
  public List<Stage<Pair>> stages() {
    List<Stage<Pair>> stages = new ArrayList<>();
    for (int run = 1; run <= runs; run++) {
      for (EchoSystem s : Scenario.rotation(systems, run)) {
        List<String> client = new ArrayList<>(List.of("client", "--system", s.id()));
        client.addAll(Scenario.warmUp(cases, warmUpPass));
        Pair pair = new Pair(s.id(), "run" + run + "-" + s.id(), s.description(),
            List.of("server", "--system", s.id()), client, warmUpPass, serverJvmArgs, clientJvmArgs, s.java());
        List<Slot> slots = new ArrayList<>();
        for (Point c : cases) {
          slots.add(new Slot(s.id(), c, run, false));
        }
        if (!cases.isEmpty()) {
          slots.add(new Slot(s.id(), cases.get(0), run, true));
        }
        stages.add(new Stage<>("run " + run + "/" + runs, run, List.of(pair), slots));
      }
    }
    return stages;
  }

  @Override
  public String header() {
    return String.format(Locale.ROOT, "load: %d system(s) × (%d case(s) + the first again) × %d run(s) = %d windows of %ss"
            + " warm-up + %ss measured, after a %ss warm-up pass per client; windows where other processes took more"
            + " than %s%% of a core measured again up to %d time(s); about %s. Child logs: %s", systems.size(),
        cases.size(), runs, windows(), Fmt.seconds(setup.warmup()), Fmt.seconds(setup.measure()),
        Fmt.seconds(warmUpPass), Fmt.num(setup.quiet().thresholdPercent(), 1), setup.quiet().maxRepeats(),
        Fmt.duration(estimate()), setup.logDir());
  }

  @Override
  public Duration estimate() {
    Duration perCase = setup.warmup().plus(setup.measure()).plusMillis(300);
    return perCase.multipliedBy(cases.size() + 1L).plus(warmUpPass).plusSeconds(4).multipliedBy((long) runs * systems.size());
  }
}
