package io.boltgen.bench;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.load.CaseResult;
import io.boltgen.bench.load.ClusterResult;
import io.boltgen.bench.load.ClusterSettings;
import io.boltgen.bench.load.LoadCase;
import io.boltgen.bench.load.LoadSettings;
import io.boltgen.bench.load.Measured;
import io.boltgen.bench.load.Orchestrator;
import io.boltgen.bench.load.PointResult;
import io.boltgen.bench.load.QuietPolicy;
import io.boltgen.bench.load.ScalePoint;
import io.boltgen.bench.load.ScalingSettings;
import io.boltgen.bench.load.Sweep;
import io.boltgen.bench.load.Systems;
import io.boltgen.bench.load.Workload;
import io.boltgen.bench.report.ClusterReport;
import io.boltgen.bench.report.CodecReport;
import io.boltgen.bench.report.LoadReport;
import io.boltgen.bench.report.MarkdownReport;
import io.boltgen.bench.report.ScalingReport;
import io.boltgen.bench.report.Spread;
import io.boltgen.runtime.cluster.LoadBalancer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** One-off: renders every report of the writers of today from fixed results into src/test/resources/golden. */
class GoldenCapture {

  static final Path DIR = Path.of("src/test/resources/golden");
  static final Instant STARTED = Instant.parse("2026-12-01T00:06:48Z");
  static final Map<String, String> MACHINE = new LinkedHashMap<>();

  static {
    MACHINE.put("CPU", "AMD EPYC");
    MACHINE.put("cores", "2 available to the JVM (0-1 online)");
    MACHINE.put("memory", "23.5 GiB");
    MACHINE.put("kernel", "Linux 6.18.44-fc-v857");
    MACHINE.put("JDK", "OpenJDK 64-Bit Server VM 17.0.15+6-Debian-1deb12u1 (Debian)");
    MACHINE.put("load average at start", "2.81 4.99 4.57");
  }

  static void write(String name, String text) throws Exception {
    Files.createDirectories(DIR);
    Files.writeString(DIR.resolve(name), text, StandardCharsets.UTF_8);
  }

  static String endLoad(String s) {
    return s.replaceAll("\\| load average at end \\| [^|]* \\|", "| load average at end | X |")
        .replaceAll(" at the start, [0-9.]+ [0-9.]+ [0-9.]+ at the end", " at the start, X at the end");
  }

  @Test
  void capture() throws Exception {
    SplittableRandom rnd = new SplittableRandom(20261201);
    List<String> ids = List.of("boltgen", "boltgen-io", "sofabolt-fc", "sofabolt-io", "grpc-direct", "netty");
    double[] base = {107_000, 123_000, 86_000, 97_000, 44_000, 143_000};
    List<LoadCase> cases = List.of(new LoadCase(Workload.SYNC, 100), new LoadCase(Workload.SYNC, 1024),
        new LoadCase(Workload.ASYNC, 100), new LoadCase(Workload.ASYNC, 1024));
    List<CaseResult> results = new ArrayList<>();
    List<Orchestrator.RunInfo> runs = new ArrayList<>();
    for (int run = 1; run <= 3; run++) {
      List<String> order = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        order.add(ids.get((run - 1 + i) % ids.size()));
      }
      runs.add(new Orchestrator.RunInfo(run, order, "2.8" + run + " 4.99 4.57", "4.6" + run + " 6.39 5.71"));
      for (String id : order) {
        int si = ids.indexOf(id);
        for (int ci = 0; ci <= cases.size(); ci++) {
          LoadCase c = cases.get(ci == cases.size() ? 0 : ci);
          boolean repeat = ci == cases.size();
          double scale = (c.workload() == Workload.ASYNC ? 6 : 1) * (c.payloadBytes() == 1024 ? 0.8 : 1)
              * (0.8 + 0.4 * rnd.nextDouble());
          double seconds = 5.0 + rnd.nextDouble() * 0.01;
          long calls = (long) (base[si] * scale * seconds);
          double p50 = 1e6 * 32 / (base[si] * scale) * (0.9 + 0.2 * rnd.nextDouble());
          long errors = id.equals("sofabolt-fc") && run == 2 && ci == 3 ? 17 : 0;
          String err = errors > 0 ? "com.alipay.remoting.exception.RemotingException: maybe `write` overflow!" : "";
          double other = run == 3 && id.equals("netty") && ci == 1 ? 7.25 : rnd.nextDouble() * 2.6;
          boolean noisy = other > 5;
          int attempts = noisy ? 3 : (run == 2 && ci == 2 && id.equals("boltgen") ? 2 : 1);
          double jit = run == 1 && id.equals("grpc-direct") && ci == 0 ? 400 : rnd.nextDouble() * 100;
          results.add(new CaseResult(id, c.token(), run, calls, errors, seconds, p50, p50 * 1.7, p50 * 5.3, p50 * 9,
              1e6 * 1.1 / (base[si] * scale) * 10 * (0.9 + 0.2 * rnd.nextDouble()),
              1e6 * 0.3 / (base[si] * scale) * 10 * (0.9 + 0.2 * rnd.nextDouble()), jit, rnd.nextDouble() * 20, err,
              other, attempts, noisy, repeat));
        }
      }
    }
    StringBuilder lines = new StringBuilder();
    results.forEach(r -> lines.append(r.toLine()).append('\n'));
    write("load-results.txt", lines.toString());
    StringBuilder runLines = new StringBuilder();
    runs.forEach(r -> runLines.append(r.run()).append('\t').append(String.join(",", r.order())).append('\t')
        .append(r.loadAverageStart()).append('\t').append(r.loadAverageEnd()).append('\n'));
    write("load-runs.txt", runLines.toString());

    LoadSettings load = new LoadSettings(Systems.parse(String.join(",", ids)), cases, 3, Duration.ofSeconds(5),
        Duration.ofSeconds(5), Duration.ofSeconds(40), QuietPolicy.DEFAULT, LoadSettings.DEFAULT_JVM_FLAGS, List.of(),
        List.of(), false, Path.of("logs"), "127.0.0.1");
    LoadReport report = new LoadReport(cases, load.systems(), results, runs);
    write("load-console.txt", report.console() + report.targetsConsole() + report.warmupConsole());
    StringBuilder progress = new StringBuilder();
    for (int i = 0; i < results.size(); i += 7) {
      progress.append(Orchestrator.describe(results.get(i))).append('\n');
    }
    write("load-progress.txt", progress.toString());

    // scaling
    ScalingSettings scaling = new ScalingSettings(Systems.parse(ScalingSettings.DEFAULT_SYSTEMS), List.of(Sweep.values()),
        ScalingSettings.DEFAULT_INFLIGHTS, ScalingSettings.DEFAULT_PAYLOADS, ScalingSettings.DEFAULT_CONNECTIONS, 16, 4,
        Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(4), QuietPolicy.DEFAULT,
        LoadSettings.DEFAULT_JVM_FLAGS, Path.of("logs"), "127.0.0.1");
    List<PointResult> points = new ArrayList<>();
    double factor = 1;
    for (var system : scaling.systems()) {
      for (Sweep sweep : scaling.sweeps()) {
        for (ScalePoint p : scaling.points(sweep)) {
          long calls = (long) (10_000 * factor * Math.log(p.x() + 2) * (0.9 + 0.2 * rnd.nextDouble()));
          double p99 = 50 * Math.sqrt(p.x()) / factor;
          long errors = system.id().equals("sofabolt-io") && p.x() >= 1024 && sweep == Sweep.INFLIGHT ? 424 : 0;
          int conns = system.id().equals("netty") && p.x() == 1024 && sweep == Sweep.CONNECTIONS ? 1000 : p.connections();
          double other = system.id().equals("netty") && sweep == Sweep.PAYLOAD && p.x() == 1048576 ? 9.2
              : rnd.nextDouble() * 4;
          points.add(new PointResult(system.id(), p, new Measured(calls, errors,
              errors > 0 ? "InvokeTimeoutException: Invoke `timeout`" : "", 4.0 + rnd.nextDouble() * 0.01, p99 / 3, p99,
              p99 * 2, p99 * 3, 2.5 * factor, 1.5 * factor, rnd.nextDouble() * 30, 0, 500 + p.payloadBytes() * 1.1 * factor,
              system.id().equals("netty") ? 104 : 400 + p.payloadBytes() * 1.05, conns, other, other > 5 ? 3 : 1,
              other > 5)));
        }
      }
      factor *= 2;
    }
    lines.setLength(0);
    points.forEach(r -> lines.append(r.toLine()).append('\n'));
    write("scaling-results.txt", lines.toString());
    ScalingReport scalingReport = new ScalingReport(scaling, points);
    String command = "java -jar bolt-benchmarks/target/bolt-benchmarks.jar all --systems "
        + String.join(",", ids) + " --warmup 5 --measure 5 --scaling-warmup 2 --scaling-measure 4";
    List<String> caption = Bench.scalingCaption(MACHINE, STARTED, command);
    Map<Sweep, String> links = new LinkedHashMap<>();
    for (Sweep sweep : scaling.sweeps()) {
      links.put(sweep, "img/scaling-" + sweep.id() + ".png");
    }
    write("scaling.md", scalingReport.markdown("Scaling: throughput, latency, CPU and allocation as the load grows",
        List.of(caption.get(0), caption.get(1), "Command: `" + command + "`"), links,
        List.of("a subset of the systems, cases or codecs"), List.of("netty (payload curve): client failed; log: x.log")));
    write("scaling-console.txt", scalingReport.console());
    java.lang.reflect.Method describe = Class.forName("io.boltgen.bench.load.ScalingOrchestrator")
        .getDeclaredMethod("describe", PointResult.class);
    describe.setAccessible(true);
    progress.setLength(0);
    for (int i = 0; i < points.size(); i += 5) {
      progress.append(describe.invoke(null, points.get(i))).append('\n');
    }
    write("scaling-progress.txt", progress.toString());
    Path png = Path.of("/tmp/golden-old-png");
    scalingReport.writeCharts(png, caption);

    // codecs
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
    Map<String, Integer> sizes = Map.of("boltgen", 636, "protobufBytes", 633, "protobufDirect", 633, "hessian2", 933);
    CodecReport codecs = new CodecReport(scores, sizes);
    write("codecs-console.txt", codecs.console());

    // the whole of docs/benchmarks.md
    CodecBench.Settings jmh = new CodecBench.Settings(3, 3, 5, 1000, LoadSettings.DEFAULT_JVM_FLAGS, null);
    Path docs = Path.of("/tmp/golden-docs/benchmarks.md");
    Bench.Plan plan = new Bench.Plan(load, jmh, docs, command, List.of(), Path.of("logs"), scaling,
        docs.resolveSibling("scaling.md"));
    Bench.Result result = new Bench.Result(new Orchestrator.Outcome(results, runs, List.of()), report, codecs,
        List.of(), null, scalingReport);
    String previous = Files.readString(Main.repoRoot().resolve("docs/benchmarks.md"));
    write("benchmarks.md", endLoad(MarkdownReport.render(plan, result, MACHINE, STARTED, Duration.ofSeconds(2641),
        previous)));
    Bench.Plan partial = new Bench.Plan(load, null, docs, "java -jar x.jar load --runs 1", List.of("1 run(s)",
        "a subset of the systems, cases or codecs"), Path.of("logs"));
    Bench.Result failed = new Bench.Result(new Orchestrator.Outcome(results, runs, List.of("netty (run 2): boom")),
        report, null, List.of("netty (run 2): server did not start (null); log: run2-netty-server.log"));
    write("benchmarks-partial.md", endLoad(MarkdownReport.render(partial, failed, MACHINE,
        STARTED, Duration.ofSeconds(75), "")));

    // cluster
    List<String> clusterCaveats = List.of("1 round(s), fewer than the 3 a median and range need");
    ClusterSettings cluster = new ClusterSettings(ClusterSettings.DEFAULT_POLICIES, 5, Duration.ofSeconds(10),
        Duration.ofSeconds(10), 5, 64, 100, LoadSettings.DEFAULT_JVM_FLAGS, Path.of("logs"), "127.0.0.1",
        "java -jar bolt-benchmarks/target/bolt-benchmarks.jar cluster --seconds 10 --warmup 10 --rounds 5 --slow-ms 5"
            + " --concurrency 64", List.of());
    List<ClusterResult> cr = new ArrayList<>();
    for (int round = 1; round <= 5; round++) {
      for (LoadBalancer policy : cluster.policies()) {
        boolean rr = policy == LoadBalancer.ROUND_ROBIN;
        long total = (long) ((rr ? 35_000 : 250_000) * 10 * (0.95 + 0.1 * rnd.nextDouble()));
        long slow = rr ? total / 3 : (long) (total * (0.019 + 0.006 * rnd.nextDouble()));
        long a = (total - slow) / 2;
        long errors = !rr && round == 4 ? 3 : 0;
        cr.add(new ClusterResult(policy, round, slow + a + (total - slow - a), errors, 10.0 + rnd.nextDouble() * 0.01,
            150 * (0.95 + 0.3 * rnd.nextDouble()), 5300 + rnd.nextDouble() * 100, rr ? 6340 : 5430, 9000,
            List.of(slow, a, total - slow - a), List.of(5210 + rnd.nextDouble() * 50, 90.0, 95.5), 0,
            errors > 0 ? "io.boltgen.runtime.BoltException: TIMEOUT `x`" : ""));
      }
    }
    lines.setLength(0);
    cr.forEach(r -> lines.append(r.toLine()).append('\n'));
    write("cluster-results.txt", lines.toString());
    ClusterReport clusterReport = new ClusterReport(cluster, cr);
    write("cluster.md", endLoad(clusterReport.markdown(Instant.parse("2026-11-30T19:47:20Z"), Duration.ofSeconds(221),
        MACHINE)));
    ClusterSettings short1 = new ClusterSettings(ClusterSettings.DEFAULT_POLICIES, 1, Duration.ofSeconds(1),
        Duration.ofSeconds(1), 20, 32, 100, List.of(), Path.of("logs"), "127.0.0.1", "java -jar x.jar cluster --rounds 1",
        clusterCaveats);
    write("cluster-partial.md", endLoad(new ClusterReport(short1, cr.subList(0, 2)).markdown(
        Instant.parse("2026-11-30T19:47:20Z"), Duration.ofSeconds(9), MACHINE)));
    progress.setLength(0);
    cr.forEach(r -> progress.append(ClusterReport.describe(r)).append('\n'));
    write("cluster-progress.txt", progress.toString());
  }
}
