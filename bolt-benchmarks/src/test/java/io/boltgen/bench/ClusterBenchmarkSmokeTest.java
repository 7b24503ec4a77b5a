package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.run.Window;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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
  @Timeout(60)
  void leastPendingSendsLessToTheSlowInstanceThanRoundRobin(@TempDir Path dir) throws Exception {
    long t0 = System.nanoTime();
    String[] argv = {"cluster", "--seconds", "1", "--warmup", "1", "--rounds", "1", "--slow-ms", Integer.toString(SLOW_MS),
        "--concurrency", "32", "--jvm-flags", "-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
            + " -Dio.netty.leakDetection.level=disabled",
        "--quiet-repeats", "0", "--log-dir", dir.resolve("logs").toString()};
    Bench.Plan plan = Main.plan(argv);
    assertThat(plan.cluster().policies()).containsExactly(BalancingPolicy.ROUND_ROBIN, BalancingPolicy.LEAST_PENDING);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(tee(bytes, System.out), true, StandardCharsets.UTF_8);
    Bench.Result result = BenchRun.execute(plan, out);
    String text = bytes.toString(StandardCharsets.UTF_8);

    assertThat(result.failures()).as(text).isEmpty();
    List<Window> windows = result.cluster().windows();
    assertThat(windows).extracting(Window::point).containsExactly("ROUND_ROBIN", "LEAST_PENDING");
    for (Window w : windows) {
      assertThat(w.m().calls()).as("%s calls", w.point()).isPositive();
      assertThat(w.m().errors()).as("%s errors: %s", w.point(), w.m().firstError()).isZero();
      assertThat(w.m().instanceCalls()).hasSize(3);
      assertThat(w.m().instanceCalls().stream().mapToLong(Long::longValue).sum()).isEqualTo(w.m().calls());
      assertThat(w.m().p50Us()).isPositive();
      assertThat(w.m().p99Us()).isGreaterThanOrEqualTo(w.m().p50Us());
      assertThat(w.m().p999Us()).isGreaterThanOrEqualTo(w.m().p99Us());
      assertThat(w.m().otherCpuPercent()).as("other processes' CPU, measured as in every scenario").isNotNaN();
    }
    Window roundRobin = windows.get(0);
    Window leastPending = windows.get(1);
    // round robin takes each instance in turn, whatever it answers
    assertThat(roundRobin.m().share(0)).as("round robin's share to the slow instance").isBetween(0.25, 0.42);
    // the delay is a lower bound of every call the slow instance answered (a scheduled answer is never early)
    assertThat(roundRobin.m().instanceP50Us().get(0)).isGreaterThanOrEqualTo(SLOW_MS * 1000.0);
    // the behaviour: its calls stay pending longer, so least-pending picks it less often
    assertThat(leastPending.m().share(0)).as("least-pending's share to the slow instance")
        .isLessThan(roundRobin.m().share(0));

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
