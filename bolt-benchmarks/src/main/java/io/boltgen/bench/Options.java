package io.boltgen.bench;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.scenario.ClusterBalancing;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.ScalingCurves;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.scenario.Sweep;
import io.boltgen.bench.system.EchoSystem;
import io.boltgen.bench.system.Systems;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The option groups the commands of {@code java -jar bolt-benchmarks.jar} share (picocli mixins). */
final class Options {

  private Options() {}

  /** The load matrix's options. */
  static final class LoadOptions {
    @Option(names = "--systems", paramLabel = "LIST", description = {"ids, comma-separated, or FAMILY* (e.g. grpc*);"
        + " default all ('systems' lists them; e.g. boltgen,boltgen-tls,boltgen-tls-openssl: plain against TLS 1.3). A"
        + " list with boltgen, netty and a sofabolt and a grpc configuration makes a full report. Run r starts with the"
        + " system at index (r - 1) mod n (the order rotates)."})
    String systems = "all";
    @Option(names = "--workloads", paramLabel = "LIST", split = ",", defaultValue = "sync-32,async-256",
        description = "sync-32,async-256 (default both)")
    List<String> workloads;
    @Option(names = "--payloads", paramLabel = "LIST", split = ",", defaultValue = "100,1024",
        description = "payload sizes in bytes (default 100,1024)")
    List<Integer> payloads;
    @Option(names = "--runs", paramLabel = "N", description = "runs of the whole matrix (default 3, 1 with --quick; the"
        + " report gives the median and range, and each Targets ratio as the median of per-run paired ratios)")
    Integer runs;
    @Option(names = "--warmup-pass", paramLabel = "S", description = "each client's unmeasured pass over all its cases"
        + " before the first is measured, in seconds, shared equally by the cases (default 40)")
    Double warmUpPass;
    @Option(names = "--warmup", paramLabel = "S", description = "warm-up per case in seconds (default 10)")
    Double warmup;
    @Option(names = "--measure", paramLabel = "S", description = "measured window per case in seconds (default 10);"
        + " after its cases, each client measures its first case again (the report's warm-up check)")
    Double measure;
    @Option(names = "--server-jvm-args", paramLabel = "\"..\"", description = "extra JVM args of server JVMs, e.g."
        + " \"-XX:StartFlightRecording=filename=s.jfr\"")
    String serverJvmArgs = "";
    @Option(names = "--client-jvm-args", paramLabel = "\"..\"", description = "extra JVM args of client JVMs")
    String clientJvmArgs = "";
    @Option(names = "--keep-server", description = "after each system's cases, keep its server running until Enter is"
        + " pressed")
    boolean keepServer;

    LoadMatrix matrix(QuietOptions quiet, ChildOptions children, boolean quick, Path logDir, List<String> caveats) {
      List<EchoSystem> chosen = available(systems);
      int n = runs != null ? runs : quick ? 1 : 3;
      Duration w = seconds("warmup", warmup != null ? warmup : quick ? 3 : 10);
      Duration m = seconds("measure", measure != null ? measure : quick ? 3 : 10);
      Duration pass = seconds("warmup-pass", warmUpPass != null ? warmUpPass
          : quick ? 12 : LoadMatrix.DEFAULT_WARM_UP_PASS.toSeconds());
      if (!quick && n < 3) {
        caveats.add(n + " run(s), fewer than the 3 a report needs for its median and range");
      }
      if (!quick && (w.toSeconds() < 5 || m.toSeconds() < 5 || pass.compareTo(LoadMatrix.DEFAULT_WARM_UP_PASS) < 0)) {
        caveats.add("windows shorter than a report needs (5 s warm-up and 5 s measured per case, a "
            + LoadMatrix.DEFAULT_WARM_UP_PASS.toSeconds() + " s warm-up pass)");
      }
      return new LoadMatrix(chosen, LoadMatrix.cases(workloads, payloads), n, pass, children.setup(w, m, quiet.policy(),
          logDir), words(serverJvmArgs), words(clientJvmArgs), keepServer);
    }
  }

  /** The scaling curves' options (their systems are the command's). */
  static final class ScalingOptions {
    @Option(names = "--sweeps", paramLabel = "LIST", split = ",", defaultValue = "inflight,payload,connections",
        description = "inflight,payload,connections (default all three)")
    List<String> sweeps;
    @Option(names = "--inflight", paramLabel = "LIST", split = ",", defaultValue = "1,4,16,64,256,1024,4096",
        description = "calls in flight on one connection, async, 100 B (default 1,4,16,64,256,1024,4096)")
    List<Integer> inflights;
    @Option(names = "--payload-sizes", paramLabel = "LIST", split = ",",
        defaultValue = "100,1024,16384,65536,262144,1048576", description = "payload bytes, async, --payload-inflight in"
        + " flight on one connection (default 100,1024,16384,65536,262144,1048576)")
    List<Integer> payloads;
    @Option(names = "--payload-inflight", paramLabel = "N", description = "calls in flight in the payload curve (default 16)")
    int payloadInflight = ScalingCurves.DEFAULT_PAYLOAD_INFLIGHT;
    @Option(names = "--connections", paramLabel = "LIST", split = ",", defaultValue = "1,4,16,64,256,1024",
        description = "client connections, async, 100 B, --per-connection in flight on each (default 1,4,16,64,256,1024)")
    List<Integer> connections;
    @Option(names = "--per-connection", paramLabel = "N", description = "calls in flight on each connection in the"
        + " connections curve (default 4)")
    int perConnection = ScalingCurves.DEFAULT_PER_CONNECTION;
    @Option(names = "--scaling-jvm-warmup", paramLabel = "S", description = "warm-up of each fresh JVM pair before a"
        + " curve's first point (default 30)")
    Double jvmWarmup;
    @Option(names = "--scaling-warmup", paramLabel = "S", description = "warm-up per point (default 3)")
    Double warmup;
    @Option(names = "--scaling-measure", paramLabel = "S", description = "measured window per point (default 5)")
    Double measure;

    ScalingCurves curves(String systems, QuietOptions quiet, ChildOptions children, boolean quick, Path logDir,
        List<String> caveats) {
      List<Sweep> chosen = new ArrayList<>();
      sweeps.stream().map(Sweep::parse).filter(s -> !chosen.contains(s)).forEach(chosen::add);
      Duration jvm = seconds("scaling-jvm-warmup", jvmWarmup != null ? jvmWarmup : quick ? 3 : 30);
      Duration w = seconds("scaling-warmup", warmup != null ? warmup : quick ? 1 : 3);
      Duration m = seconds("scaling-measure", measure != null ? measure : quick ? 2 : 5);
      if (!quick && (jvm.toSeconds() < 30 || w.toSeconds() < 2 || m.toSeconds() < 3)) {
        caveats.add("scaling windows shorter than a report needs (30 s JVM warm-up, 2 s warm-up and 3 s measured per"
            + " point)");
      }
      return new ScalingCurves(available(systems != null ? systems : ScalingCurves.DEFAULT_SYSTEMS), chosen, inflights,
          payloads, connections, payloadInflight, perConnection, jvm, children.setup(w, m, quiet.policy(), logDir));
    }

    /** Whether {@code curves} are the default ones, in full. */
    boolean complete(ScalingCurves curves) {
      return curves.systems().equals(Systems.parse(ScalingCurves.DEFAULT_SYSTEMS))
          && curves.sweeps().size() == Sweep.values().length && inflights.equals(ScalingCurves.DEFAULT_INFLIGHTS)
          && payloads.equals(ScalingCurves.DEFAULT_PAYLOADS) && connections.equals(ScalingCurves.DEFAULT_CONNECTIONS);
    }
  }

  /** The codec benchmark's options. */
  static final class JmhOptions {
    @Option(names = "--jmh-forks", paramLabel = "N", description = "(default 3, 1 with --quick)") Integer forks;
    @Option(names = "--jmh-warmup", paramLabel = "N", description = "warm-up iterations (default 3)") Integer warmup;
    @Option(names = "--jmh-iterations", paramLabel = "N", description = "measured iterations (default 5)") Integer iterations;
    @Option(names = "--jmh-time", paramLabel = "S", description = "seconds per iteration (default 1)") Double time;
    @Option(names = "--jmh-include", paramLabel = "REGEX", description = "benchmark methods, e.g. 'boltgen_.*'") String include;

    CodecBench.Settings settings(ChildOptions children, boolean quick, List<String> caveats) {
      int f = forks != null ? forks : quick ? 1 : 3;
      if (!quick && f < 3) {
        caveats.add(f + " JMH fork(s), fewer than 3");
      }
      return new CodecBench.Settings(f, warmup != null ? warmup : quick ? 2 : 3, iterations != null ? iterations : quick ? 3 : 5,
          Math.round((time != null ? time : quick ? 0.5 : 1) * 1000), children.jvmFlags(), include);
    }
  }

  /** When a window is measured again. */
  static final class QuietOptions {
    @Option(names = "--quiet-threshold", paramLabel = "PCT", description = "other processes' CPU (machine busy time from"
        + " /proc/stat minus the two benchmark JVMs') in %% of one core above which a window is noisy (default 5)")
    double threshold = QuietPolicy.DEFAULT.thresholdPercent();
    @Option(names = "--quiet-repeats", paramLabel = "N", description = "a noisy window is measured again up to N more"
        + " times, then the quietest is kept and marked NOISY (default 2)")
    int repeats = QuietPolicy.DEFAULT.maxRepeats();

    QuietPolicy policy() {
      return new QuietPolicy(threshold, repeats);
    }
  }

  /** How child JVMs start, and where they log. */
  static final class ChildOptions {
    @Option(names = "--jvm-flags", paramLabel = "\"...\"", description = "replaces the flags of every child JVM"
        + " (default: -Xms1g -Xmx1g -XX:+UseG1GC -Dio.netty.leakDetection.level=disabled"
        + " -Dio.grpc.netty.shaded.io.netty.leakDetection.level=disabled)")
    String jvmFlags;
    @Option(names = "--log-dir", paramLabel = "DIR", description = "where child JVM logs and the JMH log go (default"
        + " bolt-benchmarks/target/bench-logs/<time>)")
    Path logDir;

    List<String> jvmFlags() {
      return jvmFlags != null ? words(jvmFlags) : Setup.DEFAULT_JVM_FLAGS;
    }

    Path logDir() {
      if (logDir == null) {
        Path root = Invocation.repoRoot();
        Path base = root != null ? root.resolve("bolt-benchmarks/target/bench-logs") : Path.of("bench-logs");
        logDir = base.resolve(LocalDateTime.now(ZoneId.systemDefault()).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
      }
      return logDir;
    }

    Setup setup(Duration warmup, Duration measure, QuietPolicy quiet, Path logDir) {
      return new Setup(warmup, measure, quiet, jvmFlags(), logDir, "127.0.0.1");
    }
  }

  /** Where the report goes. */
  static final class ReportOptions {
    @Option(names = "--out", paramLabel = "FILE", description = "write the Markdown report there (default for a full"
        + " 'all': docs/benchmarks.md, and docs/scaling.md beside it); for 'scaling', the scaling report (charts: img/"
        + " beside it)")
    Path out;
    @Option(names = "--no-docs", description = "write no report")
    boolean noDocs;
    @Option(names = "--quick", description = "1 run, short windows, 1 JMH fork: a rough look (labelled as such)")
    boolean quick;

    List<String> caveats() {
      List<String> caveats = new ArrayList<>();
      if (quick) {
        caveats.add("--quick: one run with short windows and one JMH fork");
      }
      return caveats;
    }

    /**
     * The plan, with the documents it writes: {@code --out}, else for a complete {@code all} docs/benchmarks.md, or
     * for complete scaling curves alone docs/scaling.md; scaling.md beside benchmarks.md when both run.
     */
    Bench.Plan plan(LoadMatrix load, ScalingCurves scaling, CodecBench.Settings jmh, ClusterBalancing cluster,
        boolean subset, boolean all, String command, List<String> caveats, Path logDir) {
      if (subset) {
        caveats.add("a subset of the systems, cases or codecs");
      }
      Path docsDir = Invocation.docs();
      Path docs = null;
      Path scalingDocs = null;
      if (load == null && jmh == null) {
        scalingDocs = out != null ? out : !noDocs && !subset && !quick ? docsDir.resolve("scaling.md") : null;
      } else {
        docs = out != null ? out : !noDocs && all && !subset ? docsDir.resolve("benchmarks.md") : null;
        scalingDocs = docs != null && scaling != null ? docs.toAbsolutePath().getParent().resolve("scaling.md") : null;
      }
      return new Bench.Plan(load, scaling, jmh, cluster, docs, scalingDocs, null, command, caveats, logDir);
    }
  }

  /** Where a command's one report goes. */
  static final class ReportFileOptions {
    @Spec(Spec.Target.MIXEE) CommandSpec command;
    @Option(names = "--out", paramLabel = "FILE", description = "write the report there (default for a full run:"
        + " docs/benchmarks-${COMMAND-NAME}.md)")
    Path out;
    @Option(names = "--no-docs", description = "write no report")
    boolean noDocs;

    /** {@code --out}, else for a full run (no caveats) docs/benchmarks-&lt;command&gt;.md; null with {@code --no-docs}. */
    Path file(List<String> caveats) {
      return noDocs ? null : out != null ? out
          : caveats.isEmpty() ? Invocation.docs().resolve("benchmarks-" + command.name() + ".md") : null;
    }
  }

  /** The systems of {@code list} ({@link Systems#parse}); fails for one that cannot run here, saying why. */
  static List<EchoSystem> available(String list) {
    List<EchoSystem> systems = Systems.parse(list);
    for (EchoSystem s : systems) {
      if (s.unavailable() != null) {
        throw new IllegalArgumentException("system " + s.id() + " cannot run here: " + s.unavailable()
            + "; leave it out of --systems to run the others");
      }
    }
    return systems;
  }

  static Duration seconds(String option, double seconds) {
    if (seconds <= 0) {
      throw new IllegalArgumentException("--" + option + " must be positive");
    }
    return Duration.ofMillis(Math.round(seconds * 1000));
  }

  static List<String> words(String s) {
    return s.isBlank() ? List.of() : List.of(s.trim().split("\\s+"));
  }
}
