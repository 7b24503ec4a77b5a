package io.boltgen.bench;

import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.report.CodecReport;
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
      List.of("benchmarks-http.md", "boltgen over HTTP on its Bolt port (JSON and protobuf bodies, loaded by wrk)"
          + " beside its Bolt client and a raw Netty HTTP echo; its JSON codec beside its protobuf codec", "`http`"),
      List.of("benchmarks-sofarpc.md", "a generated boltgen client beside SOFARPC 5.13.2's own consumer, both calling a"
          + " real SOFARPC provider (protobuf and Hessian2)", "`sofarpc`"),
      List.of("benchmarks-virtual-threads.md", "boltgen's handlers on virtual threads against its default pool, both"
          + " on JDK 25 (sync-32, async-256; calls/s and CPU per call)",
          "`load --systems boltgen-jdk25,boltgen-virtual`"),
      List.of("benchmarks-grpc.md", "the same grpc-java client against grpc-java's server and against boltgen's gRPC on"
          + " its Bolt port (sync-32, async-256; calls/s and CPU per call)", "`load --systems grpc,grpc-to-boltgen`"),
      List.of("benchmarks-grpc-stream.md", "server streams of 100 messages: the same grpc-java client against grpc-java's"
          + " server and against boltgen's (messages/s are 100 × the calls/s shown, CPU per message 1/100 of"
          + " CPU per call)", "`load --systems grpc-stream,grpc-stream-to-boltgen`"),
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
    LoadMatrix load = plan.load();
    String title = load != null && !load.complete()
        ? "Benchmarks: " + String.join(", ", load.systems().stream().map(EchoSystem::id).toList())
        : "Benchmarks: boltgen beside SOFABolt, gRPC-java and raw Netty";
    md.append(Markdown.head(title, BenchmarksPage.class,
        plan.caveats(), result.failures(), started, took, plan.command()));

    md.append(Markdown.machine(machine, loadAverageEnd));
    if (result.loadReport() != null && load != null) {
      String quiet = result.loadReport().quietMarkdown(load.setup().quiet());
      md.append(quiet.isEmpty() ? "" : "### How quiet it was\n\n" + quiet + "\n");
    }

    md.append("## Settings\n\n");
    if (load != null) {
      md.append(Markdown.fill("benchmarks-load-settings.md", "runs", load.runs(), "systems",
          String.join(", ", load.systems().stream().map(EchoSystem::id).toList()), "cases",
          String.join(", ", load.cases().stream().map(Point::id).toList()), "host", load.setup().host(), "pass",
          Fmt.seconds(load.warmUpPass()), "warmup", Fmt.seconds(load.setup().warmup()), "measure",
          Fmt.seconds(load.setup().measure()), "threshold", Fmt.percent(load.setup().quiet().thresholdPercent()),
          "repeats", load.setup().quiet().maxRepeats(), "flags", String.join(" ", load.setup().jvmFlags()), "more",
          (load.serverJvmArgs().isEmpty() ? "" : "; servers also `" + String.join(" ", load.serverJvmArgs()) + "`")
              + (load.clientJvmArgs().isEmpty() ? "" : "; clients also `" + String.join(" ", load.clientJvmArgs())
              + "`")));
    }
    CodecBench.Settings jmh = plan.jmh();
    if (jmh != null) {
      md.append(CodecReport.settings(jmh, true));
    }
    md.append("- boltgen rows: the stub and skeleton bolt-processor generated for `EchoService`; codec rows: ")
        .append(OrderCodecs.describe()).append(".\n\n");

    String partial = Markdown.partial(plan.caveats());
    if (result.loadReport() != null) {
      String targets = result.loadReport().targetsMarkdown();
      md.append(Markdown.fill("benchmarks-targets.md", "partial", partial));
      md.append(targets.isEmpty() ? "_boltgen, or every comparator, was not part of this run._\n" : targets)
          .append('\n');
      String warm = result.loadReport().warmupMarkdown();
      md.append(warm.isEmpty() ? "" : "### Warm-up check: first case against its repeat\n\n" + warm + "\n");
      md.append("What limits the targets marked NO, from profiles: [performance.md](performance.md) (by hand).\n\n");
      md.append(Markdown.fill("benchmarks-load.md", "partial", partial));
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
      md.append(Markdown.fill("benchmarks-codecs.md", "partial", partial));
      md.append(result.codecs().markdown()).append('\n');
    }
    md.append("## Other reports\n\nEach from its own command of `java -jar"
        + " bolt-benchmarks/target/bolt-benchmarks.jar`:\n\n");
    Table reports = new Table("lll", "report", "what it measures", "command");
    REPORTS.forEach(r -> reports.row("[" + r.get(0) + "](" + r.get(0) + ")", r.get(1), r.get(2)));
    return md.append(reports.markdown()).append('\n').append(Markdown.resource("benchmarks-method.md"))
        .append(Markdown.resource("benchmarks-running.md")).toString();
  }
}
