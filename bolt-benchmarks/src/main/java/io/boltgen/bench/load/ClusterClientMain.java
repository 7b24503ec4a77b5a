package io.boltgen.bench.load;

import io.boltgen.bench.service.ClusterEchoService;
import io.boltgen.bench.service.ClusterEchoServiceBolt;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.cluster.LoadBalancer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client JVM of the {@code cluster} case: one {@link BoltClient} at its defaults, one channel per
 * policy to {@code static:///host:p0,host:p1,…} (one cluster target, so the policies share its instances and
 * connections), driven through every policy and round ({@link ClusterLoad}); reports {@code CASE} when a
 * window starts and {@code RESULT} when it is measured.
 */
public final class ClusterClientMain {

  private static final Logger log = LoggerFactory.getLogger(ClusterClientMain.class);

  private ClusterClientMain() {}

  /** Runs every round; returns the process exit code. */
  public static int run(String host, List<Integer> ports, int slowIndex, List<LoadBalancer> policies, int rounds,
      int concurrency, int payloadBytes, Duration warmup, Duration measure) {
    Protocol.claimStdout();
    StringBuilder target = new StringBuilder("static:///");
    for (int i = 0; i < ports.size(); i++) {
      target.append(i == 0 ? "" : ",").append(host).append(':').append(ports.get(i));
    }
    byte[] payload = new byte[payloadBytes];
    new SplittableRandom(42).nextBytes(payload);
    try (BoltClient client = BoltClient.builder().build()) {
      Map<LoadBalancer, ClusterEchoService> stubs = new EnumMap<>(LoadBalancer.class);
      for (LoadBalancer policy : policies) {
        stubs.put(policy, ClusterEchoServiceBolt.newClient(client.channel(target.toString(), policy)));
      }
      log.info("{}: {} callers, {} B, policies {}, {} round(s) of {} ms warm-up + {} ms measured", target,
          concurrency, payloadBytes, policies, rounds, warmup.toMillis(), measure.toMillis());
      prime(stubs.get(policies.get(0)), payload);
      // every policy once, unmeasured: the JVMs' way to their steady state is paid before round 1 (see
      // LoadRunner#warmUpPass), not by the first policy of the first round
      for (LoadBalancer policy : policies) {
        ClusterLoad load = new ClusterLoad(stubs.get(policy), ports.size(), concurrency, payload);
        load.start();
        try {
          ClusterLoad.sleep(warmup);
        } finally {
          load.stop();
        }
        log.info("{}: warm-up pass done ({} calls failed)", policy, load.errors());
      }
      for (int round = 1; round <= rounds; round++) {
        for (LoadBalancer policy : policies) {
          Protocol.send(Protocol.CASE, policy.name() + " " + round);
          ClusterResult result = window(stubs.get(policy), policy, round, ports.size(), slowIndex, concurrency,
              payload, warmup, measure);
          log.info("{} round {}: {}", policy, round, result);
          Protocol.send(Protocol.RESULT, result.toLine());
        }
      }
    } catch (Throwable e) {
      log.error("cluster client failed", e);
      Protocol.send(Protocol.FAILED, String.valueOf(e).replace('\n', ' '));
      return 1;
    }
    Protocol.send(Protocol.DONE, "");
    return 0;
  }

  /** One window: a fresh load, its warm-up, then the measured part. */
  private static ClusterResult window(ClusterEchoService stub, LoadBalancer policy, int round, int instances,
      int slowIndex, int concurrency, byte[] payload, Duration warmup, Duration measure) throws InterruptedException {
    ClusterLoad load = new ClusterLoad(stub, instances, concurrency, payload);
    load.start();
    try {
      ClusterLoad.sleep(warmup);
      load.reset(); // the window starts here
      long t0 = System.nanoTime();
      ClusterLoad.sleep(measure);
      long t1 = System.nanoTime();
      return load.result(policy, round, (t1 - t0) / 1e9, slowIndex); // and ends here
    } finally {
      load.stop();
    }
  }

  /** 200 sequential calls (at most 10 s): first-call costs are paid before any warm-up. */
  private static void prime(ClusterEchoService stub, byte[] payload) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int ok = 0;
    int failed = 0;
    for (int i = 0; i < 200 && System.nanoTime() < deadline; i++) {
      try {
        stub.echo(payload).get(3, TimeUnit.SECONDS);
        ok++;
      } catch (Exception e) {
        failed++;
      }
    }
    log.info("primed with {} calls ({} failed)", ok, failed);
  }
}
