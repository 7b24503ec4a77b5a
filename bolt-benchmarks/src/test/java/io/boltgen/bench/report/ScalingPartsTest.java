package io.boltgen.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.bench.load.Measured;
import io.boltgen.bench.load.PointResult;
import io.boltgen.bench.load.QuietPolicy;
import io.boltgen.bench.load.ScalePoint;
import io.boltgen.bench.load.ScalingSettings;
import io.boltgen.bench.load.Sweep;
import io.boltgen.bench.load.Systems;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scaling curves' points, their result lines, the tables and the charts, on made-up numbers. */
class ScalingPartsTest {

  private static ScalingSettings settings(Path logs) {
    return new ScalingSettings(Systems.parse("boltgen,sofabolt-io,netty"), List.of(Sweep.values()),
        ScalingSettings.DEFAULT_INFLIGHTS, ScalingSettings.DEFAULT_PAYLOADS, ScalingSettings.DEFAULT_CONNECTIONS, 16, 4,
        Duration.ofSeconds(30), Duration.ofSeconds(3), Duration.ofSeconds(5), QuietPolicy.DEFAULT, List.of(), logs,
        "127.0.0.1");
  }

  private static Measured measured(long calls, double p99, long errors) {
    return new Measured(calls, errors, errors > 0 ? "boom" : "", 1.0, p99 / 3, p99, p99 * 2, p99 * 3, 2.5, 1.5, 0, 0,
        512, 256, 1, 1.5, 1, false);
  }

  /** Made-up results: throughput rising with x, p99 too, per system a factor. */
  private static List<PointResult> results(ScalingSettings s) {
    List<PointResult> out = new ArrayList<>();
    double factor = 1;
    for (var system : s.systems()) {
      for (Sweep sweep : s.sweeps()) {
        for (ScalePoint p : s.points(sweep)) {
          out.add(new PointResult(system.id(), p, measured((long) (10_000 * factor * Math.log(p.x() + 2)),
              50 * Math.sqrt(p.x()) / factor, 0)));
        }
      }
      factor *= 2;
    }
    return out;
  }

  @Test
  void pointsFollowTheirCurves() {
    ScalingSettings s = settings(Path.of("logs"));
    assertThat(s.points(Sweep.INFLIGHT)).hasSize(7).allMatch(p -> p.connections() == 1 && p.payloadBytes() == 100);
    assertThat(s.points(Sweep.INFLIGHT).get(6).inflight()).isEqualTo(4096);
    assertThat(s.points(Sweep.PAYLOAD)).extracting(ScalePoint::x)
        .containsExactly(100, 1024, 16384, 65536, 262144, 1048576);
    assertThat(s.points(Sweep.PAYLOAD)).allMatch(p -> p.inflight() == 16);
    assertThat(s.points(Sweep.CONNECTIONS).get(5)).isEqualTo(new ScalePoint(Sweep.CONNECTIONS, 1024, 4, 100));
    assertThat(s.points(Sweep.CONNECTIONS).get(5).inflight()).isEqualTo(4096);
    assertThat(s.windows()).isEqualTo(3 * 19);
    assertThat(new ScalePoint(Sweep.PAYLOAD, 1, 16, 65536).label()).isEqualTo("payload-64KiB");
    ScalePoint p = new ScalePoint(Sweep.CONNECTIONS, 64, 4, 100);
    assertThat(ScalePoint.parse(p.token())).isEqualTo(p);
    assertThatThrownBy(() -> ScalePoint.parse("inflight/1/0/100")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Sweep.parse("latency")).hasMessageContaining("unknown sweep");
  }

  @Test
  void aPointResultSurvivesItsLine() {
    PointResult r = new PointResult("sofabolt-io", new ScalePoint(Sweep.PAYLOAD, 1, 16, 16384),
        new Measured(1234, 2, "java.io.IOException: x\ty", 2.0, 10, 20, 30, 40, 5.5, 6.5, 7, 8, 900.5, Double.NaN, 1,
            2.25, 3, true));
    PointResult back = PointResult.parse(r.toLine());
    assertThat(back.system()).isEqualTo("sofabolt-io");
    assertThat(back.point()).isEqualTo(r.point());
    assertThat(back.m().serverAllocBytes()).isNaN();
    assertThat(back.m().firstError()).isEqualTo("java.io.IOException: x y");
    assertThat(back.m()).usingRecursiveComparison().ignoringFields("serverAllocBytes", "firstError").isEqualTo(r.m());
    assertThat(back.throughput()).isEqualTo(617);
    assertThat(back.megabytesPerSecondEachWay()).isEqualTo(617 * 16384 / 1e6);
  }

  @Test
  void chartsArePngsOfTheSetSizeAndTheSameDataGivesTheSameBytes(@TempDir Path dir) throws Exception {
    ScalingSettings s = settings(dir);
    ScalingReport report = new ScalingReport(s, results(s));
    List<String> caption = List.of("Machine: test CPU, 2 cores", "Measured 2026-01-01T00:00:00 UTC", "Command: test");
    List<Path> first = report.writeCharts(dir.resolve("a"), caption);
    List<Path> second = report.writeCharts(dir.resolve("b"), caption);
    assertThat(first).extracting(f -> f.getFileName().toString())
        .containsExactly("scaling-inflight.png", "scaling-payload.png", "scaling-connections.png");
    for (int i = 0; i < first.size(); i++) {
      byte[] bytes = Files.readAllBytes(first.get(i));
      assertThat(bytes.length).isGreaterThan(10_000);
      assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
      BufferedImage image = ImageIO.read(first.get(i).toFile());
      assertThat(image.getWidth()).isEqualTo(Charts.WIDTH);
      assertThat(image.getHeight()).isEqualTo(Charts.HEIGHT);
      assertThat(Files.readAllBytes(second.get(i))).as("deterministic").isEqualTo(bytes);
    }
    // for a look by eye: target/scaling-chart-sample/
    Path sample = Path.of("target", "scaling-chart-sample");
    report.writeCharts(sample, caption);
  }

  @Test
  void tablesCarryTheCaptionTheImageAndEveryMetric(@TempDir Path dir) {
    ScalingSettings s = settings(dir);
    List<PointResult> rs = new ArrayList<>(results(s));
    ScalePoint big = new ScalePoint(Sweep.CONNECTIONS, 1024, 4, 100);
    rs.removeIf(r -> r.system().equals("netty") && r.point().equals(big));
    rs.add(new PointResult("netty", big, measured(5000, 900, 3)));
    ScalingReport report = new ScalingReport(s, rs);
    String md = report.markdown("Scaling", List.of("Machine: m", "Measured d", "Command: `c`"),
        Map.of(Sweep.INFLIGHT, "img/scaling-inflight.png"), List.of(), List.of());
    assertThat(md).contains("![inflight curve](img/scaling-inflight.png)")
        .contains("_Machine: m; Measured d; Command: `c`_")
        .contains("## Payload size (async, 16 calls in flight on one connection)")
        .contains("| calls in flight on one connection | system | calls/s | p50 | p99 |")
        .contains("| payload bytes | system | calls/s | MB/s each way |")
        .contains("| 4096 | netty |").contains("| 1MiB | boltgen |")
        .contains("netty at connections-1024: 3 failed calls, e.g. `boom`")
        .contains("the server had 1 established connections on its port, not 1024");
    assertThat(report.console()).contains("Scaling: client connections to one server (async, 100 B, 4 calls in flight on each)");
  }
}
