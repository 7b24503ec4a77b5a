package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.bench.load.CaseResult;
import io.boltgen.bench.load.LoadCase;
import io.boltgen.bench.load.Systems;
import io.boltgen.bench.load.Workload;
import io.boltgen.bench.report.Spread;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The small parts the orchestrator and the report rely on. */
class ReportPartsTest {

  @Test
  void spreadIsMedianAndRange() {
    assertThat(Spread.of(List.of(3.0, 1.0, 2.0))).isEqualTo(new Spread(2.0, 1.0, 3.0, 3));
    assertThat(Spread.of(List.of(4.0, 1.0, 2.0, 3.0)).median()).isEqualTo(2.5);
    assertThat(Spread.of(List.of()).n()).isZero();
  }

  @Test
  void caseResultSurvivesItsLine() {
    CaseResult r = new CaseResult("grpc-direct", "async-256/1024", 2, 1234, 5, 10.0, 1.5, 20.25, 300, 4000, 3.25, 4.5,
        120, 7, "java.io.IOException: boom\twith a tab", 6.5, 2, true, true);
    CaseResult back = CaseResult.parse(r.toLine());
    assertThat(back).usingRecursiveComparison().ignoringFields("firstError").isEqualTo(r);
    assertThat(back.firstError()).isEqualTo("java.io.IOException: boom with a tab");
    assertThat(back.throughput()).isEqualTo(123.4);
    assertThat(back.clientJitPercent()).isEqualTo(1.2);
    // a line of an older client, without the quiet-window fields
    String old = r.toLine().replaceAll("\totherCpu=[^\t]*\tattempts=[^\t]*\tnoisy=[^\t]*\trepeat=[^\t]*", "");
    CaseResult older = CaseResult.parse(old);
    assertThat(older.otherCpuPercent()).isNaN();
    assertThat(older.attempts()).isEqualTo(1);
    assertThat(older.noisy()).isFalse();
    assertThat(older.repeat()).isFalse();
  }

  @Test
  void casesAndSystemsParse() {
    assertThat(LoadCase.parse("sync/100")).isEqualTo(new LoadCase(Workload.SYNC, 100));
    assertThat(LoadCase.parse("async-256/1024").label()).isEqualTo("async-256/1KiB");
    assertThat(Systems.ids(Systems.parse("grpc*,netty"))).isEqualTo("grpc,grpc-direct,netty");
    assertThat(Systems.parse("all")).hasSize(12);
    assertThat(Systems.ids(Systems.parse("boltgen*")))
        .isEqualTo("boltgen,boltgen-io,boltgen-intercepted,boltgen-micrometer,boltgen-tls,boltgen-tls-openssl");
    assertThat(Systems.ids(Systems.parse("boltgen,boltgen-tls,boltgen-tls-openssl")))
        .isEqualTo("boltgen,boltgen-tls,boltgen-tls-openssl");
    assertThatThrownBy(() -> Systems.parse("thrift")).hasMessageContaining("unknown system");
  }

  @Test
  void helpDescribesTheNewOptions() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    java.io.PrintStream old = System.out;
    System.setOut(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      assertThat(Main.run(new String[] {"help"})).isZero();
    } finally {
      System.setOut(old);
    }
    assertThat(bytes.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("--quiet-threshold PCT")
        .contains("--quiet-repeats N").contains("--warmup-pass S").contains("scaling  the scaling curves")
        .contains("--scaling-measure S").contains("--connections LIST").contains("in % of one core");
  }

  @Test
  void aFullRunWritesTheDocsAndASubsetDoesNot() {
    Bench.Plan full = Main.plan(Args.parse(new String[0], java.util.Set.of("quick")), new String[0]);
    // a full run's only possible caveat: a busy machine
    assertThat(full.caveats()).allMatch(c -> c.contains("machine was busy"));
    assertThat(full.load().runs()).isEqualTo(3);
    assertThat(full.jmh().forks()).isEqualTo(3);
    assertThat(full.docs()).isNotNull();
    assertThat(full.docs().toString()).endsWith("docs/benchmarks.md");
    assertThat(full.scalingDocs().toString()).endsWith("docs/scaling.md");
    assertThat(full.scaling().windows()).isEqualTo(3 * 19);

    // the lead's selection covers every Targets comparator: a full report, with the scaling curves
    String[] lead = {"all", "--systems", "boltgen,boltgen-io,sofabolt-fc,sofabolt-io,grpc-direct,netty", "--warmup", "5",
        "--measure", "5", "--scaling-warmup", "2", "--scaling-measure", "4"};
    Bench.Plan chosen = Main.plan(Args.parse(lead, java.util.Set.of("quick")), lead);
    assertThat(chosen.caveats()).allMatch(c -> c.contains("machine was busy"));
    assertThat(chosen.docs()).isNotNull();
    assertThat(chosen.load().windows()).isEqualTo(3 * 6 * 5);

    String[] subset = {"load", "--systems", "boltgen", "--workloads", "async-256", "--payloads", "100", "--runs", "1"};
    Bench.Plan one = Main.plan(Args.parse(subset, java.util.Set.of("quick")), subset);
    assertThat(one.docs()).isNull();
    assertThat(one.jmh()).isNull();
    assertThat(one.caveats()).isNotEmpty();
    assertThat(one.command()).contains("load --systems boltgen --workloads async-256 --payloads 100 --runs 1");
  }
}
