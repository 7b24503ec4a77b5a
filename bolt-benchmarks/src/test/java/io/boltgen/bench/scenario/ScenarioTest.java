package io.boltgen.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.bench.run.Measured;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.Scenario.Pair;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.scenario.Scenario.Slot;
import io.boltgen.bench.scenario.Scenario.Stage;
import io.boltgen.bench.system.Systems;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The three kinds of run as the runner sees them: which JVM pairs start together, and the windows, in order. */
class ScenarioTest {

  private static final Setup SETUP = new Setup(Duration.ofSeconds(1), Duration.ofSeconds(2), QuietPolicy.DEFAULT,
      List.of(), Path.of("logs"), "127.0.0.1");

  private static List<String> slots(Stage<?> stage) {
    return stage.slots().stream().map(s -> s.system() + " " + s.point().id() + (s.repeat() ? " again" : "")).toList();
  }

  @Test
  void runRStartsWithSystemRMinusOneModN() {
    List<String> systems = List.of("a", "b", "c");
    assertThat(Scenario.rotation(systems, 1)).containsExactly("a", "b", "c");
    assertThat(Scenario.rotation(systems, 2)).containsExactly("b", "c", "a");
    assertThat(Scenario.rotation(systems, 3)).containsExactly("c", "a", "b");
    assertThat(Scenario.rotation(systems, 4)).containsExactly("a", "b", "c");
    assertThat(Scenario.rotation(List.of(), 2)).isEmpty();
  }

  @Test
  void theLoadMatrixRunsEachSystemInAFreshPairPerRunRotatingAndRepeatsItsFirstCase() {
    LoadMatrix matrix = new LoadMatrix(Systems.parse("boltgen,netty"), LoadMatrix.cases(List.of("sync", "async-256"),
        List.of(100, 1024)), 2, Duration.ofSeconds(8), SETUP, List.of("-Dserver"), List.of(), false);
    List<Stage<Pair>> stages = matrix.stages();
    assertThat(stages).extracting(s -> s.run() + " " + s.parts().get(0).system())
        .containsExactly("1 boltgen", "1 netty", "2 netty", "2 boltgen");
    assertThat(slots(stages.get(2))).containsExactly("netty sync-32/100B", "netty sync-32/1KiB", "netty async-256/100B",
        "netty async-256/1KiB", "netty sync-32/100B again");
    assertThat(stages.get(0).parts().get(0).clientArgs()).containsSequence("--warmup-pass-ms", "8000");
    assertThat(stages.get(0).parts().get(0).serverJvmArgs()).containsExactly("-Dserver");
    assertThat(matrix.windows()).isEqualTo(20);
    assertThat(matrix.complete()).as("no SOFABolt, no gRPC").isFalse();
    assertThat(LoadMatrix.point("async", 1024)).isEqualTo(new Point("async-256/1KiB", false, 1, 256, 1024, ""));
    assertThatThrownBy(() -> LoadMatrix.point("oneway", 100)).hasMessageContaining("unknown workload oneway");
  }

  @Test
  void theScalingCurvesKeepEachCurvesPairsAndRotateTheSystemsPointByPoint() {
    ScalingCurves curves = new ScalingCurves(Systems.parse("boltgen,sofabolt-io,netty"), List.of(Sweep.values()),
        List.of(1, 4096), List.of(100, 65536), List.of(1, 1024), 16, 4, Duration.ofSeconds(30), SETUP);
    List<Stage<Pair>> stages = curves.stages();
    assertThat(stages).extracting(Stage::label).containsExactly("inflight curve", "payload curve", "connections curve");
    assertThat(stages.get(0).parts()).hasSize(3);
    assertThat(slots(stages.get(1))).containsExactly("boltgen payload-100B", "sofabolt-io payload-100B",
        "netty payload-100B", "sofabolt-io payload-64KiB", "netty payload-64KiB", "boltgen payload-64KiB");
    assertThat(stages.get(2).slots().get(3).point()).isEqualTo(new Point("connections-1024", false, 1024, 4, 100, ""));
    // every point of the connections curve opens its own connections, so the first one is closed after the warm-up
    assertThat(stages.get(2).parts().get(0).clientArgs()).contains("--close-first");
    assertThat(stages.get(0).parts().get(0).clientArgs()).doesNotContain("--close-first");
    assertThat(ScalingCurves.x(Sweep.PAYLOAD, curves.points(Sweep.PAYLOAD).get(1))).isEqualTo(65536);
    assertThat(curves.windows()).isEqualTo(18);
  }

  @Test
  void theClusterLoadMeasuresEveryPolicyInEachRoundOnOnePair() {
    ClusterBalancing cluster = new ClusterBalancing(List.of(BalancingPolicy.ROUND_ROBIN, BalancingPolicy.LEAST_PENDING), 3, 5,
        64, SETUP);
    List<Stage<Pair>> stages = cluster.stages();
    assertThat(stages).hasSize(1);
    assertThat(stages.get(0).parts().get(0).serverArgs()).containsSequence("--instances", "3", "--slow-ms", "5");
    assertThat(stages.get(0).slots()).extracting(s -> s.run() + " " + s.point().policy()).containsExactly(
        "1 ROUND_ROBIN", "1 LEAST_PENDING", "2 ROUND_ROBIN", "2 LEAST_PENDING", "3 ROUND_ROBIN", "3 LEAST_PENDING");
    // the warm-up pass: every policy once, for a window's warm-up each
    assertThat(stages.get(0).parts().get(0).warmUp()).isEqualTo(Duration.ofSeconds(2));
    assertThat(cluster.point(BalancingPolicy.LEAST_PENDING).inflight()).isEqualTo(64);
  }

  @Test
  void aPointAndAWindowSurviveTheirLines() {
    Point p = new Point("sync-32/100B", true, 1, 32, 100, "");
    assertThat(Point.parse(p.token())).isEqualTo(p);
    assertThatThrownBy(() -> Point.parse("inflight-1;async;1;0;100;")).isInstanceOf(IllegalArgumentException.class);
    Window w = new Window("grpc-direct", "async-256/1KiB", 2, true, new Measured(1234, 5, "java.io.IOException: boom\tx",
        10.0, 1.5, 20.25, 300, 4000, 3.25, 4.5, 120, 7, 512.5, Double.NaN, 1, 6.5, 2, true, List.of(3L, 4L),
        List.of(5100.0, 90.5)));
    Window back = Window.parse(w.toLine());
    assertThat(back).usingRecursiveComparison().ignoringFields("m.firstError", "m.serverAllocBytes").isEqualTo(w);
    assertThat(back.m().firstError()).isEqualTo("java.io.IOException: boom x");
    assertThat(back.m().serverAllocBytes()).isNaN();
    assertThat(back.m().throughput()).isEqualTo(123.4);
    assertThat(back.m().clientJitPercent()).isEqualTo(1.2);
    Window none = new Window("netty", "inflight-1", 1, false, new Measured(0, 0, "", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        -1, 0, 1, false, List.of(), List.of()));
    assertThat(Window.parse(none.toLine())).isEqualTo(none);
  }
}
