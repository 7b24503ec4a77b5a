package io.boltgen.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.boltgen.bench.load.CaseResult;
import io.boltgen.bench.load.EchoSystem;
import io.boltgen.bench.load.LoadCase;
import io.boltgen.bench.load.Orchestrator;
import io.boltgen.bench.load.QuietPolicy;
import io.boltgen.bench.load.Systems;
import io.boltgen.bench.load.Workload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ratios from per-run pairs, the best peer, the warm-up check and the quiet-machine account of LoadReport. */
class PairedRatioTest {

  private static final LoadCase SYNC = new LoadCase(Workload.SYNC, 100);

  /** A result of {@code calls} calls in 1 s, p99 {@code p99} µs. */
  private static CaseResult result(String system, int run, long calls, double p99, double other, boolean repeat) {
    return new CaseResult(system, SYNC.token(), run, calls, 0, 1.0, 10, p99, p99, p99, 1, 1, 0, 0, "", other, 1,
        other > 5, repeat);
  }

  @Test
  void theRatioIsTheMedianOfPerRunPairsNotTheRatioOfMedians() {
    List<CaseResult> rs = List.of(
        result("boltgen", 1, 100, 1, 0, false), result("peer", 1, 50, 1, 0, false), // 2.0
        result("boltgen", 2, 90, 1, 0, false), result("peer", 2, 60, 1, 0, false), // 1.5
        result("boltgen", 3, 300, 1, 0, false), result("peer", 3, 100, 1, 0, false), // 3.0
        result("boltgen", 4, 10, 1, 0, false)); // no peer in run 4: left out
    Spread s = PairedRatio.of(rs, SYNC, "boltgen", "peer", CaseResult::throughput);
    assertThat(s.n()).isEqualTo(3);
    assertThat(s.median()).isEqualTo(2.0);
    assertThat(s.min()).isEqualTo(1.5);
    assertThat(s.max()).isEqualTo(3.0);
    // the ratio of medians would be 100 / 60
    assertThat(PairedRatio.perRun(rs, SYNC, "boltgen", "peer", CaseResult::throughput)).containsOnlyKeys(1, 2, 3);
    assertThat(LoadReport.ratioSpread(s)).isEqualTo("2.00× (1.50–3.00×)");
  }

  @Test
  void repeatsAreNotPairedAndAZeroDenominatorIsLeftOut() {
    List<CaseResult> rs = List.of(
        result("boltgen", 1, 100, 1, 0, false), result("peer", 1, 0, 1, 0, false),
        result("boltgen", 2, 100, 1, 0, false), result("peer", 2, 50, 1, 0, false),
        result("peer", 2, 25, 1, 0, true));
    Spread s = PairedRatio.of(rs, SYNC, "boltgen", "peer", CaseResult::throughput);
    assertThat(s.n()).isEqualTo(1);
    assertThat(s.median()).isEqualTo(2.0);
  }

  @Test
  void targetsUsePairedRatiosAgainstTheBestPeerByMedianThroughput() {
    List<EchoSystem> systems = Systems.parse("boltgen,sofabolt-io,grpc-direct,netty");
    List<CaseResult> rs = new ArrayList<>();
    long[] boltgen = {100, 120, 80};
    long[] sofa = {50, 50, 50}; // best peer: highest median
    long[] grpc = {40, 45, 60};
    long[] netty = {200, 100, 100};
    for (int run = 1; run <= 3; run++) {
      rs.add(new CaseResult("boltgen", SYNC.token(), run, boltgen[run - 1], 0, 1, 1, 100, 1, 1, 1, 1, 0, 0, ""));
      rs.add(new CaseResult("sofabolt-io", SYNC.token(), run, sofa[run - 1], 0, 1, 1, 400, 1, 1, 1, 1, 0, 0, ""));
      rs.add(new CaseResult("grpc-direct", SYNC.token(), run, grpc[run - 1], 0, 1, 1, 400, 1, 1, 1, 1, 0, 0, ""));
      rs.add(new CaseResult("netty", SYNC.token(), run, netty[run - 1], 0, 1, 1, 100, 1, 1, 1, 1, 0, 0, ""));
    }
    LoadReport report = new LoadReport(List.of(SYNC), systems, rs);
    assertThat(LoadReport.bestPeer(report.rows(SYNC)).system()).isEqualTo("sofabolt-io");
    String md = report.targetsMarkdown();
    // runs: 2.0, 2.4, 1.6 → median 2.0 (range 1.60–2.40); the ratio of medians would also be 2.0, but the range shows
    assertThat(md).contains("| sync-32/100B | calls/s vs best peer (sofabolt-io, 50/s) | 2.00× (1.60–2.40×) | ≥ 1.30× | yes |");
    // p99 0.25 in every run
    assertThat(md).contains("p99 vs best peer's (400 µs) | 0.25× (0.25–0.25×) | ≤ 0.80× | yes |");
    // vs netty: 0.5, 1.2, 0.8 → median 0.8 (the ratio of medians, 100/100, would say 1.0)
    assertThat(md).contains("calls/s vs raw Netty (100/s) | 0.80× (0.50–1.20×) | ≥ 0.90× | NO |");
  }

  @Test
  void theWarmUpCheckComparesEachFirstCaseWithItsRepeat() {
    List<EchoSystem> systems = Systems.parse("boltgen,netty");
    List<CaseResult> rs = List.of(
        result("boltgen", 1, 99, 1, 0, false), result("boltgen", 1, 100, 1, 0, true),
        result("boltgen", 2, 100, 1, 0, false), result("boltgen", 2, 100, 1, 0, true),
        result("netty", 1, 80, 1, 0, false), result("netty", 1, 100, 1, 0, true),
        result("netty", 2, 90, 1, 0, false), result("netty", 2, 100, 1, 0, true));
    LoadReport report = new LoadReport(List.of(SYNC), systems, rs);
    assertThat(report.warmupRatios().get("boltgen")).containsEntry(1, 0.99).containsEntry(2, 1.0);
    assertThat(report.warmupRatios().get("netty").get(1)).isCloseTo(0.8, within(1e-12));
    assertThat(report.coldSystems()).containsExactly("netty");
    assertThat(report.warmupMarkdown()).contains("| **boltgen** | 0.99× | 1.00× | 1.00× (0.99–1.00×) | yes |")
        .contains("| netty | 0.80× | 0.90× | 0.85× (0.80–0.90×) | **NO** |")
        .contains("slower than its repeat for netty");
    // the repeats are not part of the tables' medians
    assertThat(report.rows(SYNC).get("netty").throughput().n()).isEqualTo(2);
  }

  @Test
  void theMachineSectionSaysHowQuietEachRunWas() {
    List<EchoSystem> systems = Systems.parse("boltgen,netty");
    List<CaseResult> rs = List.of(
        result("boltgen", 1, 100, 1, 1.0, false), result("netty", 1, 100, 1, 3.0, false),
        result("netty", 2, 100, 1, 8.0, false), result("boltgen", 2, 100, 1, 2.0, false));
    List<Orchestrator.RunInfo> runs = List.of(
        new Orchestrator.RunInfo(1, List.of("boltgen", "netty"), "0.10 0.20 0.30", "1.00 0.50 0.40"),
        new Orchestrator.RunInfo(2, List.of("netty", "boltgen"), "1.00 0.50 0.40", "1.50 0.70 0.50"));
    LoadReport report = new LoadReport(List.of(SYNC), systems, rs, runs);
    String md = report.quietMarkdown(QuietPolicy.DEFAULT);
    assertThat(md).contains("| 1 | boltgen, netty | 2 | 2.0% | 3.0% | 0 | 0 | 0.10 0.20 0.30 | 1.00 0.50 0.40 |")
        .contains("| 2 | netty, boltgen | 2 | 5.0% | 8.0% | 1 | 0 | 1.00 0.50 0.40 | 1.50 0.70 0.50 |")
        .contains("| all |  | 4 | 3.5% | 8.0% | 1 | 0 | 0.10 0.20 0.30 | 1.50 0.70 0.50 |");
    assertThat(report.markdown()).contains("NOISY").contains("netty (run 2)");
  }
}
