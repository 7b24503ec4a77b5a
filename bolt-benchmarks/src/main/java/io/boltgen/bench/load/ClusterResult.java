package io.boltgen.bench.load;

import io.boltgen.runtime.cluster.LoadBalancer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one measured window of the {@code cluster} case produced: one policy in one round. Latencies in
 * microseconds. Travels from the client JVM to the orchestrator as one line.
 *
 * @param policy the balancing policy
 * @param round which round (1-based)
 * @param calls successful calls completed in the window
 * @param errors failed calls (and wrong echoes) in the window
 * @param seconds the window's length
 * @param p50Us median latency, over every instance
 * @param p99Us 99th percentile
 * @param p999Us 99.9th percentile
 * @param maxUs largest latency
 * @param instanceCalls successful calls per instance, by index
 * @param instanceP50Us median latency per instance, by index (0 for an instance that got no call)
 * @param slowIndex the index of the slow instance
 * @param firstError the first failure's description, or empty
 */
public record ClusterResult(
    LoadBalancer policy,
    int round,
    long calls,
    long errors,
    double seconds,
    double p50Us,
    double p99Us,
    double p999Us,
    double maxUs,
    List<Long> instanceCalls,
    List<Double> instanceP50Us,
    int slowIndex,
    String firstError) {

  public ClusterResult {
    instanceCalls = List.copyOf(instanceCalls);
    instanceP50Us = List.copyOf(instanceP50Us);
  }

  /** Successful calls per second. */
  public double throughput() {
    return seconds > 0 ? calls / seconds : 0;
  }

  /** The share of the window's successful calls instance {@code index} answered, 0..1. */
  public double share(int index) {
    return calls > 0 ? instanceCalls.get(index) / (double) calls : 0;
  }

  /** The share the slow instance answered, 0..1. */
  public double slowShare() {
    return share(slowIndex);
  }

  /** One line: tab-separated {@code key=value} pairs. */
  public String toLine() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("policy", policy.name());
    m.put("round", Integer.toString(round));
    m.put("calls", Long.toString(calls));
    m.put("errors", Long.toString(errors));
    m.put("seconds", Double.toString(seconds));
    m.put("p50", Double.toString(p50Us));
    m.put("p99", Double.toString(p99Us));
    m.put("p999", Double.toString(p999Us));
    m.put("max", Double.toString(maxUs));
    m.put("instanceCalls", join(instanceCalls));
    m.put("instanceP50", join(instanceP50Us));
    m.put("slow", Integer.toString(slowIndex));
    m.put("firstError", firstError.replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
    StringBuilder sb = new StringBuilder();
    m.forEach((k, v) -> sb.append(sb.length() > 0 ? "\t" : "").append(k).append('=').append(v));
    return sb.toString();
  }

  /** Parses {@link #toLine()}. */
  public static ClusterResult parse(String line) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String part : line.split("\t")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        m.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    List<Long> calls = new ArrayList<>();
    for (String s : m.get("instanceCalls").split(",")) {
      calls.add(Long.parseLong(s));
    }
    List<Double> p50s = new ArrayList<>();
    for (String s : m.get("instanceP50").split(",")) {
      p50s.add(Double.parseDouble(s));
    }
    return new ClusterResult(LoadBalancer.valueOf(m.get("policy")), Integer.parseInt(m.get("round")),
        Long.parseLong(m.get("calls")), Long.parseLong(m.get("errors")), Double.parseDouble(m.get("seconds")),
        Double.parseDouble(m.get("p50")), Double.parseDouble(m.get("p99")), Double.parseDouble(m.get("p999")),
        Double.parseDouble(m.get("max")), calls, p50s, Integer.parseInt(m.get("slow")),
        m.getOrDefault("firstError", ""));
  }

  private static String join(List<?> values) {
    StringBuilder sb = new StringBuilder();
    for (Object v : values) {
      sb.append(sb.length() > 0 ? "," : "").append(v);
    }
    return sb.toString();
  }
}
