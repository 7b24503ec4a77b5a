package io.boltgen.bench.load;

/**
 * What one measured window saw (the one kept when noisy windows were measured again, see {@link QuietPolicy}).
 * Latencies in microseconds; CPU in microseconds and allocation in bytes per successful call.
 *
 * @param calls successful calls completed in the window
 * @param errors failed calls (and wrong-length echoes)
 * @param firstError the first failure's description, or empty
 * @param seconds the window's length
 * @param p50Us median latency
 * @param p99Us 99th percentile
 * @param p999Us 99.9th percentile
 * @param maxUs largest latency
 * @param clientCpuUs the client JVM's CPU per call
 * @param serverCpuUs the server JVM's CPU per call
 * @param clientJitMs the client JVM's compilation time in the window
 * @param clientGcMs the client JVM's GC time in the window
 * @param clientAllocBytes heap bytes the client JVM allocated per call (NaN if unknown)
 * @param serverAllocBytes heap bytes the server JVM allocated per call (NaN if unknown)
 * @param serverConnections established connections to the server's port at the window's start (-1 if unknown)
 * @param otherCpuPercent other processes' CPU in the window, % of one core ({@link OtherCpu}; NaN if unknown)
 * @param attempts windows measured to get this one (1 unless noisy ones were measured again)
 * @param noisy whether this window was still noisy (every attempt was)
 */
public record Measured(long calls, long errors, String firstError, double seconds, double p50Us, double p99Us,
    double p999Us, double maxUs, double clientCpuUs, double serverCpuUs, double clientJitMs, double clientGcMs,
    double clientAllocBytes, double serverAllocBytes, int serverConnections, double otherCpuPercent, int attempts,
    boolean noisy) {

  Measured withAttempts(int attempts, boolean noisy) {
    return new Measured(calls, errors, firstError, seconds, p50Us, p99Us, p999Us, maxUs, clientCpuUs, serverCpuUs,
        clientJitMs, clientGcMs, clientAllocBytes, serverAllocBytes, serverConnections, otherCpuPercent, attempts, noisy);
  }
}
