package io.boltgen.bench.load;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one system did at one point of a scaling curve. Travels from the client JVM to the orchestrator as one
 * line, like {@link CaseResult}.
 *
 * @param system the system's id
 * @param point the point
 * @param m what its measured window saw
 */
public record PointResult(String system, ScalePoint point, Measured m) {

  /** Successful calls per second. */
  public double throughput() {
    return m.seconds() > 0 ? m.calls() / m.seconds() : 0;
  }

  /** Payload bytes per second in each direction (requests out, the same again in echoes), in MB (10⁶ B). */
  public double megabytesPerSecondEachWay() {
    return throughput() * point.payloadBytes() / 1e6;
  }

  /** Client plus server CPU µs per call. */
  public double cpuUs() {
    return m.clientCpuUs() + m.serverCpuUs();
  }

  /** One line of tab-separated {@code key=value} pairs. */
  public String toLine() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("system", system);
    f.put("point", point.token());
    f.put("calls", Long.toString(m.calls()));
    f.put("errors", Long.toString(m.errors()));
    f.put("seconds", Double.toString(m.seconds()));
    f.put("p50", Double.toString(m.p50Us()));
    f.put("p99", Double.toString(m.p99Us()));
    f.put("p999", Double.toString(m.p999Us()));
    f.put("max", Double.toString(m.maxUs()));
    f.put("clientCpu", Double.toString(m.clientCpuUs()));
    f.put("serverCpu", Double.toString(m.serverCpuUs()));
    f.put("clientJitMs", Double.toString(m.clientJitMs()));
    f.put("clientGcMs", Double.toString(m.clientGcMs()));
    f.put("clientAlloc", Double.toString(m.clientAllocBytes()));
    f.put("serverAlloc", Double.toString(m.serverAllocBytes()));
    f.put("serverConnections", Integer.toString(m.serverConnections()));
    f.put("otherCpu", Double.toString(m.otherCpuPercent()));
    f.put("attempts", Integer.toString(m.attempts()));
    f.put("noisy", Boolean.toString(m.noisy()));
    f.put("firstError", m.firstError().replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
    StringBuilder sb = new StringBuilder();
    f.forEach((k, v) -> sb.append(sb.length() > 0 ? "\t" : "").append(k).append('=').append(v));
    return sb.toString();
  }

  /** Parses {@link #toLine()}. */
  public static PointResult parse(String line) {
    Map<String, String> f = new LinkedHashMap<>();
    for (String part : line.split("\t")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        f.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    Measured m = new Measured(Long.parseLong(f.get("calls")), Long.parseLong(f.get("errors")),
        f.getOrDefault("firstError", ""), d(f, "seconds"), d(f, "p50"), d(f, "p99"), d(f, "p999"), d(f, "max"),
        d(f, "clientCpu"), d(f, "serverCpu"), d(f, "clientJitMs"), d(f, "clientGcMs"), d(f, "clientAlloc"),
        d(f, "serverAlloc"), Integer.parseInt(f.get("serverConnections")), d(f, "otherCpu"),
        Integer.parseInt(f.get("attempts")), Boolean.parseBoolean(f.get("noisy")));
    return new PointResult(f.get("system"), ScalePoint.parse(f.get("point")), m);
  }

  private static double d(Map<String, String> f, String key) {
    return Double.parseDouble(f.get(key));
  }
}
