package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.load.PointResult;
import io.boltgen.bench.load.QuietPolicy;
import io.boltgen.bench.load.ScalePoint;
import io.boltgen.bench.load.ScalingSettings;
import io.boltgen.bench.load.Sweep;
import io.boltgen.bench.load.Systems;
import io.boltgen.bench.report.Charts;
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
    ScalingSettings scaling = new ScalingSettings(Systems.parse(ScalingSettings.DEFAULT_SYSTEMS),
        List.of(Sweep.values()), List.of(1, 64), List.of(100, 16 * 1024), List.of(1, 8), 16, 2,
        Duration.ofMillis(300), Duration.ofMillis(200), Duration.ofMillis(300), new QuietPolicy(5, 0),
        List.of("-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Dio.netty.leakDetection.level=disabled"), dir.resolve("logs"), "127.0.0.1");
    Path md = dir.resolve("docs").resolve("scaling.md");
    Bench.Plan plan = new Bench.Plan(null, null, null, "ScalingSmokeTest", List.of("smoke test"), dir.resolve("logs"),
        scaling, md);

    Bench.Result result = Bench.execute(plan, new PrintStream(System.out, true, StandardCharsets.UTF_8));

    assertThat(result.failures()).isEmpty();
    List<PointResult> results = result.scaling().results();
    assertThat(results).hasSize(scaling.windows()).hasSize(18);
    for (PointResult r : results) {
      String what = r.system() + " " + r.point().label();
      assertThat(r.m().calls()).as(what).isPositive();
      assertThat(r.m().errors()).as(what).isZero();
      assertThat(r.m().p99Us()).as(what).isGreaterThanOrEqualTo(r.m().p50Us()).isPositive();
      assertThat(r.cpuUs()).as(what).isPositive();
      assertThat(r.m().serverConnections()).as(what + ": the server's established connections")
          .isEqualTo(r.point().connections());
      assertThat(r.m().clientAllocBytes()).as(what + " client allocation").isPositive();
      assertThat(r.m().serverAllocBytes()).as(what + " server allocation").isPositive();
      if (r.point().sweep() == Sweep.PAYLOAD) {
        assertThat(r.megabytesPerSecondEachWay()).isEqualTo(r.throughput() * r.point().payloadBytes() / 1e6);
      }
    }
    assertThat(results).extracting(PointResult::point).contains(new ScalePoint(Sweep.CONNECTIONS, 8, 2, 100));

    for (Sweep sweep : Sweep.values()) {
      Path png = md.getParent().resolve("img").resolve("scaling-" + sweep.id() + ".png");
      BufferedImage image = ImageIO.read(png.toFile());
      assertThat(image).as(png.toString()).isNotNull();
      assertThat(image.getWidth()).isEqualTo(Charts.WIDTH);
      assertThat(image.getHeight()).isEqualTo(Charts.HEIGHT);
    }
    String text = Files.readString(md);
    assertThat(text).contains("Not a full measurement").contains("Machine: ").contains("Command: `ScalingSmokeTest`")
        .contains("![inflight curve](img/scaling-inflight.png)").contains("![payload curve](img/scaling-payload.png)")
        .contains("![connections curve](img/scaling-connections.png)").contains("| 8 | sofabolt-io |")
        .contains("MB/s each way").contains("heap B/call server");
  }
}
