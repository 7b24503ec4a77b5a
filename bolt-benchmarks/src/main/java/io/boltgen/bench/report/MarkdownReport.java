package io.boltgen.bench.report;

import io.boltgen.bench.Bench;
import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.system.EchoSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * Renders docs/benchmarks.md: the prose around the tables is fixed (here and in {@code benchmarks-method.md} and
 * {@code benchmarks-running.md} beside this class), the numbers come from the run.
 */
public final class MarkdownReport {

  /**
   * The heading of the section on the cluster load. Its numbers come from another command and are pasted by hand, so
   * a rewrite of the document keeps the section as it was (see {@link #keptSection}).
   */
  public static final String CLUSTER_HEADING = "## Cluster: balancing around a slow instance";
  /** The heading of the section on TLS against plain boltgen: pasted by hand, kept like {@link #CLUSTER_HEADING}. */
  public static final String TLS_HEADING = "## TLS: plain boltgen against TLS 1.3";
  /** The heading of the link to the {@code http} command's own report (docs/benchmarks-http.md): kept likewise. */
  public static final String HTTP_HEADING = "## HTTP";
  /** The heading of the link to the {@code sofarpc} command's report (docs/benchmarks-sofarpc.md): kept likewise. */
  public static final String SOFARPC_HEADING = "## SOFARPC";
  private static final List<String> KEPT_HEADINGS = List.of(CLUSTER_HEADING, TLS_HEADING, HTTP_HEADING,
      SOFARPC_HEADING);

  private MarkdownReport() {}

  /**
   * The whole document, with {@code previous} (the document being replaced, or empty)'s hand-kept sections carried
   * over before the method; {@code loadAverageEnd} is the machine's when the run ended.
   */
  public static String render(Bench.Plan plan, Bench.Result result, Map<String, String> machine, String loadAverageEnd,
      Instant started, Duration took, String previous) {
    StringBuilder md = new StringBuilder();
    md.append("# Benchmarks: boltgen beside SOFABolt, gRPC-java and raw Netty\n\n");
    md.append("<!-- Written by bolt-benchmarks (io.boltgen.bench.report.MarkdownReport). Do not edit the numbers by"
        + " hand: rerun the command below. -->\n\n");
    md.append(Markdown.warnings(plan.caveats(), result.failures()));
    md.append("Measured ").append(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(started.atOffset(ZoneOffset.UTC).withNano(0)))
        .append(" UTC in ").append(Fmt.duration(took)).append(" with:\n\n```\n").append(plan.command()).append("\n```\n\n");

    md.append("## Machine\n\n| | |\n|---|---|\n");
    machine.forEach((k, v) -> md.append(Markdown.row(k, v)));
    md.append(Markdown.row("load average at end", loadAverageEnd)).append('\n');
    LoadMatrix load = plan.load();
    if (result.loadReport() != null && load != null) {
      String quiet = result.loadReport().quietMarkdown(load.setup().quiet());
      md.append(quiet.isEmpty() ? "" : "### How quiet it was\n\n" + quiet + "\n");
    }

    md.append("## Settings\n\n");
    if (load != null) {
      md.append("- Load: ").append(load.runs()).append(" run(s); in each run every system in turn (")
          .append(String.join(", ", load.systems().stream().map(EchoSystem::id).toList())).append("; cases ")
          .append(String.join(", ", load.cases().stream().map(Point::id).toList()))
          .append("), each in a fresh server JVM and a fresh client JVM over ").append(load.setup().host())
          .append("; each client JVM first runs every case in turn, unmeasured, for ").append(Fmt.seconds(load.warmUpPass()))
          .append(" s in all (a warm-up pass, the same for every system); then per case a ")
          .append(Fmt.seconds(load.setup().warmup())).append(" s warm-up, then a ").append(Fmt.seconds(load.setup().measure()))
          .append(" s measured window; after the last case, the first case again (the warm-up check). The order of the"
              + " systems rotates: run r starts with the system at index (r - 1) mod n. A window in which other"
              + " processes took more than ").append(Fmt.percent(load.setup().quiet().thresholdPercent()))
          .append(" of one core is measured again, up to ").append(load.setup().quiet().maxRepeats()).append(" more times.\n");
      md.append("- JVM flags of every server and client JVM: `").append(String.join(" ", load.setup().jvmFlags())).append('`');
      md.append(load.serverJvmArgs().isEmpty() ? "" : "; servers also `" + String.join(" ", load.serverJvmArgs()) + "`");
      md.append(load.clientJvmArgs().isEmpty() ? "" : "; clients also `" + String.join(" ", load.clientJvmArgs()) + "`");
      md.append(".\n");
    }
    CodecBench.Settings jmh = plan.jmh();
    if (jmh != null) {
      md.append("- JMH 1.37: ").append(jmh.forks()).append(" fork(s) per benchmark, ").append(jmh.warmupIterations())
          .append(" warm-up and ").append(jmh.iterations()).append(" measured iterations of ").append(jmh.iterationMillis())
          .append(" ms, one thread, `-prof gc`; forked JVMs run with `").append(String.join(" ", jmh.jvmFlags()))
          .append("`.\n");
    }
    md.append("- boltgen rows: the stub and skeleton bolt-processor generated for `EchoService`; codec rows: ")
        .append(OrderCodecs.describe()).append(".\n\n");

    String partial = plan.caveats().isEmpty() ? "" : "_Not a full measurement: see the note at the top._\n\n";
    if (result.loadReport() != null) {
      String targets = result.loadReport().targetsMarkdown();
      md.append("## Targets\n\n").append(partial);
      md.append("boltgen in its default configuration against the best peer configuration (the SOFABolt or gRPC"
          + " configuration with the highest median throughput on that case) and against raw Netty, the ceiling."
          + " Every ratio here is the median of the per-run paired ratios (boltgen's throughput, or p99, in run r"
          + " divided by the other system's in the same run r, the two having run minutes apart), with their range over"
          + " runs in brackets; a target is met when that median meets it. The CPU row is boltgen's own median and"
          + " range.\n\n");
      md.append(targets.isEmpty() ? "_boltgen, or every comparator, was not part of this run._\n" : targets).append('\n');
      String warm = result.loadReport().warmupMarkdown();
      md.append(warm.isEmpty() ? "" : "### Warm-up check: first case against its repeat\n\n" + warm + "\n");
      md.append("What limits the targets marked NO, from profiles: [performance.md](performance.md) (by hand).\n\n");
      md.append("## Load: throughput, latency and CPU per call\n\n").append(partial);
      md.append("Each cell: the median of the runs, with the range over runs in brackets when there was more than one"
          + " run. Latency is per call, from issue to outcome, in the client; CPU is the CPU time (user + system, all"
          + " threads) both processes spent in the measured window divided by the calls completed in it.\n\n");
      md.append(result.loadReport().markdown());
    }
    if (result.scalingReport() != null && plan.scalingDocs() != null && plan.docs() != null) {
      Path from = plan.docs().toAbsolutePath().getParent();
      String link = from.relativize(plan.scalingDocs().toAbsolutePath()).toString();
      md.append("## Scaling\n\n").append(partial).append("Throughput, p50/p99, CPU and heap allocation per call of ")
          .append(String.join(", ", plan.scaling().systems().stream().map(EchoSystem::id).toList()))
          .append(" as calls in flight, payload size and client connections grow, with charts: [").append(link)
          .append("](").append(link).append("), written by the same command.\n\n");
    }
    if (result.codecs() != null) {
      md.append("## Codecs (JMH)\n\n").append(partial);
      md.append("One order (a record with longs, strings (one non-ASCII), a nested record, a list of 8 records, a map of"
          + " 4 String→Long entries and an enum; the same values in each format), encoded and decoded once per"
          + " operation. ns/op: the median of the forks' scores, range over forks in brackets; B/op: bytes allocated per"
          + " operation (`gc.alloc.rate.norm`).\n\n");
      md.append(result.codecs().markdown()).append('\n');
    }
    return md.append(keptSection(previous)).append(Markdown.resource("benchmarks-method.md"))
        .append(Markdown.resource("benchmarks-running.md")).toString();
  }

  /**
   * The hand-kept sections of {@code doc} ({@link #CLUSTER_HEADING}, {@link #TLS_HEADING}, {@link #HTTP_HEADING}), in the order they stand
   * there, each from its heading to the next heading of its level (headings inside fenced code do not count), ending
   * in a blank line; empty if there is none.
   */
  public static String keptSection(String doc) {
    StringBuilder kept = new StringBuilder();
    boolean in = false;
    boolean fenced = false;
    for (String line : doc.split("\n", -1)) {
      if (!fenced && line.startsWith("## ")) {
        in = KEPT_HEADINGS.contains(line.trim());
      }
      if (line.startsWith("```")) {
        fenced = !fenced;
      }
      if (in) {
        kept.append(line).append('\n');
      }
    }
    String text = kept.toString().strip();
    return text.isEmpty() ? "" : text + "\n\n";
  }
}
