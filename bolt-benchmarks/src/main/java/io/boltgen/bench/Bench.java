package io.boltgen.bench;

import io.boltgen.bench.codec.OrderCodecBenchmark;
import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.load.LoadSettings;
import io.boltgen.bench.load.Orchestrator;
import io.boltgen.bench.report.CodecReport;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.LoadReport;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.report.MarkdownReport;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
   */
  public record Plan(LoadSettings load, CodecBench.Settings jmh, Path docs, String command, List<String> caveats,
      Path logDir) {}

  /**
   * What came out.
   *
   * @param load the load outcome, or null
   * @param loadReport the load tables, or null
   * @param codecs the codec tables, or null
   * @param failures what failed
   */
  public record Result(Orchestrator.Outcome load, LoadReport loadReport, CodecReport codecs, List<String> failures) {}

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
    Result result = new Result(outcome, loadReport, codecs, failures);
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
}
