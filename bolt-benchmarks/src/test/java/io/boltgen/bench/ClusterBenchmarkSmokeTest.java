package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.load.ClusterBenchmark;
import io.boltgen.bench.load.ClusterResult;
import io.boltgen.bench.load.ClusterSettings;
import io.boltgen.runtime.cluster.LoadBalancer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code cluster} command with tiny settings (1 s windows, one round), as a user would type it: the three
 * servers in a server JVM, the load in a client JVM. It checks that the output is well formed and one thing
 * about behaviour, never how fast: round robin gives the slow instance about a third of the calls, and
 * LEAST_PENDING gives it less, because its calls stay pending longer.
 */
class ClusterBenchmarkSmokeTest {

  private static final int SLOW_MS = 20;

  @Test
  @Timeout(30)
  void leastPendingSendsLessToTheSlowInstanceThanRoundRobin(@TempDir Path dir) throws Exception {
    long t0 = System.nanoTime();
    String[] argv = {"cluster", "--seconds", "1", "--warmup", "1", "--rounds", "1", "--slow-ms", Integer.toString(SLOW_MS),
        "--concurrency", "32", "--jvm-flags", "-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
            + " -Dio.netty.leakDetection.level=disabled",
        "--log-dir", dir.resolve("logs").toString()};
    ClusterSettings settings = Main.clusterSettings(Args.parse(argv, Set.of()), argv);
    assertThat(settings.policies()).containsExactly(LoadBalancer.ROUND_ROBIN, LoadBalancer.LEAST_PENDING);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(tee(bytes, System.out), true, StandardCharsets.UTF_8);
    ClusterBenchmark.Outcome outcome = ClusterBenchmark.run(settings, out);
    String text = bytes.toString(StandardCharsets.UTF_8);

    assertThat(outcome.failures()).as(text).isEmpty();
    List<ClusterResult> results = outcome.results();
    assertThat(results).extracting(ClusterResult::policy)
        .containsExactly(LoadBalancer.ROUND_ROBIN, LoadBalancer.LEAST_PENDING);
    for (ClusterResult r : results) {
      assertThat(r.calls()).as("%s calls", r.policy()).isPositive();
      assertThat(r.errors()).as("%s errors: %s", r.policy(), r.firstError()).isZero();
      assertThat(r.instanceCalls()).hasSize(3);
      assertThat(r.instanceCalls().stream().mapToLong(Long::longValue).sum()).isEqualTo(r.calls());
      assertThat(r.p50Us()).isPositive();
      assertThat(r.p99Us()).isGreaterThanOrEqualTo(r.p50Us());
      assertThat(r.p999Us()).isGreaterThanOrEqualTo(r.p99Us());
    }
    ClusterResult roundRobin = results.get(0);
    ClusterResult leastPending = results.get(1);
    // round robin takes each instance in turn, whatever it answers
    assertThat(roundRobin.slowShare()).as("round robin's share to the slow instance").isBetween(0.25, 0.42);
    // the delay is a lower bound of every call the slow instance answered (a scheduled answer is never early)
    assertThat(roundRobin.instanceP50Us().get(roundRobin.slowIndex())).isGreaterThanOrEqualTo(SLOW_MS * 1000.0);
    // the behaviour: its calls stay pending longer, so least-pending picks it less often
    assertThat(leastPending.slowShare()).as("least-pending's share to the slow instance")
        .isLessThan(roundRobin.slowShare());

    assertThat(text)
        .contains("java ")
        .contains(" cluster --seconds 1 --warmup 1 --rounds 1 --slow-ms " + SLOW_MS + " --concurrency 32")
        .contains("Not a full measurement")
        .contains("| policy | calls/s | p50 | p99 | p99.9 | share to the slow instance |")
        .contains("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (String policy : List.of("ROUND_ROBIN", "LEAST_PENDING")) {
      String row = text.lines().filter(l -> l.startsWith("| " + policy + " |")).findFirst().orElseThrow();
      assertThat(row.split("\\|", -1)).as(row).hasSize(11); // 9 cells between 10 bars
      assertThat(row).endsWith("| 0 |").containsPattern("\\| [0-9.]+%");
    }
    System.out.printf("ClusterBenchmarkSmokeTest took %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  private static OutputStream tee(OutputStream a, OutputStream b) {
    return new OutputStream() {
      @Override
      public void write(int c) throws IOException {
        a.write(c);
        b.write(c);
      }

      @Override
      public void write(byte[] buf, int off, int len) throws IOException {
        a.write(buf, off, len);
        b.write(buf, off, len);
      }
    };
  }
}
