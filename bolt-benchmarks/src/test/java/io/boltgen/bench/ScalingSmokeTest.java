package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.report.Charts;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.ScalingCurves;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.scenario.Sweep;
import io.boltgen.bench.system.Systems;
import java.awt.image.BufferedImage;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scaling curves as CI runs them: the default systems, two points per curve with tiny windows, each system's
 * server and client in JVMs of their own, the tables printed, the charts drawn and the report written. It checks
 * that every point was measured on the connections it asked for, with the allocation of both JVMs, never how fast.
 */
class ScalingSmokeTest {

  @Test
  @Timeout(180)
  void everyCurveIsMeasuredChartedAndReported(@TempDir Path dir) throws Exception {
    ScalingCurves curves = new ScalingCurves(Systems.parse(ScalingCurves.DEFAULT_SYSTEMS), List.of(Sweep.values()),
        List.of(1, 64), List.of(100, 16 * 1024), List.of(1, 8), 16, 2, Duration.ofMillis(300),
        new Setup(Duration.ofMillis(200), Duration.ofMillis(300), new QuietPolicy(5, 0), BenchmarkSmokeTest.SMALL_JVMS,
            dir.resolve("logs"), "127.0.0.1"));
    Path md = dir.resolve("docs").resolve("scaling.md");
    Bench.Plan plan = new Bench.Plan(null, curves, null, null, null, md, null, "ScalingSmokeTest", List.of("smoke test"),
        dir.resolve("logs"));

    Bench.Result result = BenchRun.execute(plan, new PrintStream(System.out, true, StandardCharsets.UTF_8));

    assertThat(result.failures()).isEmpty();
    List<Window> windows = result.scaling().windows();
    assertThat(windows).hasSize(curves.windows()).hasSize(18);
    for (Window w : windows) {
      String what = w.system() + " " + w.point();
      assertThat(w.m().calls()).as(what).isPositive();
      assertThat(w.m().errors()).as(what).isZero();
      assertThat(w.m().p99Us()).as(what).isGreaterThanOrEqualTo(w.m().p50Us()).isPositive();
      assertThat(w.m().cpuUs()).as(what).isPositive();
      int connections = w.point().startsWith("connections-") ? Integer.parseInt(w.point().substring(12)) : 1;
      assertThat(w.m().serverConnections()).as(what + ": the server's established connections").isEqualTo(connections);
      assertThat(w.m().clientAllocBytes()).as(what + " client allocation").isPositive();
      assertThat(w.m().serverAllocBytes()).as(what + " server allocation").isPositive();
    }
    assertThat(windows).extracting(Window::point).contains("connections-8", "payload-16KiB", "inflight-64");

    for (Sweep sweep : Sweep.values()) {
      Path png = md.getParent().resolve("img").resolve("scaling-" + sweep.id() + ".png");
      BufferedImage image = ImageIO.read(png.toFile());
      assertThat(image).as(png.toString()).isNotNull();
      assertThat(image.getWidth()).isEqualTo(Charts.WIDTH);
      assertThat(image.getHeight()).isEqualTo(Charts.HEIGHT);
    }
    assertThat(Files.readString(md)).contains("Not a full measurement").contains("Machine: ")
        .contains("Command: `ScalingSmokeTest`").contains("![inflight curve](img/scaling-inflight.png)")
        .contains("![payload curve](img/scaling-payload.png)").contains("![connections curve](img/scaling-connections.png)")
        .contains("| 8 | sofabolt-io |").contains("MB/s each way").contains("heap B/call server");
  }
}
