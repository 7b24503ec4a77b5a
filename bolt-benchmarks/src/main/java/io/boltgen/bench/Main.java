package io.boltgen.bench;

import io.boltgen.bench.compile.CompileCost;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.run.ClientMain;
import io.boltgen.bench.run.Protocol;
import io.boltgen.bench.run.ServerMain;
import io.boltgen.bench.scenario.ClusterBalancing;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.ScalingCurves;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.scenario.Sweep;
import io.boltgen.bench.system.EchoSystem;
import io.boltgen.bench.system.Systems;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The one command, {@code java -jar bolt-benchmarks.jar [command] [options]}: without a command, {@code all}. Each
 * runnable command makes a {@link Bench.Plan} of its options ({@link Planned#plan}, which runs nothing) and runs it.
 */
public final class Main {

  private Main() {}

  /** The command line: {@code all} at the top, with every command under it. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new All()).setCommandName("java -jar bolt-benchmarks.jar");
    for (Object sub : List.of(new All(), new Load(), new Scaling(), new Jmh(), new Cluster(), new Compile(),
        new Server(), new SystemList(), new Help(), new Client())) {
      cl.addSubcommand(sub);
    }
    for (CommandLine c : Stream.concat(Stream.of(cl), cl.getSubcommands().values().stream()).toList()) {
      c.getCommandSpec().usageMessage().abbreviateSynopsis(true).sortOptions(false);
      c.getCommandSpec().addOption(CommandLine.Model.OptionSpec.builder("-h", "--help").usageHelp(true)
          .description("this help").build());
    }
    cl.setExecutionExceptionHandler((e, command, parsed) -> {
      if (!(e instanceof IllegalArgumentException)) {
        throw e;
      }
      command.getErr().println("error: " + e.getMessage());
      command.getErr().println("('java -jar bolt-benchmarks.jar help " + command.getCommandName() + "' lists its options)");
      return 2;
    });
    return cl;
  }

  /** The plan {@code argv} would run (nothing runs); null for a command that runs no plan. */
  static Bench.Plan plan(String... argv) {
    CommandLine.ParseResult parsed = commandLine().parseArgs(argv);
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    return parsed.commandSpec().userObject() instanceof Planned p ? p.plan(commandLine(argv)) : null;
  }

  public static void main(String[] argv) {
    System.exit(commandLine().execute(argv));
  }

  @Command(name = "all", description = {"The load matrix, the"
      + " scaling curves and the codec benchmark (what runs without a command); prints the tables and, for a full run,"
      + " writes docs/benchmarks.md, docs/scaling.md and docs/img/scaling-*.png. A run that is not full (a subset,"
      + " --quick, fewer runs or shorter windows) says so in its report. In 'all', --systems is the load matrix's: the"
      + " scaling curves' are --scaling-systems."})
  static final class All extends Planned {
    @Mixin LoadOptions load;
    @Option(names = "--scaling-systems", paramLabel = "LIST", description = "systems of the scaling curves (default "
        + ScalingCurves.DEFAULT_SYSTEMS + ")")
    String scalingSystems;
    @Mixin ScalingOptions scaling;
    @Mixin JmhOptions jmh;
    @Mixin QuietOptions quiet;
    @Mixin ChildOptions children;
    @Mixin ReportOptions report;

    @Override
    Bench.Plan plan(String command) {
      List<String> caveats = report.caveats();
      Path logDir = children.logDir();
      LoadMatrix matrix = load.matrix(quiet, children, report.quick, logDir, caveats);
      ScalingCurves curves = scaling.curves(scalingSystems, quiet, children, report.quick, logDir, caveats);
      CodecBench.Settings codecs = jmh.settings(children, report.quick, caveats);
      boolean subset = !matrix.complete() || !scaling.complete(curves) || jmh.include != null;
      return report.plan(matrix, curves, codecs, null, subset, true, command, caveats, logDir);
    }
  }

  @Command(name = "load", description = "The load matrix only (prints its tables).")
  static final class Load extends Planned {
    @Mixin LoadOptions load;
    @Mixin QuietOptions quiet;
    @Mixin ChildOptions children;
    @Mixin ReportOptions report;

    @Override
    Bench.Plan plan(String command) {
      List<String> caveats = report.caveats();
      LoadMatrix matrix = load.matrix(quiet, children, report.quick, children.logDir(), caveats);
      return report.plan(matrix, null, null, null, true, false, command, caveats, children.logDir());
    }
  }

  @Command(name = "scaling", description = {"The scaling curves only (prints their tables; with the"
      + " default systems and points, or --out, writes docs/scaling.md and its charts in docs/img/).", "Per curve, one"
      + " fresh server and client JVM per system, all kept up for the curve; at point k the systems run in turn starting"
      + " with system k mod n. Each point reports calls/s (MB/s each way for payloads), p50/p99, CPU µs/call, heap"
      + " bytes/call in the client and the server JVM, and the server's connections."})
  static final class Scaling extends Planned {
    @Option(names = "--systems", paramLabel = "LIST", description = "systems of the curves (default "
        + ScalingCurves.DEFAULT_SYSTEMS + ")")
    String systems;
    @Mixin ScalingOptions scaling;
    @Mixin QuietOptions quiet;
    @Mixin ChildOptions children;
    @Mixin ReportOptions report;

    @Override
    Bench.Plan plan(String command) {
      List<String> caveats = report.caveats();
      ScalingCurves curves = scaling.curves(systems, quiet, children, report.quick, children.logDir(), caveats);
      return report.plan(null, curves, null, null, !scaling.complete(curves), false, command, caveats, children.logDir());
    }
  }

  @Command(name = "jmh", description = "The codec benchmark only (prints its table).")
  static final class Jmh extends Planned {
    @Mixin JmhOptions jmh;
    @Mixin ChildOptions children;
    @Mixin ReportOptions report;

    @Override
    Bench.Plan plan(String command) {
      List<String> caveats = report.caveats();
      CodecBench.Settings codecs = jmh.settings(children, report.quick, caveats);
      return report.plan(null, null, codecs, null, true, false, command, caveats, children.logDir());
    }
  }

  @Command(name = "cluster", description = {"Balancing around a slow instance: 3 boltgen echo"
      + " servers in one server JVM, one answering --slow-ms late, called through static:/// by --concurrency async"
      + " callers of a client JVM under each policy in turn; prints a Markdown block for docs/benchmarks.md, \"Cluster\"."})
  static final class Cluster extends Planned {
    @Option(names = "--seconds", paramLabel = "N", description = "measured per window (default 10)")
    double seconds = ClusterBalancing.DEFAULT_SECONDS;
    @Option(names = "--warmup", paramLabel = "N", description = "warm-up per window, and per policy before the first"
        + " round (default 10)")
    double warmup = ClusterBalancing.DEFAULT_SECONDS;
    @Option(names = "--rounds", paramLabel = "N", description = "rounds, each measuring every policy (default 5)")
    int rounds = ClusterBalancing.DEFAULT_ROUNDS;
    @Option(names = "--slow-ms", paramLabel = "M", description = "the slow instance's delay (default 5)")
    long slowMillis = ClusterBalancing.DEFAULT_SLOW_MILLIS;
    @Option(names = "--concurrency", paramLabel = "C", description = "async callers, one call in flight each (default 64)")
    int concurrency = ClusterBalancing.DEFAULT_CONCURRENCY;
    @Option(names = "--policies", paramLabel = "LIST", split = ",", defaultValue = "ROUND_ROBIN,LEAST_PENDING",
        description = "balancing policies, in order (default ROUND_ROBIN,LEAST_PENDING)")
    List<String> policies;
    @Mixin QuietOptions quiet;
    @Mixin ChildOptions children;

    @Override
    Bench.Plan plan(String command) {
      List<BalancingPolicy> chosen = new ArrayList<>();
      for (String name : policies) {
        BalancingPolicy policy = Arrays.stream(BalancingPolicy.values())
            .filter(p -> p.name().equals(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'))).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown policy " + name + "; known: "
                + List.of(BalancingPolicy.values())));
        if (!chosen.contains(policy)) {
          chosen.add(policy);
        }
      }
      List<String> caveats = new ArrayList<>();
      if (rounds < 3) {
        caveats.add(rounds + " round(s), fewer than the 3 a median and range need");
      }
      if (warmup < ClusterBalancing.DEFAULT_SECONDS || seconds < ClusterBalancing.DEFAULT_SECONDS) {
        caveats.add("windows shorter than the defaults (" + ClusterBalancing.DEFAULT_SECONDS + " s warm-up, "
            + ClusterBalancing.DEFAULT_SECONDS + " s measured)");
      }
      Setup setup = children.setup(seconds("warmup", warmup), seconds("seconds", seconds), quiet.policy(),
          children.logDir());
      ClusterBalancing cluster = new ClusterBalancing(chosen, rounds, slowMillis, concurrency, setup);
      return new Bench.Plan(null, null, null, cluster, null, null, command, caveats, children.logDir());
    }
  }

  @Command(name = "compile", description = {"What the annotation processor costs a build: javac compiles"
      + " generated-looking services with and without it, in one JVM."})
  static final class Compile implements Callable<Integer> {
    @Option(names = "--services", paramLabel = "N", description = "(default 20)")
    int services = 20;
    @Option(names = "--iterations", paramLabel = "N", description = "(default 10)")
    int iterations = 10;

    @Override
    public Integer call() throws Exception {
      return CompileCost.run(new CompileCost.Settings(services, iterations),
          new PrintStream(System.out, true, StandardCharsets.UTF_8));
    }
  }

  @Command(name = "server", description = "One system's echo server, until 'stop' or the end of its input.")
  static final class Server implements Callable<Integer> {
    @Option(names = "--system", required = true, paramLabel = "ID", description = "a system ('systems' lists them)")
    String system;
    @Option(names = "--host", paramLabel = "H", description = "(default 127.0.0.1)")
    String host = "127.0.0.1";
    @Option(names = "--port", paramLabel = "P", description = "(default 0: any free port)")
    int port;
    @Option(names = "--instances", hidden = true)
    int instances = ClusterBalancing.INSTANCES;
    @Option(names = "--slow-ms", hidden = true)
    long slowMillis = ClusterBalancing.DEFAULT_SLOW_MILLIS;

    @Override
    public Integer call() throws Exception {
      return ServerMain.run(system, host, port, instances, slowMillis);
    }
  }

  @Command(name = "systems", description = "Lists the systems and their configurations.")
  static final class SystemList implements Callable<Integer> {
    @Override
    public Integer call() {
      for (EchoSystem s : Systems.all()) {
        String why = s.unavailable();
        System.out.printf("%-20s %-9s %s%s%n", s.id(), s.family(), s.description(),
            why == null ? "" : " [cannot run here: " + why + "]");
      }
      return 0;
    }
  }

  @Command(name = "help", description = "Every command with its options; with a command, that one's.")
  static final class Help implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Parameters(arity = "0..1", paramLabel = "COMMAND") String command;

    @Override
    public Integer call() {
      CommandLine top = spec.parent().commandLine();
      if (command != null) {
        CommandLine one = top.getSubcommands().get(command);
        if (one == null) {
          throw new IllegalArgumentException("unknown command " + command);
        }
        one.usage(top.getOut());
        return 0;
      }
      top.usage(top.getOut());
      top.getSubcommands().forEach((name, sub) -> {
        if (!name.equals("all") && !name.equals("help") && !sub.getCommandSpec().usageMessage().hidden()) {
          top.getOut().println();
          sub.usage(top.getOut());
        }
      });
      return 0;
    }
  }

  /** A client JVM of the runner ({@link ClientMain}). */
  @Command(name = "client", hidden = true)
  static final class Client implements Callable<Integer> {
    @Option(names = "--system", required = true) String system;
    @Option(names = "--host") String host = "127.0.0.1";
    @Option(names = "--server", required = true, description = "the server's READY fields") String server;
    @Option(names = "--warmup-points", required = true, split = ",") List<String> warmUpPoints;
    @Option(names = "--warmup-pass-ms", required = true) long warmUpPassMillis;
    @Option(names = "--close-first") boolean closeFirst;
    @Option(names = "--warmup-ms", required = true) long warmupMillis;
    @Option(names = "--measure-ms", required = true) long measureMillis;
    @Mixin QuietOptions quiet;

    @Override
    public Integer call() {
      return new ClientMain(system, host, Protocol.fields(server), warmUpPoints.stream().map(Point::parse).toList(),
          Duration.ofMillis(warmUpPassMillis), closeFirst, Duration.ofMillis(warmupMillis), Duration.ofMillis(measureMillis),
          quiet.policy()).run();
    }
  }

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
      if (!quick && (w.getSeconds() < 5 || m.getSeconds() < 5 || pass.compareTo(LoadMatrix.DEFAULT_WARM_UP_PASS) < 0)) {
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
      if (!quick && (jvm.getSeconds() < 30 || w.getSeconds() < 2 || m.getSeconds() < 3)) {
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
        Path root = repoRoot();
        Path base = root != null ? root.resolve("bolt-benchmarks/target/bench-logs") : Path.of("bench-logs");
        logDir = base.resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
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
      Path root = repoRoot();
      Path docsDir = root != null ? root.resolve("docs") : Path.of("");
      Path docs = null;
      Path scalingDocs = null;
      if (load == null && jmh == null) {
        scalingDocs = out != null ? out : !noDocs && !subset && !quick ? docsDir.resolve("scaling.md") : null;
      } else {
        docs = out != null ? out : !noDocs && all && !subset ? docsDir.resolve("benchmarks.md") : null;
        scalingDocs = docs != null && scaling != null ? docs.toAbsolutePath().getParent().resolve("scaling.md") : null;
      }
      return new Bench.Plan(load, scaling, jmh, cluster, docs, scalingDocs, command, caveats, logDir);
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

  /** How this process was started, as a reader would retype it. */
  static String commandLine(String[] argv) {
    Path jar = ownJar();
    Path cwd = Path.of("").toAbsolutePath();
    StringBuilder sb = new StringBuilder(jar == null ? "java -cp <class path> " + Main.class.getName()
        : "java -jar " + (jar.startsWith(cwd) ? cwd.relativize(jar) : jar));
    for (String arg : argv) {
      sb.append(' ').append(arg.isEmpty() || arg.matches(".*[\\s\"'$*].*") ? "'" + arg.replace("'", "'\\''") + "'" : arg);
    }
    return sb.toString();
  }

  private static Path ownJar() {
    try {
      Path p = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return p.toString().endsWith(".jar") ? p.toAbsolutePath() : null;
    } catch (Exception e) {
      return null;
    }
  }

  /** The boltgen repository root: above this jar (bolt-benchmarks/target/x.jar) or the working directory. */
  static Path repoRoot() {
    Path jar = ownJar();
    for (Path start : jar != null ? List.of(jar.getParent(), Path.of("").toAbsolutePath())
        : List.of(Path.of("").toAbsolutePath())) {
      for (Path p = start; p != null; p = p.getParent()) {
        if (Files.isRegularFile(p.resolve("bolt-benchmarks").resolve("pom.xml"))) {
          return p;
        }
      }
    }
    return null;
  }
}
