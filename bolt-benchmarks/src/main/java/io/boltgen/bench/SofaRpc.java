package io.boltgen.bench;

import io.boltgen.bench.Options.ChildOptions;
import io.boltgen.bench.Options.QuietOptions;
import io.boltgen.bench.Options.ReportFileOptions;
import io.boltgen.bench.sofarpc.SofaRpcBench;
import io.boltgen.bench.sofarpc.SofaRpcRun;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code sofarpc} command: options, then a {@link SofaRpcBench} run. */
@Command(name = "sofarpc", description = {"A boltgen client beside a SOFARPC consumer against one real SOFARPC 5.13.2"
    + " provider (bolt-sofarpc-peer, its own JVM): per serializer (protobuf EchoService.echo, Hessian2"
    + " GreetService.greet) sync with --threads threads and async with --in-flight calls in flight, the generated"
    + " @SofaRpcService stubs in this JVM against SOFARPC's consumer in a JVM of its own, interleaved in --rounds rounds;"
    + " calls/s, p50/p99 and the client's CPU per call. Needs bolt-sofarpc-peer built (its target/peer.classpath)."
    + " Writes docs/benchmarks-sofarpc.md for a full run (or --out)."})
final class SofaRpc extends Measuring {
  @Option(names = "--serializers", paramLabel = "LIST", split = ",", defaultValue = "protobuf,hessian2",
      description = "protobuf and/or hessian2 (default both)")
  List<String> serializers;
  @Option(names = "--rounds", paramLabel = "N", description = "rounds, each running every case on both sides, the order"
      + " rotating (default 3; the report gives the median and range)")
  int rounds = SofaRpcBench.DEFAULT_ROUNDS;
  @Option(names = "--warmup", paramLabel = "S", description = "unmeasured load before each window (default 10)")
  double warmup = SofaRpcBench.DEFAULT_WARMUP.toSeconds();
  @Option(names = "--measure", paramLabel = "S", description = "measured window per case and side (default 10)")
  double measure = SofaRpcBench.DEFAULT_MEASURE.toSeconds();
  @Option(names = "--threads", paramLabel = "N", description = "the sync load's threads (default 32)")
  int threads = SofaRpcBench.DEFAULT_THREADS;
  @Option(names = "--in-flight", paramLabel = "N", description = "the async load's calls in flight (default 128: a SOFARPC provider has 200 threads and no queue,"
      + " and refuses more calls than that as busy)")
  int inFlight = SofaRpcBench.DEFAULT_IN_FLIGHT;
  @Option(names = "--peer-classpath", paramLabel = "FILE", description = "bolt-sofarpc-peer's class path file"
      + " (default bolt-sofarpc-peer/target/peer.classpath of the repository, else of the working directory)")
  Path peerClasspath;
  @Mixin QuietOptions quiet;
  @Mixin ChildOptions children;
  @Mixin ReportFileOptions report;

  /** The settings of these options (runs nothing); fails saying how to build the peer when its class path is missing. */
  SofaRpcBench.Settings settings(String command) {
    List<String> chosen = new ArrayList<>();
    for (String s : serializers) {
      String id = s.trim().toLowerCase(Locale.ROOT);
      if (!SofaRpcBench.SERIALIZERS.contains(id)) {
        throw new IllegalArgumentException("unknown serializer " + s + "; known: "
            + String.join(",", SofaRpcBench.SERIALIZERS));
      }
      if (!chosen.contains(id)) {
        chosen.add(id);
      }
    }
    Duration w = Options.seconds("warmup", warmup);
    Duration m = Options.seconds("measure", measure);
    List<String> caveats = new ArrayList<>();
    if (rounds < SofaRpcBench.DEFAULT_ROUNDS) {
      caveats.add(rounds + " round(s), fewer than the 3 a median and range need");
    }
    if (w.compareTo(SofaRpcBench.DEFAULT_WARMUP) < 0 || m.compareTo(SofaRpcBench.DEFAULT_MEASURE) < 0) {
      caveats.add("windows shorter than the report's (10 s warm-up, 10 s measured)");
    }
    if (!chosen.equals(SofaRpcBench.SERIALIZERS)) {
      caveats.add("a subset of the serializers");
    }
    if (threads != SofaRpcBench.DEFAULT_THREADS || inFlight != SofaRpcBench.DEFAULT_IN_FLIGHT) {
      caveats.add("other loads than the report's (32 threads, 128 calls in flight)");
    }
    Path root = Invocation.repoRoot();
    Path cp = peerClasspath != null ? peerClasspath
        : (root != null ? root : Path.of("")).resolve("bolt-sofarpc-peer/target/peer.classpath");
    return new SofaRpcBench.Settings(chosen, rounds, w, m, threads, inFlight, SofaRpcBench.peerClasspath(cp), quiet.policy(),
        children.jvmFlags(), children.logDir(), report.file(caveats), command, caveats);
  }

  @Override
  List<String> run(String command, PrintStream out) throws Exception {
    return SofaRpcRun.execute(settings(command), out).failures();
  }
}
