package io.boltgen.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.Bench;
import io.boltgen.bench.BenchmarksPage;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.run.Measured;
import io.boltgen.bench.run.Runner.Outcome;
import io.boltgen.bench.run.Runner.RunInfo;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.ClusterBalancing;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.ScalingCurves;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.scenario.Sweep;
import io.boltgen.bench.system.Systems;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every report rendered from fixed results (the files under {@code golden/}: windows of the load matrix, the scaling
 * curves and the cluster load, as the report writers of before the one pipeline received them) must come out as
 * those writers wrote it, to the character: the load tables and their notes, the targets from paired ratios, the
 * warm-up check, the quiet-machine table, the whole of benchmarks.md, the scaling tables and
 * scaling.md, the cluster block, the codec tables, and the progress lines.
 */
class GoldenOutputTest {

  private static final Instant STARTED = Instant.parse("2026-12-01T00:06:48Z");
  private static final String COMMAND = "java -jar bolt-benchmarks/target/bolt-benchmarks.jar all --systems"
      + " boltgen,boltgen-io,sofabolt-fc,sofabolt-io,grpc-direct,netty --warmup 5 --measure 5 --scaling-warmup 2"
      + " --scaling-measure 4";
  private static final Map<String, String> MACHINE = Golden.machine();

  private static final Setup SETUP = new Setup(Duration.ofSeconds(5), Duration.ofSeconds(5), QuietPolicy.DEFAULT,
      Setup.DEFAULT_JVM_FLAGS, Path.of("logs"), "127.0.0.1");
  private static final LoadMatrix LOAD = new LoadMatrix(
      Systems.parse("boltgen,boltgen-io,sofabolt-fc,sofabolt-io,grpc-direct,netty"),
      LoadMatrix.cases(LoadMatrix.DEFAULT_WORKLOADS, LoadMatrix.DEFAULT_PAYLOADS), 3, Duration.ofSeconds(40), SETUP,
      List.of(), List.of(), false);
  private static final ScalingCurves CURVES = new ScalingCurves(Systems.parse(ScalingCurves.DEFAULT_SYSTEMS),
      List.of(Sweep.values()), ScalingCurves.DEFAULT_INFLIGHTS, ScalingCurves.DEFAULT_PAYLOADS,
      ScalingCurves.DEFAULT_CONNECTIONS, 16, 4, Duration.ofSeconds(30),
      new Setup(Duration.ofSeconds(2), Duration.ofSeconds(4), QuietPolicy.DEFAULT, Setup.DEFAULT_JVM_FLAGS,
          Path.of("logs"), "127.0.0.1"));

  static String golden(String name) throws IOException {
    try (InputStream in = GoldenOutputTest.class.getResourceAsStream("/golden/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The fields of an old result line. */
  private static Map<String, String> fields(String line) {
    Map<String, String> f = new LinkedHashMap<>();
    for (String part : line.split("\t")) {
      f.put(part.substring(0, part.indexOf('=')), part.substring(part.indexOf('=') + 1));
    }
    return f;
  }

  private static double d(Map<String, String> f, String key) {
    return Double.parseDouble(f.getOrDefault(key, "NaN"));
  }

  private static Measured measured(Map<String, String> f, List<Long> instanceCalls, List<Double> instanceP50s) {
    return new Measured(Long.parseLong(f.get("calls")), Long.parseLong(f.get("errors")), f.get("firstError"),
        d(f, "seconds"), d(f, "p50"), d(f, "p99"), d(f, "p999"), d(f, "max"), Double.parseDouble(f.getOrDefault("clientCpu", "0")),
        Double.parseDouble(f.getOrDefault("serverCpu", "0")), Double.parseDouble(f.getOrDefault("clientJitMs", "0")),
        Double.parseDouble(f.getOrDefault("clientGcMs", "0")), d(f, "clientAlloc"), d(f, "serverAlloc"),
        Integer.parseInt(f.getOrDefault("serverConnections", "-1")), d(f, "otherCpu"),
        Integer.parseInt(f.getOrDefault("attempts", "1")), Boolean.parseBoolean(f.get("noisy")), instanceCalls,
        instanceP50s);
  }

  static List<Window> loadWindows() throws IOException {
    List<Window> windows = new ArrayList<>();
    for (String line : golden("load-results.txt").split("\n")) {
      Map<String, String> f = fields(line);
      String[] c = f.get("case").split("/");
      windows.add(new Window(f.get("system"), LoadMatrix.point(c[0], Integer.parseInt(c[1])).id(),
          Integer.parseInt(f.get("run")), Boolean.parseBoolean(f.get("repeat")), measured(f, List.of(), List.of())));
    }
    return windows;
  }

  static List<RunInfo> loadRuns() throws IOException {
    List<RunInfo> runs = new ArrayList<>();
    for (String line : golden("load-runs.txt").split("\n")) {
      String[] f = line.split("\t");
      runs.add(new RunInfo(Integer.parseInt(f[0]), List.of(f[1].split(",")), f[2], f[3]));
    }
    return runs;
  }

  static List<Window> scalingWindows() throws IOException {
    List<Window> windows = new ArrayList<>();
    for (String line : golden("scaling-results.txt").split("\n")) {
      Map<String, String> f = fields(line);
      String[] p = f.get("point").split("/"); // sweep/connections/inflight per connection/payload
      String id = switch (Sweep.parse(p[0])) {
        case INFLIGHT -> "inflight-" + p[2];
        case PAYLOAD -> "payload-" + Point.bytes(Integer.parseInt(p[3]));
        case CONNECTIONS -> "connections-" + p[1];
      };
      windows.add(new Window(f.get("system"), id, 1, false, measured(f, List.of(), List.of())));
    }
    return windows;
  }

  static List<Window> clusterWindows() throws IOException {
    List<Window> windows = new ArrayList<>();
    for (String line : golden("cluster-results.txt").split("\n")) {
      Map<String, String> f = fields(line);
      windows.add(new Window("cluster", f.get("policy"), Integer.parseInt(f.get("round")), false, measured(f,
          List.of(f.get("instanceCalls").split(",")).stream().map(Long::parseLong).toList(),
          List.of(f.get("instanceP50").split(",")).stream().map(Double::parseDouble).toList())));
    }
    return windows;
  }

  private static String everyNth(List<Window> windows, int n, java.util.function.Function<Window, String> line) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < windows.size(); i += n) {
      sb.append(line.apply(windows.get(i))).append('\n');
    }
    return sb.toString();
  }

  static CodecReport codecs() {
    Map<String, Map<String, CodecBench.Score>> scores = new LinkedHashMap<>();
    double[][] ns = {{673, 747, 1616}, {661, 1199, 1887}, {704, 1245, 2079}, {4753, 8359, 13725}};
    double[][] bytes = {{128, 2584, 2712}, {1888, 3880, 5768}, {1416, 4728, 6144}, {4696, 7718, 12318}};
    for (int c = 0; c < CodecBench.CODECS.size(); c++) {
      Map<String, CodecBench.Score> ops = new LinkedHashMap<>();
      for (int o = 0; o < CodecBench.OPS.size(); o++) {
        double v = ns[c][o];
        ops.put(CodecBench.OPS.get(o), new CodecBench.Score(Spread.of(List.of(v * 0.97, v, v * 1.05)),
            Spread.of(List.of(bytes[c][o], bytes[c][o], bytes[c][o]))));
      }
      scores.put(CodecBench.CODECS.get(c), ops);
    }
    return new CodecReport(scores, Map.of("boltgen", 636, "protobufBytes", 633, "protobufDirect", 633, "hessian2", 933));
  }

  @Test
  void loadTablesTargetsWarmUpCheckAndProgressLines() throws IOException {
    LoadReport report = new LoadReport(LOAD.cases(), LOAD.systems(), loadWindows(), loadRuns());
    assertThat(report.console()).isEqualTo(golden("load-console.txt"));
    assertThat(everyNth(loadWindows(), 7, LoadReport::describe)).isEqualTo(golden("load-progress.txt"));
  }

  @Test
  void aLoadProgressLineEndsWithTheWindowsErrors() {
    Window w = new Window("netty", "async-256/1KiB", 1, false, new Measured(1234, 5, "java.io.IOException: boom",
        10.0, 1.5, 20.25, 300, 4000, 3.25, 4.5, 1000, 7, 512.5, 512.5, 1, 6.5, 2, true, List.of(), List.of()));
    assertThat(LoadReport.describe(w)).endsWith("  [2 attempts]  [NOISY]  [client JIT 10% of window]"
        + "  ERRORS 5 (java.io.IOException: boom)");
  }

  @Test
  void theWholeOfBenchmarksMdAndAReportOfASubsetThatFailed() throws IOException {
    LoadReport report = new LoadReport(LOAD.cases(), LOAD.systems(), loadWindows(), loadRuns());
    ScalingReport scaling = new ScalingReport(CURVES, scalingWindows());
    Path docs = Path.of("/tmp/golden-docs/benchmarks.md");
    CodecBench.Settings jmh = new CodecBench.Settings(3, 3, 5, 1000, Setup.DEFAULT_JVM_FLAGS, null);
    Bench.Plan full = new Bench.Plan(LOAD, CURVES, jmh, null, docs, docs.resolveSibling("scaling.md"), null, COMMAND, List.of(),
        Path.of("logs"));
    Outcome<Window> outcome = new Outcome<>(loadWindows(), loadRuns(), List.of());
    Bench.Result result = new Bench.Result(outcome, report, null, scaling, codecs(), null, null, List.of());
    String expected = golden("benchmarks.md");
    assertThat(BenchmarksPage.render(full, result, MACHINE, "X", STARTED, Duration.ofSeconds(2641)))
        .isEqualTo(expected);

    Bench.Plan partial = new Bench.Plan(LOAD, null, null, null, docs, null, null, "java -jar x.jar load --runs 1",
        List.of("1 run(s)", "a subset of the systems, cases or codecs"), Path.of("logs"));
    Bench.Result failed = new Bench.Result(outcome, report, null, null, null, null, null,
        List.of("netty (run 2): server did not start (null); log: run2-netty-server.log"));
    assertThat(BenchmarksPage.render(partial, failed, MACHINE, "X", STARTED, Duration.ofSeconds(75)))
        .isEqualTo(golden("benchmarks-partial.md"));
  }

  @Test
  void scalingTablesDocumentAndProgressLines() throws IOException {
    ScalingReport report = new ScalingReport(CURVES, scalingWindows());
    Map<Sweep, String> links = new LinkedHashMap<>();
    for (Sweep sweep : Sweep.values()) {
      links.put(sweep, "img/scaling-" + sweep.id() + ".png");
    }
    String md = report.markdown("Scaling: throughput, latency, CPU and allocation as the load grows",
        List.of("Machine: AMD EPYC, 2 available to the JVM (0-1 online), 23.5 GiB, " + MACHINE.get("JDK"),
            "Measured 2026-12-01T00:06:48 UTC; load average at start 2.81 4.99 4.57", "Command: `" + COMMAND + "`"),
        links, List.of("a subset of the systems, cases or codecs"), List.of("netty (payload curve): client failed; log: x.log"));
    assertThat(md).isEqualTo(golden("scaling.md"));
    assertThat(report.console()).isEqualTo(golden("scaling-console.txt"));
    assertThat(everyNth(scalingWindows(), 5, report::progress)).isEqualTo(golden("scaling-progress.txt"));
  }

  @Test
  void chartsArePngsOfTheSetSizeAndTheSameDataGivesTheSameBytes(@TempDir Path dir) throws IOException {
    ScalingReport report = new ScalingReport(CURVES, scalingWindows());
    List<String> caption = List.of("Machine: AMD EPYC", "Measured 2026-12-01T00:06:48 UTC", "Command: `x`");
    List<Path> first = report.writeCharts(dir.resolve("a"), caption);
    List<Path> second = report.writeCharts(dir.resolve("b"), caption);
    assertThat(first).extracting(f -> f.getFileName().toString())
        .containsExactly("scaling-inflight.png", "scaling-payload.png", "scaling-connections.png");
    for (int i = 0; i < first.size(); i++) {
      BufferedImage image = ImageIO.read(first.get(i).toFile());
      assertThat(image.getWidth()).isEqualTo(Charts.WIDTH);
      assertThat(image.getHeight()).isEqualTo(Charts.HEIGHT);
      assertThat(Files.readAllBytes(second.get(i))).as("deterministic").isEqualTo(Files.readAllBytes(first.get(i)));
    }
    // for a look by eye, or a comparison with charts drawn elsewhere: target/scaling-chart-sample/
    report.writeCharts(Path.of("target", "scaling-chart-sample"), List.of("Machine: AMD EPYC, 2 available to the JVM (0-1 online), 23.5 GiB, " + MACHINE.get("JDK"),
            "Measured 2026-12-01T00:06:48 UTC; load average at start 2.81 4.99 4.57", "Command: " + COMMAND));
  }

  @Test
  void clusterBlockAndProgressLines() throws IOException {
    ClusterBalancing cluster = new ClusterBalancing(ClusterBalancing.DEFAULT_POLICIES, 5, 5, 64,
        new Setup(Duration.ofSeconds(10), Duration.ofSeconds(10), QuietPolicy.DEFAULT, List.of(), Path.of("logs"),
            "127.0.0.1"));
    ClusterReport report = new ClusterReport(cluster, clusterWindows());
    Instant started = Instant.parse("2026-11-30T19:47:20Z");
    assertThat(report.markdown(started, Duration.ofSeconds(221), MACHINE, "X", "java -jar"
        + " bolt-benchmarks/target/bolt-benchmarks.jar cluster --seconds 10 --warmup 10 --rounds 5 --slow-ms 5"
        + " --concurrency 64", List.of())).isEqualTo(golden("cluster.md"));
    assertThat(report.page(started, Duration.ofSeconds(221), MACHINE, "X", "java -jar"
        + " bolt-benchmarks/target/bolt-benchmarks.jar cluster --seconds 10 --warmup 10 --rounds 5 --slow-ms 5"
        + " --concurrency 64", List.of()))
        .startsWith("# Benchmarks: balancing around a slow instance\n\n<!-- Written by bolt-benchmarks")
        .contains(Markdown.resource("cluster-method.md")).endsWith("## Results\n\n" + golden("cluster.md"));

    ClusterBalancing once = new ClusterBalancing(ClusterBalancing.DEFAULT_POLICIES, 1, 20, 32,
        new Setup(Duration.ofSeconds(1), Duration.ofSeconds(1), QuietPolicy.DEFAULT, List.of(), Path.of("logs"),
            "127.0.0.1"));
    assertThat(new ClusterReport(once, clusterWindows().subList(0, 2)).markdown(started, Duration.ofSeconds(9), MACHINE,
        "X", "java -jar x.jar cluster --rounds 1", List.of("1 round(s), fewer than the 3 a median and range need")))
        .isEqualTo(golden("cluster-partial.md"));
    assertThat(everyNth(clusterWindows(), 1, ClusterReport::describe)).isEqualTo(golden("cluster-progress.txt"));
  }

  @Test
  void codecTables() throws IOException {
    assertThat(codecs().console()).isEqualTo(golden("codecs-console.txt"));
    assertThat(golden("benchmarks.md")).contains(codecs().markdown());
  }
}
