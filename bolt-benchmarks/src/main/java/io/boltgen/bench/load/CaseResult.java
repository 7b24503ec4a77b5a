package io.boltgen.bench.load;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one measured window of one case on one system produced. Latencies are in microseconds, CPU in
 * microseconds per successful call. Travels from the client JVM to the orchestrator as one line.
 *
 * @param system the system's id
 * @param caseToken the case ({@link LoadCase#token()})
 * @param run which run (1-based)
 * @param calls successful calls completed in the window
 * @param errors failed calls (and wrong-length echoes) in the window
 * @param seconds the window's length
 * @param p50Us median latency
 * @param p99Us 99th percentile latency
 * @param p999Us 99.9th percentile latency
 * @param maxUs largest latency
 * @param clientCpuUs the client process's CPU time per call
 * @param serverCpuUs the server process's CPU time per call
 * @param clientJitMs time the client JVM spent compiling (JIT) during the window: a warm-up too short shows here
 * @param clientGcMs time the client JVM spent in GC during the window
 * @param firstError the first failure's description, or empty
 * @param otherCpuPercent CPU other processes than the two JVMs used in the window, in % of one core (NaN: unknown)
 * @param attempts windows measured to get this one: more than 1 when noisy windows were measured again
 * @param noisy whether even the kept window was noisy (other processes above the quiet threshold)
 * @param repeat whether this is the re-measurement of the client's first case after all its cases (the warm-up check)
 */
public record CaseResult(
    String system,
    String caseToken,
    int run,
    long calls,
    long errors,
    double seconds,
    double p50Us,
    double p99Us,
    double p999Us,
    double maxUs,
    double clientCpuUs,
    double serverCpuUs,
    double clientJitMs,
    double clientGcMs,
    String firstError,
    double otherCpuPercent,
    int attempts,
    boolean noisy,
    boolean repeat) {

  /** A result without the quiet-window figures (unknown other-CPU, one attempt, not a repeat). */
  public CaseResult(String system, String caseToken, int run, long calls, long errors, double seconds, double p50Us,
      double p99Us, double p999Us, double maxUs, double clientCpuUs, double serverCpuUs, double clientJitMs,
      double clientGcMs, String firstError) {
    this(system, caseToken, run, calls, errors, seconds, p50Us, p99Us, p999Us, maxUs, clientCpuUs, serverCpuUs,
        clientJitMs, clientGcMs, firstError, Double.NaN, 1, false, false);
  }

  /** Successful calls per second. */
  public double throughput() {
    return seconds > 0 ? calls / seconds : 0;
  }

  /** Client plus server CPU time per call, in microseconds. */
  public double cpuUs() {
    return clientCpuUs + serverCpuUs;
  }

  /** The share of the window the client JVM spent compiling, in percent. */
  public double clientJitPercent() {
    return seconds > 0 ? clientJitMs / (seconds * 1000) * 100 : 0;
  }

  /** The case this measured. */
  public LoadCase loadCase() {
    return LoadCase.parse(caseToken);
  }

  /** One line: tab-separated {@code key=value} pairs. */
  public String toLine() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("system", system);
    m.put("case", caseToken);
    m.put("run", Integer.toString(run));
    m.put("calls", Long.toString(calls));
    m.put("errors", Long.toString(errors));
    m.put("seconds", Double.toString(seconds));
    m.put("p50", Double.toString(p50Us));
    m.put("p99", Double.toString(p99Us));
    m.put("p999", Double.toString(p999Us));
    m.put("max", Double.toString(maxUs));
    m.put("clientCpu", Double.toString(clientCpuUs));
    m.put("serverCpu", Double.toString(serverCpuUs));
    m.put("clientJitMs", Double.toString(clientJitMs));
    m.put("clientGcMs", Double.toString(clientGcMs));
    m.put("otherCpu", Double.toString(otherCpuPercent));
    m.put("attempts", Integer.toString(attempts));
    m.put("noisy", Boolean.toString(noisy));
    m.put("repeat", Boolean.toString(repeat));
    m.put("firstError", firstError.replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
    StringBuilder sb = new StringBuilder();
    m.forEach((k, v) -> {
      if (sb.length() > 0) {
        sb.append('\t');
      }
      sb.append(k).append('=').append(v);
    });
    return sb.toString();
  }

  /** Parses {@link #toLine()}. */
  public static CaseResult parse(String line) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String part : line.split("\t")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        m.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return new CaseResult(m.get("system"), m.get("case"), Integer.parseInt(m.get("run")),
        Long.parseLong(m.get("calls")), Long.parseLong(m.get("errors")), Double.parseDouble(m.get("seconds")),
        Double.parseDouble(m.get("p50")), Double.parseDouble(m.get("p99")), Double.parseDouble(m.get("p999")),
        Double.parseDouble(m.get("max")), Double.parseDouble(m.get("clientCpu")),
        Double.parseDouble(m.get("serverCpu")), Double.parseDouble(m.getOrDefault("clientJitMs", "0")),
        Double.parseDouble(m.getOrDefault("clientGcMs", "0")), m.getOrDefault("firstError", ""),
        Double.parseDouble(m.getOrDefault("otherCpu", "NaN")), Integer.parseInt(m.getOrDefault("attempts", "1")),
        Boolean.parseBoolean(m.getOrDefault("noisy", "false")), Boolean.parseBoolean(m.getOrDefault("repeat", "false")));
  }
}
