package io.boltgen.bench.report;

import io.boltgen.bench.run.Measured;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.ClusterBalancing;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cluster load's windows folded over rounds: per policy, the median of each metric and its range over rounds,
 * as the Markdown block printed at the end and, in {@link #page}, the whole of docs/benchmarks-cluster.md. Instance 0
 * is the slow one.
 */
public final class ClusterReport {

  private final ClusterBalancing cluster;
  private final Map<String, Row> rows = new LinkedHashMap<>();

  /** The report of the cluster load's {@code windows}, one per policy and round. */
  public ClusterReport(ClusterBalancing cluster, List<Window> windows) {
    this.cluster = cluster;
    Row.fold(windows, cluster.policies().stream().map(BalancingPolicy::name).toList(), List.of("cluster"))
        .forEach((policy, bySystem) -> {
          if (bySystem.containsKey("cluster")) {
            rows.put(policy, bySystem.get("cluster"));
          }
        });
  }

  /** The row of each policy that has windows, by name, in the order the policies ran. */
  public Map<String, Row> rows() {
    return rows;
  }

  /** One window, for a progress line. */
  public static String describe(Window w) {
    Measured m = w.m();
    return String.format(Locale.ROOT, "%9s/s  p50 %8s  p99 %8s  p99.9 %8s  to the slow instance %6s%s",
        Fmt.rate(m.throughput()), Fmt.micros(m.p50Us()), Fmt.micros(m.p99Us()), Fmt.micros(m.p999Us()),
        percent(m.share(0)), m.errors() > 0 ? "  ERRORS " + m.errors() + " (" + m.firstError() + ")" : "");
  }

  /**
   * The Markdown block: when, where and with which command it was measured, the setup in one paragraph, and one row
   * per policy.
   */
  public String markdown(Instant started, Duration took, Map<String, String> machine, String loadAverageEnd,
      String command, List<String> caveats) {
    StringBuilder md = new StringBuilder();
    md.append(Markdown.measured(started, took)).append(" on ").append(machine.get("CPU")).append(", ")
        .append(machine.get("cores")).append(", ").append(machine.get("JDK")).append("; load average ")
        .append(machine.get("load average at start")).append(" at the start, ").append(loadAverageEnd)
        .append(" at the end. Command:\n\n```\n").append(command).append("\n```\n\n");
    md.append(Markdown.warnings(caveats, List.of()));
    md.append(Markdown.fill("cluster-setup.md", "instances", ClusterBalancing.INSTANCES, "slow", cluster.slowMillis(),
        "concurrency", cluster.concurrency(), "payload", ClusterBalancing.PAYLOAD_BYTES, "warmup",
        Fmt.seconds(cluster.setup().warmup()), "measure", Fmt.seconds(cluster.setup().measure()), "rounds",
        cluster.rounds()));
    Table t = new Table("lrrrrrrrr", "policy", "calls/s", "p50", "p99", "p99.9", "share to the slow instance",
        "p50 of the slow instance's calls", "shares, all rounds (slow first)", "errors");
    for (Row r : rows.values()) {
      t.row(r.point(), r.spread(Measured::throughput).format(Fmt::rate), r.spread(Measured::p50Us).format(Fmt::micros),
          r.spread(Measured::p99Us).format(Fmt::micros), r.spread(Measured::p999Us).format(Fmt::micros),
          r.spread(m -> m.share(0)).format(ClusterReport::percent),
          r.spread(m -> m.instanceP50Us().get(0)).format(Fmt::micros), shares(r), r.errors());
    }
    List<String> notes = new ArrayList<>();
    rows.values().forEach(r -> notes.add(r.errorNote(r.point())));
    List<String> noisy = rows.values().stream().flatMap(r -> r.windows().stream()).filter(w -> w.m().noisy())
        .map(w -> w.point() + " (round " + w.run() + ")").toList();
    notes.add(noisy.isEmpty() ? "" : Markdown.noisy("used", "", noisy));
    String list = Markdown.list(notes);
    return md.append(t.markdown()).append(list.isEmpty() ? "" : "\n" + list).toString();
  }

  /**
   * The whole of docs/benchmarks-cluster.md: what the command measures and how (the prose beside this class), then
   * the {@link #markdown} block of this run.
   */
  public String page(Instant started, Duration took, Map<String, String> machine, String loadAverageEnd,
      String command, List<String> caveats) {
    return Markdown.title("Benchmarks: balancing around a slow instance", ClusterReport.class, List.of(), List.of())
        + "[benchmarks.md](benchmarks.md) lists every report.\n\n" + Markdown.resource("cluster-method.md")
        + "## Results\n\n" + markdown(started, took, machine, loadAverageEnd, command, caveats);
  }

  /** Every instance's share of the calls of all rounds together, the slow instance first: {@code 2.1% · 48.8% · …}. */
  private static String shares(Row r) {
    long calls = r.windows().stream().mapToLong(w -> w.m().calls()).sum();
    List<String> shares = new ArrayList<>();
    for (int i = 0; i < r.windows().get(0).m().instanceCalls().size(); i++) {
      int instance = i;
      long mine = r.windows().stream().mapToLong(w -> w.m().instanceCalls().get(instance)).sum();
      shares.add(percent(calls > 0 ? mine / (double) calls : 0));
    }
    return String.join(" · ", shares);
  }

  /** A share as a percentage: {@code 33.3%}. */
  static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }
}
