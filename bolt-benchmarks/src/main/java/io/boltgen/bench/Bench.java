package io.boltgen.bench;

import io.boltgen.bench.codec.OrderCodecBenchmark;
import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.load.LoadSettings;
import io.boltgen.bench.load.Orchestrator;
import io.boltgen.bench.load.ScalingOrchestrator;
import io.boltgen.bench.load.ScalingSettings;
import io.boltgen.bench.load.Sweep;
import io.boltgen.bench.report.CodecReport;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.LoadReport;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.report.MarkdownReport;
import io.boltgen.bench.report.ScalingReport;
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
import java.util.Map;

/** Runs a plan (load matrix and/or JMH), prints the tables, and writes the Markdown report if asked. */
public final class Bench {

  /**
   * What to run.
   *
   * @param load the load matrix, or null to skip it
   * @param jmh the codec benchmark, or null to skip it
   * @param docs where to write the Markdown report, or null for none
   * @param command the command line that ran this, for the report
   * @param caveats why these numbers are not the full measurement (quick settings, a subset…), for the report
   * @param logDir where child JVM logs and the JMH log go
   * @param scaling the scaling curves, or null to skip them
   * @param scalingDocs where to write the scaling report (its charts go to {@code img/} beside it), or null
   */
  public record Plan(LoadSettings load, CodecBench.Settings jmh, Path docs, String command, List<String> caveats,
      Path logDir, ScalingSettings scaling, Path scalingDocs) {

    /** A plan without scaling curves. */
    public Plan(LoadSettings load, CodecBench.Settings jmh, Path docs, String command, List<String> caveats,
        Path logDir) {
      this(load, jmh, docs, command, caveats, logDir, null, null);
    }
  }

  /**
   * What came out.
   *
   * @param load the load outcome, or null
   * @param loadReport the load tables, or null
   * @param codecs the codec tables, or null
   * @param failures what failed
   * @param scaling the scaling outcome, or null
   * @param scalingReport the scaling tables and charts, or null
   */
  public record Result(Orchestrator.Outcome load, LoadReport loadReport, CodecReport codecs, List<String> failures,
      ScalingOrchestrator.Outcome scaling, ScalingReport scalingReport) {

    /** A result without scaling curves. */
    public Result(Orchestrator.Outcome load, LoadReport loadReport, CodecReport codecs, List<String> failures) {
      this(load, loadReport, codecs, failures, null, null);
    }
  }

  private Bench() {}

  /** Runs {@code plan}, printing progress and tables to {@code out}. */
  public static Result execute(Plan plan, PrintStream out) throws Exception {
    Instant started = Instant.now();
    Map<String, String> machine = MachineInfo.read();
    out.println("boltgen benchmarks on " + machine.get("CPU") + ", " + machine.get("cores") + "; load average "
        + machine.get("load average at start"));
    List<String> failures = new ArrayList<>();

    Orchestrator.Outcome outcome = null;
    LoadReport loadReport = null;
    if (plan.load() != null) {
      outcome = new Orchestrator(plan.load(), out).run();
      failures.addAll(outcome.failures());
      loadReport = new LoadReport(plan.load().cases(), plan.load().systems(), outcome.results(), outcome.runs());
    }

    ScalingOrchestrator.Outcome scaling = null;
    ScalingReport scalingReport = null;
    if (plan.scaling() != null) {
      scaling = new ScalingOrchestrator(plan.scaling(), out).run();
      failures.addAll(scaling.failures());
      scalingReport = new ScalingReport(plan.scaling(), scaling.results());
    }

    CodecReport codecs = null;
    if (plan.jmh() != null) {
      out.println("codecs: " + OrderCodecs.describe());
      CodecBench.Settings j = plan.jmh();
      out.printf("jmh: %d benchmark(s), %d fork(s) × (%d warm-up + %d measured iterations of %d ms) each, -prof gc%n",
          CodecBench.CODECS.size() * CodecBench.OPS.size(), j.forks(), j.warmupIterations(), j.iterations(),
          j.iterationMillis());
      Path log = plan.logDir().resolve("jmh.log");
      try {
        codecs = new CodecReport(CodecBench.run(j, out, log), OrderCodecBenchmark.encodedSizes());
      } catch (Exception e) {
        String f = "JMH failed: " + e + "; log: " + log;
        out.println("  FAILED " + f);
        failures.add(f);
      }
    }
    Duration took = Duration.between(started, Instant.now());

    if (loadReport != null) {
      out.print(loadReport.console());
      out.print(loadReport.targetsConsole());
      out.print(loadReport.warmupConsole());
    }
    if (scalingReport != null) {
      out.print(scalingReport.console());
    }
    if (codecs != null) {
      out.print(codecs.console());
    }
    if (!failures.isEmpty()) {
      out.println("\nFAILURES:");
      failures.forEach(f -> out.println("  " + f));
    }
    if (!plan.caveats().isEmpty()) {
      out.println("\nNot a full measurement: " + String.join("; ", plan.caveats()));
    }
    Result result = new Result(outcome, loadReport, codecs, failures, scaling, scalingReport);
    if (scalingReport != null && plan.scalingDocs() != null) {
      writeScaling(plan, scalingReport, scaling.failures(), machine, started, out);
    }
    if (plan.docs() != null) {
      String previous = Files.isRegularFile(plan.docs()) ? Files.readString(plan.docs(), StandardCharsets.UTF_8) : "";
      String md = MarkdownReport.render(plan, result, machine, started, took, previous);
      Files.createDirectories(plan.docs().toAbsolutePath().getParent());
      Files.writeString(plan.docs(), md, StandardCharsets.UTF_8);
      out.println("\nwrote " + plan.docs().toAbsolutePath());
    }
    out.println("took " + Fmt.duration(took));
    return result;
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
      Instant started, PrintStream out) throws java.io.IOException {
    Path md = plan.scalingDocs().toAbsolutePath();
    Path img = md.getParent().resolve("img");
    List<String> caption = scalingCaption(machine, started, plan.command());
    Map<Sweep, String> links = new LinkedHashMap<>();
    for (Path chart : report.writeCharts(img, caption)) {
      out.println("wrote " + chart);
    }
    for (Sweep sweep : plan.scaling().sweeps()) {
      links.put(sweep, md.getParent().relativize(ScalingReport.chartFile(img, sweep)).toString());
    }
    String text = report.markdown("Scaling: throughput, latency, CPU and allocation as the load grows",
        List.of(caption.get(0), caption.get(1), "Command: `" + plan.command() + "`"), links, plan.caveats(), failures);
    Files.writeString(md, text, StandardCharsets.UTF_8);
    out.println("wrote " + md);
  }
}
