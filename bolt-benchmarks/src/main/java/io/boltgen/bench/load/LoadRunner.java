package io.boltgen.bench.load;

import io.boltgen.bench.load.EchoSystem.EchoClient;
import io.boltgen.bench.load.Loads.Load;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one {@link EchoClient} through one {@link LoadCase}: start the load, let it run for the warm-up,
 * then measure a window ({@link WindowMeter}: latencies of the calls completed in it, their count, failures,
 * the CPU time both processes spent in it, and the CPU other processes took), then stop the load and wait for
 * calls in flight.
 *
 * <p>Latency is taken from just before a call is issued to when its outcome is delivered, in the thread
 * that delivers it. The load is closed-loop (a call starts when a previous one ends), so latencies are those
 * of a saturated system at the given concurrency, not of an open-loop arrival rate.
 */
public final class LoadRunner {

  private static final Logger log = LoggerFactory.getLogger(LoadRunner.class);

  private final EchoClient client;
  private final String systemId;
  private final Duration warmup;
  private final WindowMeter meter;

  LoadRunner(EchoClient client, String systemId, Duration warmup, WindowMeter meter) {
    this.client = client;
    this.systemId = systemId;
    this.warmup = warmup;
    this.meter = meter;
  }

  /**
   * Makes a few sequential calls so that every system has paid for its first call (class loading, lazy
   * initialisation, pools) before any case's warm-up starts; the same for every system. At most 10 s.
   */
  public void prime() {
    prime(List.of(client), systemId);
  }

  /** {@link #prime()} for each of {@code clients}: 200 calls spread over them, at most 10 s. */
  static void prime(List<EchoClient> clients, String systemId) {
    byte[] payload = new byte[100];
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int ok = 0;
    int failed = 0;
    int calls = Math.max(200, clients.size());
    for (int i = 0; i < calls && System.nanoTime() < deadline; i++) {
      try {
        clients.get(i % clients.size()).call(payload);
        ok++;
      } catch (Exception e) {
        failed++;
      }
    }
    log.info("{}: primed with {} calls ({} failed)", systemId, ok, failed);
  }

  /**
   * The pass before any case is measured: runs every case in turn, unmeasured, for an equal share of
   * {@code total}, so that the first measured case does not also pay for the JVMs' way to their steady state
   * (on a 2-core machine under load, boltgen's took about 40 s: 10 s of warm-up left sync-32/100B at 30k
   * calls/s, 50 s brought it to 52k). The same for every system.
   */
  public void warmUpPass(List<LoadCase> cases, Duration total) throws InterruptedException {
    if (cases.isEmpty()) {
      return;
    }
    Duration share = total.dividedBy(cases.size());
    for (LoadCase c : cases) {
      Load load = newLoad(c, 7);
      load.start();
      try {
        TimeUnit.NANOSECONDS.sleep(share.toNanos());
      } finally {
        load.stop();
      }
      log.info("{} {}: warm-up pass done ({} calls failed)", systemId, c.label(), load.errors.sum());
    }
  }

  /**
   * Runs {@code c} (warm-up, then a window measured again while noisy) and returns what the kept window saw;
   * {@code repeat} marks the re-measurement of the first case at the end of a client's cases.
   */
  public CaseResult run(LoadCase c, int run, boolean repeat) throws InterruptedException {
    Load load = newLoad(c, 42);
    load.start();
    try {
      TimeUnit.NANOSECONDS.sleep(warmup.toNanos());
      Measured m = meter.measure(load, c.label());
      return new CaseResult(systemId, c.token(), run, m.calls(), m.errors(), m.seconds(), m.p50Us(), m.p99Us(),
          m.p999Us(), m.maxUs(), m.clientCpuUs(), m.serverCpuUs(), m.clientJitMs(), m.clientGcMs(), m.firstError(),
          m.otherCpuPercent(), m.attempts(), m.noisy(), repeat);
    } finally {
      load.stop();
    }
  }

  /** The load of case {@code c}, its payload random bytes from {@code seed}; not started. */
  private Load newLoad(LoadCase c, long seed) {
    byte[] payload = Loads.payload(c.payloadBytes(), seed);
    return c.workload() == Workload.SYNC
        ? new Loads.Sync(client, Workload.SYNC.concurrency(), payload)
        : new Loads.Async(List.of(client), Workload.ASYNC.concurrency(), payload);
  }
}
