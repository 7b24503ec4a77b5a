package io.boltgen.bench;

import io.boltgen.bench.codec.OrderCodecBenchmark;
import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.report.ClusterReport;
import io.boltgen.bench.report.CodecReport;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.LoadReport;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.report.MarkdownReport;
import io.boltgen.bench.report.ScalingReport;
import io.boltgen.bench.run.ProcStat;
import io.boltgen.bench.run.Runner;
import io.boltgen.bench.scenario.ClusterBalancing;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.ScalingCurves;
import io.boltgen.bench.scenario.Sweep;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a plan: each of its scenarios through the one {@link Runner}, and the codec benchmark; prints the tables, and
 * writes the Markdown reports it asks for.
 */
public final class Bench {

  /**
   * What to run; a null part is skipped.
   *
   * @param docs where to write docs/benchmarks.md (load, scaling link, codecs), or null for none
   * @param scalingDocs where to write the scaling report (its charts go to {@code img/} beside it), or null
   * @param command the command line that ran this, for the reports
   * @param caveats why these numbers are not the full measurement (quick settings, a subset…), for the reports
   * @param logDir where child JVM logs and the JMH log go
   */
  public record Plan(LoadMatrix load, ScalingCurves scaling, CodecBench.Settings jmh, ClusterBalancing cluster, Path docs,
      Path scalingDocs, String command, List<String> caveats, Path logDir) {

    public Plan {
      caveats = List.copyOf(caveats);
    }
  }

  /**
   * What came out; a part that did not run is null.
   *
   * @param failures what failed
   */
  public record Result(Runner.Outcome load, LoadReport loadReport, Runner.Outcome scaling, ScalingReport scalingReport,
      CodecReport codecs, Runner.Outcome cluster, ClusterReport clusterReport, List<String> failures) {}

  private Bench() {}

  /** Runs {@code plan}, printing progress and tables to {@code out}. */
  public static Result execute(Plan plan, PrintStream out) throws Exception {
    Instant started = Instant.now();
    Map<String, String> machine = MachineInfo.read();
    out.println("boltgen benchmarks on " + machine.get("CPU") + ", " + machine.get("cores") + "; load average "
        + machine.get("load average at start"));
    plan = busyAtStart(plan);
    List<String> failures = new ArrayList<>();
    Runner.Outcome load = null;
    LoadReport loadReport = null;
    if (plan.load() != null) {
      load = Runner.run(plan.load(), out, LoadReport::describe);
      failures.addAll(load.failures());
      loadReport = new LoadReport(plan.load().cases(), plan.load().systems(), load.windows(), load.runs());
    }
    Runner.Outcome scaling = null;
    ScalingReport scalingReport = null;
    if (plan.scaling() != null) {
      scaling = Runner.run(plan.scaling(), out, new ScalingReport(plan.scaling(), List.of())::progress);
      failures.addAll(scaling.failures());
      scalingReport = new ScalingReport(plan.scaling(), scaling.windows());
    }
    Runner.Outcome cluster = null;
    ClusterReport clusterReport = null;
    if (plan.cluster() != null) {
      cluster = Runner.run(plan.cluster(), out, ClusterReport::describe);
      failures.addAll(cluster.failures());
      clusterReport = new ClusterReport(plan.cluster(), cluster.windows());
    }
    CodecReport codecs = plan.jmh() == null ? null : codecs(plan, out, failures);
    Duration took = Duration.between(started, Instant.now());

    out.print(loadReport != null ? loadReport.console() : "");
    out.print(scalingReport != null ? scalingReport.console() : "");
    out.print(codecs != null ? codecs.console() : "");
    if (clusterReport != null) {
      out.print("\n" + clusterReport.markdown(started, took, machine, MachineInfo.loadAverage(), plan.command(),
          plan.caveats()));
    }
    if (!failures.isEmpty()) {
      out.println("\nFAILURES:");
      failures.forEach(f -> out.println("  " + f));
    }
    if (!plan.caveats().isEmpty()) {
      out.println("\nNot a full measurement: " + String.join("; ", plan.caveats()));
    }
    Result result = new Result(load, loadReport, scaling, scalingReport, codecs, cluster, clusterReport, failures);
    if (scalingReport != null && plan.scalingDocs() != null) {
      writeScaling(plan, scalingReport, scaling.failures(), machine, started, out);
    }
    if (plan.docs() != null) {
      String previous = Files.isRegularFile(plan.docs()) ? Files.readString(plan.docs(), StandardCharsets.UTF_8) : "";
      write(plan.docs(), MarkdownReport.render(plan, result, machine, MachineInfo.loadAverage(), started, took,
          previous), out);
    }
    out.println("took " + Fmt.duration(took));
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

  /**
   * The plan with a caveat more when other processes used more than {@link ProcStat#BUSY_PERCENT}% of a core over
   * the 2 s before the run (the windows' own quietness is measured and reported per window).
   */
  private static Plan busyAtStart(Plan plan) throws InterruptedException {
    double other = ProcStat.otherCpuPercent(Duration.ofSeconds(2));
    if (!(other > ProcStat.BUSY_PERCENT)) {
      return plan;
    }
    List<String> caveats = new ArrayList<>(plan.caveats());
    caveats.add(String.format(Locale.ROOT, "the machine was busy when it started (other processes took %.0f%% of a"
        + " core over 2 s; 1-minute load average %.1f): other work shared the CPUs", other, MachineInfo.loadAverage1()));
    return new Plan(plan.load(), plan.scaling(), plan.jmh(), plan.cluster(), plan.docs(), plan.scalingDocs(),
        plan.command(), caveats, plan.logDir());
  }

  /** The caption of every scaling chart and table: machine, date, command. */
  static List<String> scalingCaption(Map<String, String> machine, Instant started, String command) {
    return List.of("Machine: " + machine.get("CPU") + ", " + machine.get("cores") + ", " + machine.get("memory") + ", "
            + machine.get("JDK"),
        "Measured " + DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(started.atOffset(ZoneOffset.UTC).withNano(0))
            + " UTC; load average at start " + machine.get("load average at start"),
        "Command: " + command);
  }

  /** docs/scaling.md (or the plan's path) and its charts in img/ beside it. */
  private static void writeScaling(Plan plan, ScalingReport report, List<String> failures, Map<String, String> machine,
      Instant started, PrintStream out) throws IOException {
    Path md = plan.scalingDocs().toAbsolutePath();
    Path img = md.getParent().resolve("img");
    List<String> caption = scalingCaption(machine, started, plan.command());
    for (Path chart : report.writeCharts(img, caption)) {
      out.println("wrote " + chart);
    }
    Map<Sweep, String> links = new LinkedHashMap<>();
    for (Sweep sweep : plan.scaling().sweeps()) {
      links.put(sweep, md.getParent().relativize(ScalingReport.chartFile(img, sweep)).toString());
    }
    write(md, report.markdown("Scaling: throughput, latency, CPU and allocation as the load grows",
        List.of(caption.get(0), caption.get(1), "Command: `" + plan.command() + "`"), links, plan.caveats(), failures), out);
  }

  private static void write(Path file, String text, PrintStream out) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    out.println("wrote " + file.toAbsolutePath());
  }
}
