package io.boltgen.bench.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.mesh.MeshBench;
import io.boltgen.bench.run.Wrk;
import io.boltgen.bench.scenario.QuietPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The mesh report of a full run, made from fixed results: the ratio to the ceiling, the contest's figures beside the
 * 512-connection points, a provider over its 200 calls in bold, and the freeze's table and timeline.
 */
class MeshReportTest {

  private static MeshBench.Window point(String mode, int connections, double qps, int mostAtOnce) {
    return new MeshBench.Window(mode, connections, Math.round(qps * 30), 30, qps, 52_000, 90_000, 120_000, 0, "",
        List.of(100L, 200L, 300L), mostAtOnce, 0, 61.5, 88.0, 1.2, 1, false);
  }

  @Test
  void aFullRunsReportHoldsEveryScenarioBesideTheContestsFigures() {
    MeshBench.Settings s = new MeshBench.Settings(MeshBench.DEFAULT_CONNECTIONS, MeshBench.DEFAULT_WARMUP,
        MeshBench.DEFAULT_DURATION, MeshBench.DEFAULT_POLICIES, true, MeshBench.DEFAULT_FREEZE, 10, 2, 42,
        Path.of("/usr/bin/wrk"), QuietPolicy.DEFAULT, List.of("-Xmx1g"), Path.of("logs"), Path.of("docs"),
        "java -jar bolt-benchmarks/target/bolt-benchmarks.jar mesh", List.of());
    List<MeshBench.Window> points = new ArrayList<>();
    for (String mode : List.of("least-pending", "round-robin", "weighted-random", MeshBench.DIRECT)) {
      for (int c : MeshBench.DEFAULT_CONNECTIONS) {
        points.add(point(mode, c, MeshBench.ceiling(c) * 0.5, mode.equals("round-robin") && c == 512 ? 201 : 150));
      }
    }
    List<MeshBench.Sample> samples = new ArrayList<>();
    for (int k = 0; k <= 160; k++) {
      double t = k * 0.25;
      samples.add(new MeshBench.Sample(t, k * 1000L, k % 4 == 0 ? 3 : -1, t >= 10 && t < 20));
    }
    Wrk.Report wrk = new Wrk.Report(160_000, 40, 4_000, 60_000, 70_000, 80_000, 2_000_000, 2_100_000, 12, 0, 0, 0, 30);
    MeshBench.FreezeResult freeze = new MeshBench.FreezeResult(MeshBench.DEFAULT_FREEZE, wrk, samples, 10, 20, 4_000,
        4_000, 4_000, Double.NaN, 200, 7, 3, 2.5);
    MeshBench.Result r = new MeshBench.Result(points, freeze, true, "/mesh.hash.Hash/hash", List.of(), List.of());
    Map<String, String> machine = new LinkedHashMap<>();
    machine.put("CPU", "a CPU");
    machine.put("cores", "8 available to the JVM (0-7 online)");

    String md = MeshReport.markdown(s, r, machine, "0.1 0.1 0.1", Instant.parse("2026-12-02T00:00:00Z"),
        Duration.ofMinutes(10));

    assertThat(md).doesNotContain("Not a full measurement").contains("Measured 2026-12-02T00:00:00 UTC in 10m 00s")
        .contains("java -jar bolt-benchmarks/target/bolt-benchmarks.jar mesh")
        .contains("the small provider pinned to CPU 0 with `taskset -c 0`")
        .contains("### Through the gateway, least-pending (the default)").contains("### Through the gateway, round-robin")
        .contains("### Through the gateway, weighted-random").contains("### Direct boltgen client")
        .contains("| 512 | 5,120 | 50.0% | 52.0 ms | 90.0 ms | 120.0 ms | 0 | 16.7% / 33.3% / 50.0% | 150 | 61.5 | 88.0% |")
        .contains("| **201 (over 200)** |")
        .contains("| Netty agent (contest, published) | 8 cores | 6,850 | 66.9% |")
        .contains("| C agent with SIMD (contest, published) | the contest's machine | 7,144 | 69.8% |")
        .contains("| boltgen gateway, least-pending (this run) |").contains("| boltgen client, direct (no agent) (this run) |")
        .contains("Ceiling: connections ÷ 50 ms (2,560, 5,120, 10,240 requests/s)")
        .contains("| errors (non-2xx + socket errors, whole run) | 42 (non-2xx 12;")
        .contains("| back within 5% of the level before, after SIGCONT | not within the run |")
        .contains("| 10–11 | 4,000 | 3 | stopped |").contains("| 20–21 | 4,000 | 3 |  |")
        .contains("| freeze run | 2.5% |").contains("![requests/s against connections](img/mesh-qps.png)");
  }
}
