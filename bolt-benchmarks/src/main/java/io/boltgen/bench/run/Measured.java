package io.boltgen.bench.run;

import java.util.List;

/**
 * What one measured window saw (the one kept when noisy windows were measured again). Latencies in microseconds;
 * CPU in microseconds and allocation in bytes per successful call.
 *
 * @param calls successful calls completed in the window
 * @param errors failed calls (and wrong echoes)
 * @param firstError the first failure's description, or empty
 * @param seconds the window's length
 * @param clientCpuUs the client JVM's CPU per call
 * @param serverCpuUs the server JVM's CPU per call
 * @param clientJitMs the client JVM's compilation time in the window: a warm-up too short shows here
 * @param clientGcMs the client JVM's GC time in the window
 * @param clientAllocBytes heap bytes the client JVM allocated per call (NaN if unknown)
 * @param serverAllocBytes heap bytes the server JVM allocated per call (NaN if unknown)
 * @param serverConnections established connections to the server's port at the window's start (-1 if unknown)
 * @param otherCpuPercent other processes' CPU in the window, % of one core (NaN if unknown)
 * @param attempts windows measured to get this one (1 unless noisy ones were measured again)
 * @param noisy whether this window was still noisy (every attempt was)
 * @param instanceCalls successful calls per server instance that answered, when there are several (else empty)
 * @param instanceP50Us median latency of the calls of each of those instances (0 for one that got none)
 */
public record Measured(long calls, long errors, String firstError, double seconds, double p50Us, double p99Us,
    double p999Us, double maxUs, double clientCpuUs, double serverCpuUs, double clientJitMs, double clientGcMs,
    double clientAllocBytes, double serverAllocBytes, int serverConnections, double otherCpuPercent, int attempts,
    boolean noisy, List<Long> instanceCalls, List<Double> instanceP50Us) {

  public Measured {
    instanceCalls = List.copyOf(instanceCalls);
    instanceP50Us = List.copyOf(instanceP50Us);
  }

  /** Successful calls per second. */
  public double throughput() {
    return seconds > 0 ? calls / seconds : 0;
  }

  /** Client plus server CPU per call, µs. */
  public double cpuUs() {
    return clientCpuUs + serverCpuUs;
  }

  /** The share of the window the client JVM spent compiling, %. */
  public double clientJitPercent() {
    return seconds > 0 ? clientJitMs / (seconds * 1000) * 100 : 0;
  }

  /** The share of the calls instance {@code index} answered, 0..1. */
  public double share(int index) {
    return calls > 0 ? instanceCalls.get(index) / (double) calls : 0;
  }

  Measured withAttempts(int attempts, boolean noisy) {
    return new Measured(calls, errors, firstError, seconds, p50Us, p99Us, p999Us, maxUs, clientCpuUs, serverCpuUs,
        clientJitMs, clientGcMs, clientAllocBytes, serverAllocBytes, serverConnections, otherCpuPercent, attempts, noisy,
        instanceCalls, instanceP50Us);
  }
}
