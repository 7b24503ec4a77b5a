package io.boltgen.bench.report;

import io.boltgen.bench.Bench;
import io.boltgen.bench.codec.OrderCodecs;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.load.EchoSystem;
import io.boltgen.bench.load.LoadCase;
import io.boltgen.bench.load.LoadSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/** Renders docs/benchmarks.md: the prose around the tables is fixed here, the numbers come from the run. */
public final class MarkdownReport {

  private MarkdownReport() {}

  /**
   * The heading of the section on the {@code cluster} case. Its numbers come from another command and are
   * pasted by hand, so a rewrite of the document keeps the section as it was (see {@link #keptSection}).
   */
  public static final String CLUSTER_HEADING = "## Cluster: balancing around a slow instance";

  /**
   * The heading of the section on the TLS systems against plain boltgen: its numbers come from a {@code load}
   * command of their own, pasted by hand, and a rewrite keeps it as it was, as it keeps {@link #CLUSTER_HEADING}.
   */
  public static final String TLS_HEADING = "## TLS: plain boltgen against TLS 1.3";

  /** The hand-kept sections, each carried over by a rewrite of the document (in the order they stand in it). */
  private static final List<String> KEPT_HEADINGS = List.of(CLUSTER_HEADING, TLS_HEADING);

  /** The whole document. */
  public static String render(Bench.Plan plan, Bench.Result result, Map<String, String> machine, Instant started,
      Duration took) {
    return render(plan, result, machine, started, took, "");
  }

  /**
   * The whole document, with {@code previous} (the document being replaced, or empty)'s hand-kept sections
   * ({@link #CLUSTER_HEADING}, {@link #TLS_HEADING}) carried over before the method.
   */
  public static String render(Bench.Plan plan, Bench.Result result, Map<String, String> machine, Instant started,
      Duration took, String previous) {
    StringBuilder md = new StringBuilder();
    md.append("# Benchmarks: boltgen beside SOFABolt, gRPC-java and raw Netty\n\n");
    md.append("<!-- Written by bolt-benchmarks (io.boltgen.bench.report.MarkdownReport). Do not edit the numbers by"
        + " hand: rerun the command below. -->\n\n");
    if (!plan.caveats().isEmpty()) {
      md.append("> **Not a full measurement — do not quote these numbers.** ")
          .append(String.join("; ", plan.caveats())).append(".\n\n");
    }
    if (!result.failures().isEmpty()) {
      md.append("> **Some parts failed:**\n");
      for (String f : result.failures()) {
        md.append("> - ").append(f).append('\n');
      }
      md.append('\n');
    }
    md.append("Measured ").append(DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(started.atOffset(ZoneOffset.UTC).withNano(0)))
        .append(" UTC in ").append(Fmt.duration(took)).append(" with:\n\n```\n").append(plan.command()).append("\n```\n\n");

    md.append("## Machine\n\n| | |\n|---|---|\n");
    machine.forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    md.append("| load average at end | ").append(MachineInfo.loadAverage()).append(" |\n\n");
    if (result.loadReport() != null && plan.load() != null) {
      String quiet = result.loadReport().quietMarkdown(plan.load().quiet());
      if (!quiet.isEmpty()) {
        md.append("### How quiet it was\n\n").append(quiet).append('\n');
      }
    }

    md.append("## Settings\n\n");
    LoadSettings load = plan.load();
    if (load != null) {
      md.append("- Load: ").append(load.runs()).append(" run(s); in each run every system in turn (")
          .append(ids(load)).append("), each in a fresh server JVM and a fresh client JVM over ")
          .append(load.host()).append("; each client JVM first runs every case in turn, unmeasured, for ")
          .append(Fmt.seconds(load.warmUpPass())).append(" s in all (a warm-up pass, the same for every system);")
          .append(" then per case a ").append(Fmt.seconds(load.warmup()))
          .append(" s warm-up, then a ").append(Fmt.seconds(load.measure())).append(" s measured window; after the last")
          .append(" case, the first case again (the warm-up check). The order of the systems rotates: run r starts")
          .append(" with the system at index (r - 1) mod n. A window in which other processes took more than ")
          .append(Fmt.percent(load.quiet().thresholdPercent())).append(" of one core is measured again, up to ")
          .append(load.quiet().maxRepeats()).append(" more times.\n");
      md.append("- JVM flags of every server and client JVM: `").append(String.join(" ", load.jvmFlags())).append("`");
      if (!load.serverJvmArgs().isEmpty()) {
        md.append("; servers also `").append(String.join(" ", load.serverJvmArgs())).append('`');
      }
      if (!load.clientJvmArgs().isEmpty()) {
        md.append("; clients also `").append(String.join(" ", load.clientJvmArgs())).append('`');
      }
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
      if (!warm.isEmpty()) {
        md.append("### Warm-up check: first case against its repeat\n\n").append(warm).append('\n');
      }
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
      md.append("## Scaling\n\n").append(partial);
      md.append("Throughput, p50/p99, CPU and heap allocation per call of ");
      List<String> ids = new java.util.ArrayList<>();
      plan.scaling().systems().forEach(s -> ids.add(s.id()));
      md.append(String.join(", ", ids)).append(" as calls in flight, payload size and client connections grow,"
          + " with charts: [").append(link).append("](").append(link).append("), written by the same command.\n\n");
    }
    if (result.codecs() != null) {
      md.append("## Codecs (JMH)\n\n").append(partial);
      md.append("One order (").append("a record with longs, strings (one non-ASCII), a nested record, a list of 8"
          + " records, a map of 4 String→Long entries and an enum; the same values in each format), encoded and decoded"
          + " once per operation. ns/op: the median of the forks' scores, range over forks in brackets; B/op: bytes"
          + " allocated per operation (`gc.alloc.rate.norm`).\n\n");
      md.append(result.codecs().markdown()).append('\n');
    }

    md.append(keptSection(previous));
    md.append(METHOD);
    md.append(HOW_TO);
    return md.toString();
  }

  /**
   * The hand-kept sections of {@code doc} ({@link #CLUSTER_HEADING}, {@link #TLS_HEADING}), in the order they
   * stand there, each from its heading to the next heading of its level (headings inside fenced code do not
   * count), ending in a blank line; empty if there is none.
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

  private static String ids(LoadSettings load) {
    StringBuilder sb = new StringBuilder();
    for (EchoSystem s : load.systems()) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(s.id());
    }
    sb.append("; cases ");
    boolean first = true;
    for (LoadCase c : load.cases()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(c.label());
    }
    return sb.toString();
  }

  private static final String METHOD = """
      ## Method

      **Systems.** Every system serves the same echo (the request's bytes come back) and is called the way its
      users call it:
      - **boltgen**: the generated `EchoService` stub (`byte[] echo(byte[])` for blocking calls,
        `CompletableFuture<byte[]> echoAsync(byte[])` for calls in flight) over a `BoltClient` channel, served by
        the generated skeleton on a `BoltServer`; every setting at its default (handlers on the server's business
        executor, V2 frames with CRC32, 3 s timeout). `boltgen-io` registers the service with a direct executor
        (handlers on the IO thread) and is reported beside it; the targets judge the default. `boltgen-tls` and
        `boltgen-tls-openssl` are the default with TLS 1.3 on both sides, on the JDK's provider and on OpenSSL
        (BoringSSL): certificates generated when the server starts, handshake done before anything is measured
        (see "TLS" above).
      - **SOFABolt 1.6.10** (on Netty 4.2.18): `RpcServer` with a `SyncUserProcessor<byte[]>`, `RpcClient`
        `invokeSync` and `invokeWithCallback` (callback executor null), Hessian2 content, 3 s timeout.
        `sofabolt-fc` turns `bolt.netty.flush_consolidation` on at both ends (as SOFABolt's own benchmark does)
        and raises the write-buffer water marks to 512 KiB / 1 MiB (at the default 32 / 64 KiB SOFABolt refuses
        calls with "maybe write overflow" once 256 calls of 1 KiB are in flight); `sofabolt-io` also sets
        `processInIOThread`.
      - **gRPC-java 1.85.1** (grpc-netty-shaded, epoll, its default when the native library loads): generated
        blocking and async stubs of a unary method, a 3 s deadline per call, 4 MiB initial flow-control window on
        both sides; the request wraps the caller's byte[] without a copy and the server returns the request
        message. `grpc` keeps the default executors, `grpc-direct` uses `directExecutor()` on client and server.
      - **raw Netty 4.2.18**: `int32 length | int64 request id | payload` frames, epoll, the server handler on the
        IO thread writing each response as it reads and flushing once per read batch, the client completing calls
        from a map by id with a `FlushConsolidationHandler` batching its flushes. No serialization, no headers, no
        timeouts: the ceiling for any RPC on Netty.

      The best peer of a case is the SOFABolt or gRPC configuration with the highest median throughput there.

      **Workloads**, the same for every system: payloads of 100 B and 1 KiB of random bytes; `sync-32`: 32
      threads each making blocking calls back to back over one connection; `async-256`: 256 calls in flight on
      one connection, each completion issuing the next call (from the thread that delivered the completion).
      Each system's server runs in its own JVM and its client in another, over loopback; a fresh pair of JVMs
      per system and run, the client running the cases one after another.

      **Measurement.** Per case, a warm-up, then a measured window: latencies of the calls completed in the
      window (HdrHistogram `Recorder`, 3 significant digits, from just before the call is issued to when its
      outcome is delivered), throughput = calls completed in the window / its length, and CPU per call = the
      CPU time of the client JVM plus that of the server JVM in the window (`/proc/<pid>/stat` through
      `ProcessHandle.Info.totalCpuDuration()`, sampled by the client at the window's start and end) / calls.
      Before its first case each client makes 200 sequential calls (first-call costs), then runs every case
      in turn, unmeasured, for an equal share of the warm-up pass (40 s in all by default): on this 2-core machine
      a JVM pair under load took about 40 s to reach its steady state (boltgen's sync-32/100B gave 30k calls/s
      after a 10 s warm-up and 52k after 50 s). After its last case each client measures its first case again,
      with the same warm-up and window: the warm-up check under Targets compares the two and flags any system
      whose first case was slower than its repeat (below 0.97×). The client also reports how long it spent
      JIT-compiling during each window: over 5% is flagged under the table. A
      call that fails, or whose echo has the wrong length, counts as an error and not as a call. The load is
      closed-loop: latencies are those of a saturated system at that concurrency. Client and server share the
      machine's cores, as they would on any one host, so CPU a system spends on the client side is CPU its
      server does not get.

      **Ratios that hold.** The systems run interleaved, and the order rotates: run r starts with the system at
      index (r - 1) mod n, so no system always runs first. Every ratio in the Targets table is the median of the
      per-run paired ratios (boltgen's figure in run r over the other system's in run r) with its range over
      runs, so a busy minute that slowed one run's systems moves that run's ratio less than it moves either
      median. During each window the client also measures the CPU that other processes used: the machine's busy
      time from `/proc/stat` (user + nice + system + irq + softirq + steal, all CPUs) minus the CPU time of the
      two benchmark JVMs (`/proc/<pid>/stat`), in % of one core. A window above the quiet threshold (5% by
      default) is measured again, up to twice; if it stays noisy the quietest attempt is kept and marked NOISY.
      The Machine section reports, per run and overall, the mean and largest share other processes took and the
      load averages at the start and end of each run.

      **Codecs.** JMH measures the boltgen record codec as the runtime drives it (exact size, then a write into
      a pooled direct buffer; a read from one) for a method returning the order, i.e. the order as field 1 of
      the method's result message (3 bytes and one nested size more than the bare order, counted against
      boltgen), protoc-generated protobuf-java classes of the same shape carrying the bare order (on
      `byte[]`, and on the same kind of direct buffer through `nioBuffer`), and Hessian2 from sofa-hessian
      used the way SOFABolt's default serializer uses it. Buffers are reused across operations in all
      ByteBuf-based variants: the frame allocation is not a codec's cost.

      """;

  private static final String HOW_TO = """
      ## Running it

      Everything (the header above says how long it took; rewrites this file, and scaling.md with its charts in
      img/):

      ```
      bolt-benchmarks/run.sh                          # builds the module first
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar   # the same, already built
      ```

      A selection of systems that holds boltgen, raw Netty and a SOFABolt and a gRPC configuration is a full
      report too (`--systems boltgen,boltgen-io,sofabolt-fc,sofabolt-io,grpc-direct,netty`). Other subsets print
      their tables without touching this file (add `--out FILE` to write a report anyway):

      ```
      # one system, one workload, one payload; 60 s window; keep the server alive afterwards
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar load --systems boltgen --workloads async-256 \\
          --payloads 100 --runs 1 --measure 60 --keep-server
      # record the server with JFR (the server's pid is printed when it starts)
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar load --systems boltgen --workloads sync-32 --payloads 100 \\
          --runs 1 --measure 30 --server-jvm-args "-XX:StartFlightRecording=filename=server.jfr,settings=profile"
      # plain boltgen against TLS 1.3 on the JDK's provider and on OpenSSL, the three in turn in each run
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar load --systems boltgen,boltgen-tls,boltgen-tls-openssl
      # a server alone, to drive or profile by hand (type 'stop' to end it)
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar server --system boltgen --port 12200
      # the scaling curves (in flight, payload, connections) of boltgen, sofabolt-io and netty: docs/scaling.md
      # and docs/img/scaling-*.png (charts); part of a full run too
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar scaling
      # a noisier machine: accept 10% of a core taken by others before measuring a window again, 3 times at most
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar load --quiet-threshold 10 --quiet-repeats 3
      # the codec benchmark only, or one codec
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar jmh --jmh-include 'boltgen_.*'
      ```

      What the annotation processor costs javac (20 services of 8 methods and 5 records compiled with and
      without it, in one JVM; results in docs/generated-code.md, "Compile cost"):

      ```
      java -jar bolt-benchmarks/target/bolt-benchmarks.jar compile --services 20 --iterations 10
      ```

      `java -jar bolt-benchmarks/target/bolt-benchmarks.jar help` lists every option. `mvn verify` runs only a
      smoke test of a few seconds (`BenchmarkSmokeTest`): it starts each system, measures briefly, prints the
      table and checks that calls and latencies were recorded, the first case repeated and other processes' CPU
      measured; `ScalingSmokeTest` runs the scaling curves with two points each and draws their charts.
      `TlsBenchmarkSmokeTest` does the same for
      `boltgen-tls` and `boltgen-tls-openssl` (every call succeeds, one handshake per client before its first
      call, TLS 1.3 only), never timing them.
      """;
}
