package io.boltgen.bench;

import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.Markdown;
import io.boltgen.bench.report.Table;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.system.EchoSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Renders docs/benchmarks.md: the prose around the tables is fixed (here and in {@code benchmarks-method.md} and
 * {@code benchmarks-running.md} beside this class), the numbers come from the run.
 */
public final class BenchmarksPage {

  /** Every other report, in the order the page lists them: file (beside the page), what it measures, command. */
  public static final List<List<String>> REPORTS = List.of(
      List.of("scaling.md", "throughput, p50/p99, CPU and heap allocation per call as calls in flight, payload size and"
          + " client connections grow, with charts", "`all` (or `scaling`)"),
      List.of("benchmarks-cluster.md", "what a client's balancing policy costs when one of three instances is slow",
          "`cluster`"),
      List.of("benchmarks-tls.md", "plain boltgen against TLS 1.3, with the JDK's provider and with OpenSSL",
          "`load`, its numbers pasted by hand"),
      List.of("benchmarks-http.md", "boltgen over HTTP on its Bolt port (JSON and protobuf bodies, loaded by wrk) beside"
          + " its Bolt client and a raw Netty HTTP echo; its JSON codec beside its protobuf codec", "`http`"),
      List.of("benchmarks-sofarpc.md", "a generated boltgen client beside SOFARPC 5.13.2's own consumer, both calling a"
          + " real SOFARPC provider (protobuf and Hessian2)", "`sofarpc`"),
      List.of("benchmarks-mesh.md", "the 2018 mesh-agent contest on loopback: the gateway, three providers in etcd,"
          + " wrk, each balancing policy, and a provider frozen under load", "`mesh`"));

  private BenchmarksPage() {}

  /**
   * The whole document, every part of it from this run and this class (and the prose beside it), linking every other
   * report; {@code loadAverageEnd} is the machine's when the run ended.
   */
  public static String render(Bench.Plan plan, Bench.Result result, Map<String, String> machine, String loadAverageEnd,
      Instant started, Duration took) {
    StringBuilder md = new StringBuilder();
    md.append(Markdown.head("Benchmarks: boltgen beside SOFABolt, gRPC-java and raw Netty", BenchmarksPage.class, plan.caveats(),
        result.failures(), started, took, plan.command()));

    md.append(Markdown.machine(machine, loadAverageEnd));
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

    String partial = Markdown.partial(plan.caveats());
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
    md.append("## Other reports\n\nEach from its own command of `java -jar bolt-benchmarks/target/bolt-benchmarks.jar`:\n\n");
    Table reports = new Table("lll", "report", "what it measures", "command");
    REPORTS.forEach(r -> reports.row("[" + r.get(0) + "](" + r.get(0) + ")", r.get(1), r.get(2)));
    return md.append(reports.markdown()).append('\n').append(Markdown.resource("benchmarks-method.md"))
        .append(Markdown.resource("benchmarks-running.md")).toString();
  }
}
