package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.load.ClusterResult;
import io.boltgen.bench.load.ClusterSettings;
import io.boltgen.bench.report.ClusterReport;
import io.boltgen.bench.report.MarkdownReport;
import io.boltgen.bench.report.Spread;
import io.boltgen.runtime.cluster.LoadBalancer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parts of the {@code cluster} case that need no JVM: its result line, its table, its docs section. */
class ClusterReportTest {

  private static ClusterResult result(LoadBalancer policy, int round, long slow, long fastA, long fastB, double p50) {
    return new ClusterResult(policy, round, slow + fastA + fastB, 0, 2.0, p50, p50 * 10, p50 * 20, p50 * 30,
        List.of(slow, fastA, fastB), List.of(5_100.0, 90.0, 95.5), 0, "");
  }

  @Test
  void resultSurvivesItsLine() {
    ClusterResult r = new ClusterResult(LoadBalancer.LEAST_PENDING, 3, 1000, 2, 1.5, 80.5, 900, 5200, 9000,
        List.of(100L, 450L, 450L), List.of(5100.0, 70.0, 71.5), 0, "java.io.IOException: boom\tagain");
    ClusterResult back = ClusterResult.parse(r.toLine());
    assertThat(back).usingRecursiveComparison().ignoringFields("firstError").isEqualTo(r);
    assertThat(back.firstError()).isEqualTo("java.io.IOException: boom again");
    assertThat(back.slowShare()).isEqualTo(0.1);
    assertThat(back.throughput()).isEqualTo(1000 / 1.5);
  }

  @Test
  void tableGivesTheMedianAndRangeOverRoundsPerPolicy() {
    ClusterSettings settings = new ClusterSettings(ClusterSettings.DEFAULT_POLICIES, 3, Duration.ofSeconds(10),
        Duration.ofSeconds(10), 5, 64, 100, List.of(), Path.of("logs"), "127.0.0.1", "java -jar x.jar cluster",
        List.of());
    List<ClusterResult> results = List.of(
        result(LoadBalancer.ROUND_ROBIN, 1, 100, 100, 100, 300),
        result(LoadBalancer.LEAST_PENDING, 1, 10, 145, 145, 100),
        result(LoadBalancer.ROUND_ROBIN, 2, 200, 200, 200, 310),
        result(LoadBalancer.LEAST_PENDING, 2, 20, 290, 290, 110),
        result(LoadBalancer.ROUND_ROBIN, 3, 150, 150, 150, 320),
        result(LoadBalancer.LEAST_PENDING, 3, 0, 200, 200, 105));
    ClusterReport report = new ClusterReport(settings, results);

    ClusterReport.Row rr = report.rows().get(LoadBalancer.ROUND_ROBIN);
    assertThat(rr.throughput()).isEqualTo(new Spread(225, 150, 300, 3));
    assertThat(rr.p50().median()).isEqualTo(310);
    ClusterReport.Row lp = report.rows().get(LoadBalancer.LEAST_PENDING);
    assertThat(lp.slowShare().median()).isCloseTo(10 / 300.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(lp.slowShare().min()).isZero();
    assertThat(lp.instanceShares()).hasSize(3);
    assertThat(lp.instanceShares().get(0)).isEqualTo(30 / 1300.0);

    String md = report.markdown(Instant.parse("2026-01-02T03:04:05Z"), Duration.ofSeconds(230),
        Map.of("CPU", "a CPU", "cores", "2", "JDK", "17", "load average at start", "0.1 0.1 0.1"));
    assertThat(md).contains("Measured 2026-01-02T03:04:05 UTC in 3m 50s on a CPU")
        .contains("```\njava -jar x.jar cluster\n```")
        .doesNotContain("Not a full measurement")
        .contains("| ROUND_ROBIN | 225 (150–300) | 310 µs (300 µs–320 µs) |")
        .contains("| 33.3% (33.3%–33.3%) | 5.10 ms (5.10 ms–5.10 ms) | 33.3% · 33.3% · 33.3% | 0 |")
        .contains("| LEAST_PENDING | 200 (150–300) |")
        .contains("| 3.3% (0.0%–3.3%) |");
    assertThat(md.indexOf("| ROUND_ROBIN |")).isLessThan(md.indexOf("| LEAST_PENDING |"));
  }

  @Test
  void aRewriteOfTheDocsKeepsTheClusterSection() throws Exception {
    String previous = "# Benchmarks\n\n## Codecs (JMH)\n\nold numbers\n\n" + MarkdownReport.CLUSTER_HEADING
        + "\n\nsetup\n\n```\n## not a heading: inside code\n```\n\n| ROUND_ROBIN | 38k |\n\n## Method\n\nold method\n";
    String kept = MarkdownReport.keptSection(previous);
    assertThat(kept).startsWith(MarkdownReport.CLUSTER_HEADING + "\n\nsetup")
        .contains("## not a heading: inside code").endsWith("| ROUND_ROBIN | 38k |\n\n")
        .doesNotContain("old method").doesNotContain("old numbers");
    assertThat(MarkdownReport.keptSection("# Benchmarks\n\n## Method\n")).isEmpty();

    Bench.Plan plan = new Bench.Plan(null, null, null, "java -jar x.jar", List.of(), Path.of("logs"));
    Bench.Result result = new Bench.Result(null, null, null, List.of());
    String md = MarkdownReport.render(plan, result, Map.of("CPU", "a CPU"), Instant.now(), Duration.ofSeconds(1),
        previous);
    assertThat(md).contains(kept);
    assertThat(md.indexOf(MarkdownReport.CLUSTER_HEADING)).isLessThan(md.indexOf("## Method"));

    // the section in the repository's docs is one a rewrite finds, command included
    Path docs = Main.repoRoot().resolve("docs").resolve("benchmarks.md");
    String section = MarkdownReport.keptSection(Files.readString(docs, StandardCharsets.UTF_8));
    assertThat(section).startsWith(MarkdownReport.CLUSTER_HEADING)
        .contains("java -jar bolt-benchmarks/target/bolt-benchmarks.jar cluster ")
        .doesNotContain("## Method");
  }
}
