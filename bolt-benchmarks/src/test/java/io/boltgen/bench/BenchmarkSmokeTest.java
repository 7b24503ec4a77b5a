package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.report.Row;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.system.Systems;
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
 * A few seconds of the real thing, as CI runs it: each system's server in its own JVM (boltgen's handlers on
 * virtual threads among them, its JVMs on JDK 25), driven from another over
 * loopback through both workloads at 100 B, a tiny in-process JMH pass over every codec, the tables printed and the
 * report written. It checks that something real was measured, never how fast.
 */
class BenchmarkSmokeTest {

  /** Child JVMs that start fast and stay small: nothing here is timed. */
  static final List<String> SMALL_JVMS = List.of("-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
      "-Dio.netty.leakDetection.level=disabled", "-Dio.grpc.netty.shaded.io.netty.leakDetection.level=disabled");

  @Test
  @Timeout(180)
  void startsEachSystemMeasuresAndReports(@TempDir Path dir) throws Exception {
    List<Point> cases = LoadMatrix.cases(LoadMatrix.DEFAULT_WORKLOADS, List.of(100));
    LoadMatrix load = new LoadMatrix(Systems.parse("boltgen,boltgen-virtual,sofabolt,grpc,netty"), cases, 1,
        Duration.ofMillis(1400),
        new Setup(Duration.ofMillis(700), Duration.ofMillis(800), new QuietPolicy(5, 0), SMALL_JVMS, dir.resolve("logs"),
            "127.0.0.1"), List.of(), List.of(), false);
    CodecBench.Settings jmh = new CodecBench.Settings(0, 1, 1, 100, List.of(), null);
    Path docs = dir.resolve("benchmarks.md");
    Bench.Plan plan = new Bench.Plan(load, null, jmh, null, docs, null, null, "BenchmarkSmokeTest", List.of("smoke test"),
        dir.resolve("logs"));

    // The build runs tests with paranoid leak detection, which records every access to a pooled buffer: the
    // in-process JMH pass would time that, not the codecs. The children run with it off anyway.
    ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    // JMH takes a machine-wide lock (/tmp/jmh.lock) so that two runs never time each other; this pass times
    // nothing, and another module's build (or a benchmark) holding the lock must not fail it
    String ignoreLock = System.setProperty("jmh.ignoreLock", "true");
    Bench.Result result;
    try {
      result = BenchRun.execute(plan, new PrintStream(System.out, true, StandardCharsets.UTF_8));
    } finally {
      ResourceLeakDetector.setLevel(level);
      if (ignoreLock == null) {
        System.clearProperty("jmh.ignoreLock");
      } else {
        System.setProperty("jmh.ignoreLock", ignoreLock);
      }
    }

    assertThat(result.failures()).isEmpty();
    assertThat(result.load().windows()).hasSize(load.windows()).hasSize(5 * 3);
    // every client measured its first case again at the end, for the warm-up check
    assertThat(result.load().windows()).filteredOn(Window::repeat).extracting(Window::point).hasSize(5)
        .containsOnly(cases.get(0).id());
    assertThat(result.load().runs()).hasSize(1);
    for (Window w : result.load().windows()) {
      String what = w.system() + " " + w.point();
      assertThat(w.m().otherCpuPercent()).as(what + " other processes' CPU").isNotNaN().isGreaterThanOrEqualTo(0);
      assertThat(w.m().attempts()).isEqualTo(1);
      assertThat(w.m().calls()).as(what + " calls").isPositive();
      assertThat(w.m().p50Us()).as(what + " p50").isPositive();
      assertThat(w.m().p99Us()).isGreaterThanOrEqualTo(w.m().p50Us());
      assertThat(w.m().p999Us()).isGreaterThanOrEqualTo(w.m().p99Us());
      assertThat(w.m().cpuUs()).as(what + " CPU per call").isPositive();
      assertThat(w.m().serverConnections()).as(what + " server connections").isEqualTo(1);
    }
    for (Point c : cases) {
      assertThat(result.loadReport().rows(c.id()))
          .containsOnlyKeys("boltgen", "boltgen-virtual", "sofabolt", "grpc", "netty");
      assertThat(result.loadReport().rows(c.id()).values()).extracting(Row::errors).containsOnly(0L);
    }
    assertThat(dir.resolve("logs/run1-boltgen-virtual-server.log")).as("the virtual-thread server's JVM")
        .content().contains("boltgen-virtual on 127.0.0.1").contains(", Java 25");
    String md = Files.readString(docs);
    assertThat(md).contains("Not a full measurement").contains("## Machine").contains("### How quiet it was")
        .contains("### Warm-up check").contains("median of the per-run paired ratios").contains("## Targets")
        .contains("| **boltgen** |").contains("## Codecs (JMH)").contains("Hessian2");
  }
}
