package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.load.CaseResult;
import io.boltgen.bench.load.LoadCase;
import io.boltgen.bench.load.LoadSettings;
import io.boltgen.bench.load.QuietPolicy;
import io.boltgen.bench.load.Systems;
import io.boltgen.bench.load.Workload;
import io.boltgen.bench.report.LoadReport;
import io.netty.util.ResourceLeakDetector;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A few seconds of the real thing, as CI runs it: each system's server in its own JVM, driven from another
 * over loopback through both workloads at 100 B, a tiny in-process JMH pass over every codec, the tables
 * printed and the report written. It checks that something real was measured, never how fast.
 */
class BenchmarkSmokeTest {

  @Test
  @Timeout(180)
  void startsEachSystemMeasuresAndReports(@TempDir Path dir) throws Exception {
    List<LoadCase> cases = List.of(new LoadCase(Workload.SYNC, 100), new LoadCase(Workload.ASYNC, 100));
    LoadSettings load = new LoadSettings(
        Systems.parse("boltgen,sofabolt,grpc,netty"), cases, 1, Duration.ofMillis(700), Duration.ofMillis(800),
        Duration.ofMillis(1400), new QuietPolicy(5, 0),
        List.of("-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Dio.netty.leakDetection.level=disabled", "-Dio.grpc.netty.shaded.io.netty.leakDetection.level=disabled"),
        List.of(), List.of(), false, dir.resolve("logs"), "127.0.0.1");
    CodecBench.Settings jmh = new CodecBench.Settings(0, 1, 1, 100, List.of(), null);
    Path docs = dir.resolve("benchmarks.md");
    Bench.Plan plan = new Bench.Plan(load, jmh, docs, "BenchmarkSmokeTest", List.of("smoke test"), dir.resolve("logs"));

    // The build runs tests with paranoid leak detection, which records every access to a pooled buffer: the
    // in-process JMH pass would time that, not the codecs. The children run with it off anyway.
    ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    // JMH takes a machine-wide lock (/tmp/jmh.lock) so that two runs never time each other; this pass times
    // nothing, and another module's build (or a benchmark) holding the lock must not fail it
    String ignoreLock = System.setProperty("jmh.ignoreLock", "true");
    Bench.Result result;
    try {
      result = Bench.execute(plan, new PrintStream(System.out, true, StandardCharsets.UTF_8));
    } finally {
      ResourceLeakDetector.setLevel(level);
      if (ignoreLock == null) {
        System.clearProperty("jmh.ignoreLock");
      } else {
        System.setProperty("jmh.ignoreLock", ignoreLock);
      }
    }

    assertThat(result.failures()).isEmpty();
    assertThat(result.load().results()).hasSize(load.windows());
    // every client measured its first case again at the end, for the warm-up check
    assertThat(result.load().results()).filteredOn(CaseResult::repeat).extracting(CaseResult::caseToken)
        .hasSize(4).containsOnly(cases.get(0).token());
    assertThat(result.load().runs()).hasSize(1);
    for (CaseResult r : result.load().results()) {
      assertThat(r.otherCpuPercent()).as("%s %s other processes' CPU", r.system(), r.caseToken()).isNotNaN()
          .isGreaterThanOrEqualTo(0);
      assertThat(r.attempts()).isEqualTo(1);
      assertThat(r.calls()).as("%s %s calls", r.system(), r.caseToken()).isPositive();
      assertThat(r.throughput()).as("%s %s throughput", r.system(), r.caseToken()).isPositive();
      assertThat(r.p50Us()).as("%s %s p50", r.system(), r.caseToken()).isPositive();
      assertThat(r.p99Us()).isGreaterThanOrEqualTo(r.p50Us());
      assertThat(r.p999Us()).isGreaterThanOrEqualTo(r.p99Us());
      assertThat(r.cpuUs()).as("%s %s CPU per call", r.system(), r.caseToken()).isPositive();
    }
    for (LoadCase c : cases) {
      assertThat(result.loadReport().rows(c)).containsOnlyKeys("boltgen", "sofabolt", "grpc", "netty");
    }
    assertThat(result.loadReport().allRows()).extracting(LoadReport.Row::errors).containsOnly(0L);

    String md = Files.readString(docs);
    assertThat(md).contains("Not a full measurement").contains("## Machine").contains("### How quiet it was")
        .contains("### Warm-up check").contains("median of the per-run paired ratios").contains("## Targets")
        .contains("| **boltgen** |").contains("## Codecs (JMH)").contains("Hessian2");
  }
}
