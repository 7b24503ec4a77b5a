package io.boltgen.bench;

import io.boltgen.bench.Options.ChildOptions;
import io.boltgen.bench.Options.JmhOptions;
import io.boltgen.bench.Options.QuietOptions;
import io.boltgen.bench.Options.ReportFileOptions;
import io.boltgen.bench.http.HttpBench;
import io.boltgen.bench.http.HttpRun;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.run.Tools;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code http} command: options, then an {@link HttpRun} of their settings. */
@Command(name = "http", description = {"boltgen over HTTP on its Bolt port: the generated EchoService in a server"
    + " with http(true) loaded by wrk with JSON bodies and with binary protobuf bodies, the same server loaded by the"
    + " Bolt client, and a raw Netty HTTP echo (the ceiling) loaded by the same wrk command; then JMH: the generated"
    + " JSON codec against the generated protobuf codec. Needs Debian's wrk (installed when missing where scripts/"
    + " can). Writes docs/benchmarks-http.md for a full run (or --out)."})
final class Http extends Measuring {
  @Option(names = "--cases", paramLabel = "LIST", split = ",", defaultValue = "http-json,http-proto,bolt,netty-http",
      description = "cases, in order (default http-json,http-proto,bolt,netty-http)")
  List<String> cases;
  @Option(names = "--rounds", paramLabel = "N", description = "rounds, each running every case, the order rotating"
      + " (default 3; the report gives the median and range)")
  int rounds = HttpBench.DEFAULT_ROUNDS;
  @Option(names = "--warmup", paramLabel = "S", description = "unmeasured load per case before its window, whole"
      + " seconds for wrk (default 5)")
  double warmup = HttpBench.DEFAULT_WARMUP.toSeconds();
  @Option(names = "--measure", paramLabel = "S", description = "measured window per case (default 10)")
  double measure = HttpBench.DEFAULT_MEASURE.toSeconds();
  @Option(names = "--connections", paramLabel = "C", description = "wrk's keep-alive connections, and the Bolt"
      + " case's calls in flight on its one connection (default 64)")
  int connections = HttpBench.DEFAULT_CONNECTIONS;
  @Option(names = "--threads", paramLabel = "T", description = "wrk's threads (default 2)")
  int threads = HttpBench.DEFAULT_THREADS;
  @Option(names = "--payload", paramLabel = "B", description = "the echoed payload's bytes (default 100)")
  int payload = HttpBench.DEFAULT_PAYLOAD;
  @Option(names = "--wrk", paramLabel = "PATH", description = "the wrk to run (default: wrk on the PATH)")
  String wrk;
  @Option(names = "--no-jmh", description = "skip the codec benchmark")
  boolean noJmh;
  @Mixin JmhOptions jmh;
  @Mixin QuietOptions quiet;
  @Mixin ChildOptions children;
  @Mixin ReportFileOptions report;

  /**
   * The settings of these options (nothing is measured yet; a missing wrk is installed where scripts/ can, else it
   * fails saying how).
   */
  HttpBench.Settings settings(String command) {
    Path wrkPath = Tools.wrk(wrk, Invocation.repoRoot());
    List<HttpBench.Case> chosen = new ArrayList<>();
    cases.stream().map(HttpBench.Case::parse).filter(c -> !chosen.contains(c)).forEach(chosen::add);
    List<String> caveats = new ArrayList<>();
    if (rounds < HttpBench.DEFAULT_ROUNDS) {
      caveats.add(rounds + " round(s), fewer than the 3 a median and range need");
    }
    if (warmup < HttpBench.DEFAULT_WARMUP.toSeconds() || measure < HttpBench.DEFAULT_MEASURE.toSeconds()) {
      caveats.add("windows shorter than a report needs (" + HttpBench.DEFAULT_WARMUP.toSeconds() + " s warm-up, "
          + HttpBench.DEFAULT_MEASURE.toSeconds() + " s measured)");
    }
    if (chosen.size() < HttpBench.Case.values().length) {
      caveats.add("a subset of the cases");
    }
    if (connections != HttpBench.DEFAULT_CONNECTIONS || threads != HttpBench.DEFAULT_THREADS
        || payload != HttpBench.DEFAULT_PAYLOAD) {
      caveats.add("other loads than the report's (64 connections, 2 wrk threads, 100 B)");
    }
    CodecBench.Settings codecs = noJmh ? null : jmh.settings(children, false, caveats);
    if (noJmh) {
      caveats.add("no codec benchmark (--no-jmh)");
    }
    return new HttpBench.Settings(chosen, rounds, Options.seconds("warmup", warmup), Options.seconds("measure",
        measure), connections, threads, payload, quiet.policy(), children.jvmFlags(), children.logDir(), "127.0.0.1",
        wrkPath, codecs, report.file(caveats), command, caveats);
  }

  @Override
  List<String> run(String command, PrintStream out) throws Exception {
    return HttpRun.execute(settings(command), out).failures();
  }
}
