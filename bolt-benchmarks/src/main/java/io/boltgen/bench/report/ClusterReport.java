package io.boltgen.bench.report;

import io.boltgen.bench.load.ClusterResult;
import io.boltgen.bench.load.ClusterSettings;
import io.boltgen.runtime.cluster.LoadBalancer;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

/**
 * The {@code cluster} case's results folded over rounds: per policy, the median of each metric and its
 * range over rounds, and the Markdown block printed at the end (ready to paste under "Cluster: balancing
 * around a slow instance" in docs/benchmarks.md).
 */
public final class ClusterReport {

  /**
   * One policy over every round.
   *
   * @param policy the policy
   * @param throughput calls per second
   * @param p50 median latency, µs
   * @param p99 99th percentile, µs
   * @param p999 99.9th percentile, µs
   * @param slowShare the share of calls the slow instance answered, 0..1
   * @param slowP50 the median latency of the calls the slow instance answered, µs
   * @param instanceShares every instance's share of the calls of all rounds together, slow instance first
   * @param errors failed calls over all rounds
   * @param firstError one failure's description, or empty
   */
  public record Row(LoadBalancer policy, Spread throughput, Spread p50, Spread p99, Spread p999, Spread slowShare,
      Spread slowP50, List<Double> instanceShares, long errors, String firstError) {}

  private final ClusterSettings settings;
  private final Map<LoadBalancer, Row> rows = new LinkedHashMap<>();

  public ClusterReport(ClusterSettings settings, List<ClusterResult> results) {
    this.settings = settings;
    for (LoadBalancer policy : settings.policies()) {
      List<ClusterResult> mine = new ArrayList<>();
      for (ClusterResult r : results) {
        if (r.policy() == policy) {
          mine.add(r);
        }
      }
      if (mine.isEmpty()) {
        continue;
      }
      long errors = 0;
      String firstError = "";
      long[] perInstance = new long[mine.get(0).instanceCalls().size()];
      long calls = 0;
      for (ClusterResult r : mine) {
        errors += r.errors();
        if (firstError.isEmpty()) {
          firstError = r.firstError();
        }
        for (int i = 0; i < perInstance.length; i++) {
          perInstance[i] += r.instanceCalls().get(i);
        }
        calls += r.calls();
      }
      int slow = mine.get(0).slowIndex();
      List<Double> shares = new ArrayList<>();
      shares.add(calls > 0 ? perInstance[slow] / (double) calls : 0);
      for (int i = 0; i < perInstance.length; i++) {
        if (i != slow) {
          shares.add(calls > 0 ? perInstance[i] / (double) calls : 0);
        }
      }
      rows.put(policy, new Row(policy, spread(mine, ClusterResult::throughput), spread(mine, ClusterResult::p50Us),
          spread(mine, ClusterResult::p99Us), spread(mine, ClusterResult::p999Us), spread(mine, ClusterResult::slowShare),
          spread(mine, r -> r.instanceP50Us().get(r.slowIndex())), shares, errors, firstError));
    }
  }

  private static Spread spread(List<ClusterResult> results, ToDoubleFunction<ClusterResult> metric) {
    List<Double> values = new ArrayList<>();
    for (ClusterResult r : results) {
      values.add(metric.applyAsDouble(r));
    }
    return Spread.of(values);
  }

  /** The rows by policy, in the order the policies ran. */
  public Map<LoadBalancer, Row> rows() {
    return rows;
  }

  /** One window's result, for a progress line. */
  public static String describe(ClusterResult r) {
    return String.format(Locale.ROOT, "%9s/s  p50 %8s  p99 %8s  p99.9 %8s  to the slow instance %6s%s",
        Fmt.rate(r.throughput()), Fmt.micros(r.p50Us()), Fmt.micros(r.p99Us()), Fmt.micros(r.p999Us()),
        percent(r.slowShare()), r.errors() > 0 ? "  ERRORS " + r.errors() + " (" + r.firstError() + ")" : "");
  }

  /**
   * The Markdown block: when, where and with which command it was measured, the setup in one paragraph, and
   * one row per policy.
   */
  public String markdown(Instant started, Duration took, Map<String, String> machine) {
    StringBuilder md = new StringBuilder();
    md.append("Measured ").append(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(started.atOffset(ZoneOffset.UTC).withNano(0)))
        .append(" UTC in ").append(Fmt.duration(took)).append(" on ").append(machine.get("CPU")).append(", ")
        .append(machine.get("cores")).append(", ").append(machine.get("JDK")).append("; load average ")
        .append(machine.get("load average at start")).append(" at the start, ").append(MachineInfo.loadAverage())
        .append(" at the end. Command:\n\n```\n").append(settings.command()).append("\n```\n\n");
    if (!settings.caveats().isEmpty()) {
      md.append("> **Not a full measurement — do not quote these numbers.** ")
          .append(String.join("; ", settings.caveats())).append(".\n\n");
    }
    md.append(String.format(Locale.ROOT, "%d boltgen echo servers (defaults) in one server JVM, one of them answering"
            + " %d ms late; %d async callers in one client JVM, each keeping one call of %d B in flight, through"
            + " `BoltClient.channel(\"static:///…\", policy)`; per window %s s of warm-up, then %s s measured; %d"
            + " round(s), the policies alternating within each. Each cell: the median over rounds, the range over"
            + " rounds in brackets when there was more than one.%n%n",
        ClusterSettings.INSTANCES, settings.slowMillis(), settings.concurrency(), settings.payloadBytes(),
        Fmt.seconds(settings.warmup()), Fmt.seconds(settings.measure()), settings.rounds()));
    md.append("| policy | calls/s | p50 | p99 | p99.9 | share to the slow instance | p50 of the slow instance's calls"
        + " | shares, all rounds (slow first) | errors |\n");
    md.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (Row r : rows.values()) {
      StringBuilder shares = new StringBuilder();
      for (double s : r.instanceShares()) {
        shares.append(shares.length() > 0 ? " · " : "").append(percent(s));
      }
      md.append("| ").append(r.policy().name()).append(" | ").append(spread(r.throughput(), Fmt::rate)).append(" | ")
          .append(spread(r.p50(), Fmt::micros)).append(" | ").append(spread(r.p99(), Fmt::micros)).append(" | ")
          .append(spread(r.p999(), Fmt::micros)).append(" | ").append(spread(r.slowShare(), ClusterReport::percent))
          .append(" | ").append(spread(r.slowP50(), Fmt::micros)).append(" | ").append(shares).append(" | ")
          .append(r.errors()).append(" |\n");
    }
    String gap = "\n";
    for (Row r : rows.values()) {
      if (r.errors() > 0) {
        md.append(gap).append("- ").append(r.policy().name()).append(": ").append(r.errors())
            .append(" failed calls, e.g. `").append(r.firstError().replace("`", "'")).append("`\n");
        gap = "";
      }
    }
    return md.toString();
  }

  private static String spread(Spread s, DoubleFunction<String> format) {
    if (s.n() < 2) {
      return format.apply(s.median());
    }
    return format.apply(s.median()) + " (" + format.apply(s.min()) + "–" + format.apply(s.max()) + ")";
  }

  /** A share as a percentage: {@code 33.3%}. */
  static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }
}
