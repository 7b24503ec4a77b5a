package io.boltgen.bench.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.report.Charts;
import io.boltgen.bench.report.Golden;
import io.boltgen.bench.run.ProcStat;
import io.boltgen.bench.run.Wrk;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mesh report rendered from fixed results must come out as in its golden files, to the character: a full run
 * (caveats, failures, a noisy point with errors, a provider over its threads, a policy without points, the freeze and
 * its timeline), a run whose freeze failed and had no 512-connection point, and a run without the freeze.
 */
class MeshReportGoldenTest {

  private static final Map<String, String> MACHINE = Golden.machine();

  private static final Instant STARTED = Instant.parse("2026-12-02T10:11:12Z");

  private static MeshBench.Settings settings(List<Integer> connections, List<BalancingPolicy> policies, boolean direct,
      MeshBench.Freeze freeze, List<String> caveats) {
    return new MeshBench.Settings(connections, Duration.ofSeconds(10), Duration.ofMillis(7500), policies, direct,
        freeze, 10, 2, 42, Path.of("/usr/bin/wrk"), QuietPolicy.DEFAULT, List.of("-Xmx1g", "-XX:+UseParallelGC"),
        Path.of("logs"), Path.of("docs"), "java -jar bolt-benchmarks/target/bolt-benchmarks.jar mesh", caveats);
  }

  private static MeshBench.Window point(String mode, int connections, int k) {
    double qps = MeshBench.ceiling(connections) * (0.55 + 0.07 * k);
    boolean noisy = k == 2;
    long errors = mode.equals("round-robin") && connections == 256 ? 17 : 0;
    return new MeshBench.Window(mode, connections, Math.round(qps * 7.5), 7.5, qps, 51_000 + 1_300 * k,
        88_000 + 9_100 * k, 130_000 + 45_000 * k, errors, errors == 0 ? "" : "non-2xx 12 | timeouts 5",
        List.of(100L + k, 205L + 3L * k, 298L + 7L * k), mode.equals("round-robin") && connections == 512 ? 201 : 140 + k,
        0, 61.5 + k, 88.0 - k, k == 2 ? 9.75 : 0.4 * k, noisy ? 3 : 1 + k % 2, noisy);
  }

  private static List<MeshBench.Sample> samples() {
    List<MeshBench.Sample> samples = new ArrayList<>();
    for (int k = 0; k <= 48; k++) {
      double t = k * 0.25;
      long answered = Math.round(k * 1000L - (t >= 4 && t < 7 ? (t - 4) * 1500 : t >= 7 ? 4500 : 0));
      samples.add(new MeshBench.Sample(t, answered, k % 4 == 0 ? (t >= 5 && t < 9 ? 3 : 2) : -1, t >= 4 && t < 7));
    }
    return samples;
  }

  private static MeshBench.Result full() {
    List<MeshBench.Window> points = new ArrayList<>();
    int k = 0;
    for (String mode : List.of("least-pending", "round-robin", MeshBench.DIRECT)) {
      for (int c : List.of(128, 256, 512)) {
        points.add(point(mode, c, k++ % 4));
      }
    }
    Wrk.Report wrk = new Wrk.Report(48_000, 12, 4_000, 60_000, 70_000, 80_000, 2_000_000, 2_100_000, 12, 0, 0, 0, 30);
    MeshBench.FreezeResult freeze = new MeshBench.FreezeResult(new MeshBench.Freeze(512, Duration.ofSeconds(4),
        Duration.ofSeconds(3), Duration.ofSeconds(12)), wrk, samples(), 4, 7, 4_000, 2_500, 1_250, 2.25, 200, 7, 2,
        1.75);
    return new MeshBench.Result(points, freeze, true, "/mesh.hash.Hash/hash",
        List.of("weighted-random: the gateway did not start; log: gateway-weighted-random.log"),
        List.of("a subset of the connections", "shorter windows"));
  }

  private static MeshBench.Settings fullSettings() {
    return settings(List.of(128, 256, 512), MeshBench.DEFAULT_POLICIES, true,
        new MeshBench.Freeze(512, Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofSeconds(12)),
        List.of("a subset of the connections", "shorter windows"));
  }

  /** The machine's CPU count, which the contest table names, as a fixed word. */
  private static String fixed(String text) {
    return text.replace("this machine, " + ProcStat.onlineCpus() + " CPUs", "this machine, N CPUs");
  }

  @Test
  void aFullRun() {
    MeshBench.Settings s = fullSettings();
    MeshBench.Result r = full();
    Golden.check("mesh-full.md", fixed(MeshReport.markdown(s, r, MACHINE, "1.50 2.00 2.50", STARTED,
        Duration.ofSeconds(754))));
    Golden.check("mesh-full-console.txt", fixed(MeshReport.console(s, r)));
    StringBuilder lines = new StringBuilder();
    r.points().forEach(p -> lines.append(MeshReport.describe(p)).append('\n'));
    lines.append(MeshReport.describe(r.freeze())).append('\n');
    MeshBench.FreezeResult f = r.freeze();
    lines.append(MeshReport.describe(new MeshBench.FreezeResult(f.freeze(), new Wrk.Report(48_000, 12, 4_000, 60_000,
        70_000, 80_000, 2_000_000, 2_100_000, 0, 0, 0, 0, 0), f.samples(), 4, 7, 4_000, 2_500, Double.NaN, Double.NaN,
        200, 0, 3, Double.NaN))).append('\n');
    Golden.check("mesh-progress.txt", lines.toString());
  }

  @Test
  void aRunWhoseFreezeFailedAndARunWithoutIt() {
    MeshBench.Settings failed = settings(List.of(64, 128), List.of(BalancingPolicy.LEAST_PENDING), false,
        MeshBench.DEFAULT_FREEZE, List.of());
    MeshBench.Result r = new MeshBench.Result(List.of(point("least-pending", 64, 1), point("least-pending", 128, 0)),
        null, false, "/mesh.hash.Hash/hash", List.of("freeze: a provider did not stop"), List.of());
    Golden.check("mesh-freeze-failed.md", fixed(MeshReport.markdown(failed, r, MACHINE, "0.10 0.20 0.30", STARTED,
        Duration.ofSeconds(59))));
    Golden.check("mesh-freeze-failed-console.txt", fixed(MeshReport.console(failed, r)));

    MeshBench.Settings none = settings(List.of(512), List.of(BalancingPolicy.ROUND_ROBIN), true, null, List.of());
    MeshBench.Result n = new MeshBench.Result(List.of(point("round-robin", 512, 3), point(MeshBench.DIRECT, 512, 1)),
        null, true, "/mesh.hash.Hash/hash", List.of(), List.of());
    Golden.check("mesh-no-freeze.md", fixed(MeshReport.markdown(none, n, MACHINE, "0.10 0.20 0.30", STARTED,
        Duration.ofSeconds(3700))));
    Golden.check("mesh-no-freeze-console.txt", fixed(MeshReport.console(none, n)));
  }

  @Test
  void theChartIsAPngOfTheSetSizeAndTheSameDataGivesTheSameBytes(@TempDir Path dir) throws IOException {
    MeshReport.chart(dir.resolve("a.png"), fullSettings(), full());
    MeshReport.chart(dir.resolve("b.png"), fullSettings(), full());
    BufferedImage image = ImageIO.read(dir.resolve("a.png").toFile());
    assertThat(image.getWidth()).isEqualTo(Charts.WIDTH);
    assertThat(image.getHeight()).isEqualTo(Charts.HEIGHT);
    assertThat(Files.readAllBytes(dir.resolve("b.png"))).isEqualTo(Files.readAllBytes(dir.resolve("a.png")));
  }
}
