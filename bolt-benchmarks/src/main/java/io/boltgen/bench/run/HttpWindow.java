package io.boltgen.bench.run;

/**
 * One measured window of the {@code http} command: case {@code caseId} in round {@code round}. Latencies and CPU in
 * microseconds, CPU per successful call.
 *
 * @param calls calls completed in the window (for wrk: its requests, whatever their status; errors are counted apart)
 * @param seconds the window's length
 * @param callsPerSecond calls completed per second
 * @param serverCpuUs the server JVM's CPU (user + system, all threads) per call
 * @param machineCpuUs the whole machine's busy time ({@code /proc/stat}) per call: server, load generator, kernel and
 *     anything else that ran
 * @param loadCpuUs the load generator's CPU per call (wrk, or the Bolt client JVM)
 * @param errors failed calls: wrk's non-2xx answers and socket errors, or the Bolt client's failed calls
 * @param errorText what failed, in words, or empty
 * @param otherCpuPercent other processes' CPU in the window, % of one core (NaN if unknown)
 * @param attempts windows measured to get this one (1 unless noisy ones were measured again)
 * @param noisy whether this window was still noisy (every attempt was)
 */
public record HttpWindow(String caseId, int round, long calls, double seconds, double callsPerSecond, double p50Us,
    double p99Us, double serverCpuUs, double machineCpuUs, double loadCpuUs, long errors, String errorText,
    double otherCpuPercent, int attempts, boolean noisy) {

  /**
   * The window of a Bolt client's {@link Measured}: the machine's CPU per call is both JVMs' plus what other
   * processes took in the window ({@code otherCpuPercent} of a core over its length).
   */
  public static HttpWindow of(String caseId, int round, Measured m) {
    double other = Double.isNaN(m.otherCpuPercent()) || m.calls() == 0 ? 0
        : m.otherCpuPercent() / 100 * m.seconds() * 1e6 / m.calls();
    return new HttpWindow(caseId, round, m.calls(), m.seconds(), m.throughput(), m.p50Us(), m.p99Us(), m.serverCpuUs(),
        m.cpuUs() + other, m.clientCpuUs(), m.errors(), m.firstError(), m.otherCpuPercent(), m.attempts(), m.noisy());
  }
}
