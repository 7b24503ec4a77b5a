package io.boltgen.bench;

import io.boltgen.bench.Bench.Plan;
import io.boltgen.bench.Bench.Result;
import io.boltgen.bench.codec.OrderCodecBenchmark;
import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.report.ClusterReport;
import io.boltgen.bench.report.CodecReport;
import io.boltgen.bench.report.LoadReport;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.report.ScalingReport;
import io.boltgen.bench.run.Runner;
import io.boltgen.bench.run.Session;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.Sweep;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link Plan}: each of its scenarios through the one {@link Runner}, and the codec benchmark; prints the
 * tables, and writes the Markdown reports it asks for.
 */
public final class BenchRun {

  private BenchRun() {}


  /** Runs {@code plan}, printing progress and tables to {@code out}. */
  public static Result execute(Plan plan, PrintStream out) throws Exception {
    Session session = Session.begin("boltgen benchmarks", "", plan.caveats(), out);
    plan = plan.withCaveats(session.caveats());
    Instant started = session.started();
    Map<String, String> machine = session.machine();
    List<String> failures = new ArrayList<>();
    Runner.Outcome<Window> load = null;
    LoadReport loadReport = null;
    if (plan.load() != null) {
      load = Runner.run(plan.load(), out, LoadReport::describe);
      failures.addAll(load.failures());
      loadReport = new LoadReport(plan.load().cases(), plan.load().systems(), load.windows(), load.runs());
    }
    Runner.Outcome<Window> scaling = null;
    ScalingReport scalingReport = null;
    if (plan.scaling() != null) {
      scaling = Runner.run(plan.scaling(), out, new ScalingReport(plan.scaling(), List.of())::progress);
      failures.addAll(scaling.failures());
      scalingReport = new ScalingReport(plan.scaling(), scaling.windows());
    }
    Runner.Outcome<Window> cluster = null;
    ClusterReport clusterReport = null;
    if (plan.cluster() != null) {
      cluster = Runner.run(plan.cluster(), out, ClusterReport::describe);
      failures.addAll(cluster.failures());
      clusterReport = new ClusterReport(plan.cluster(), cluster.windows());
    }
    CodecReport codecs = plan.jmh() == null ? null : codecs(plan, out, failures);
    Duration took = session.took();
    failures.forEach(session::recordFailure);
    session.summary((loadReport != null ? loadReport.console() : "")
        + (scalingReport != null ? scalingReport.console() : "") + (codecs != null ? codecs.console() : "")
        + (clusterReport != null ? "\n" + clusterReport.markdown(started, took, machine, MachineInfo.loadAverage(),
            plan.command(), plan.caveats()) : ""));
    Result result = new Result(load, loadReport, scaling, scalingReport, codecs, cluster, clusterReport, failures);
    if (scalingReport != null && plan.scalingDocs() != null) {
      writeScaling(plan, scalingReport, scaling.failures(), session);
    }
    if (clusterReport != null && plan.clusterDocs() != null) {
      session.write(plan.clusterDocs(), clusterReport.page(started, took, machine, MachineInfo.loadAverage(),
          plan.command(), plan.caveats()));
    }
    if (plan.docs() != null) {
      session.write(plan.docs(), BenchmarksPage.render(plan, result, machine, MachineInfo.loadAverage(), started,
          took));
    }
    session.finish();
    return result;
  }

  private static CodecReport codecs(Plan plan, PrintStream out, List<String> failures) {
    out.println("codecs: " + OrderCodecs.describe());
    CodecBench.Settings j = plan.jmh();
    out.printf("jmh: %d benchmark(s), %d fork(s) × (%d warm-up + %d measured iterations of %d ms) each, -prof gc%n",
        CodecBench.CODECS.size() * CodecBench.OPS.size(), j.forks(), j.warmupIterations(), j.iterations(),
        j.iterationMillis());
    Path log = plan.logDir().resolve("jmh.log");
    try {
      return new CodecReport(CodecBench.run(j, out, log), OrderCodecBenchmark.encodedSizes());
    } catch (Exception e) {
      String f = "JMH failed: " + e + "; log: " + log;
      out.println("  FAILED " + f);
      failures.add(f);
      return null;
    }
  }

  /** The caption of every scaling chart and table: machine, date, command. */
  private static List<String> scalingCaption(Map<String, String> machine, Instant started, String command) {
    return List.of("Machine: " + machine.get("CPU") + ", " + machine.get("cores") + ", " + machine.get("memory") + ", "
            + machine.get("JDK"),
        "Measured " + DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(started.atOffset(ZoneOffset.UTC).withNano(0))
            + " UTC; load average at start " + machine.get("load average at start"),
        "Command: " + command);
  }

  /** docs/scaling.md (or the plan's path) and its charts in img/ beside it. */
  private static void writeScaling(Plan plan, ScalingReport report, List<String> failures, Session session)
      throws IOException {
    Path md = plan.scalingDocs().toAbsolutePath();
    Path img = md.getParent().resolve("img");
    List<String> caption = scalingCaption(session.machine(), session.started(), plan.command());
    for (Path chart : report.writeCharts(img, caption)) {
      session.out().println("wrote " + chart);
    }
    Map<Sweep, String> links = new LinkedHashMap<>();
    for (Sweep sweep : plan.scaling().sweeps()) {
      links.put(sweep, md.getParent().relativize(ScalingReport.chartFile(img, sweep)).toString());
    }
    session.write(md, report.markdown("Scaling: throughput, latency, CPU and allocation as the load grows",
        List.of(caption.get(0), caption.get(1), "Command: `" + plan.command() + "`"), links, plan.caveats(), failures));
  }
}
