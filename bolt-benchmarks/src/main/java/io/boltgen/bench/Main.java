package io.boltgen.bench;

import io.boltgen.bench.compile.CompileCost;
import io.boltgen.bench.fuzz.FrameFuzz;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.load.ClientMain;
import io.boltgen.bench.load.ClusterBenchmark;
import io.boltgen.bench.load.ClusterClientMain;
import io.boltgen.bench.load.ClusterServerMain;
import io.boltgen.bench.load.ClusterSettings;
import io.boltgen.bench.load.EchoSystem;
import io.boltgen.bench.load.IdleCheck;
import io.boltgen.bench.load.LoadCase;
import io.boltgen.bench.load.LoadSettings;
import io.boltgen.bench.load.QuietPolicy;
import io.boltgen.bench.load.ScaleClientMain;
import io.boltgen.bench.load.ScalingSettings;
import io.boltgen.bench.load.Sweep;
import io.boltgen.bench.load.ServerMain;
import io.boltgen.bench.load.Systems;
import io.boltgen.bench.load.Workload;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.runtime.cluster.LoadBalancer;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one command: {@code java -jar bolt-benchmarks.jar [command] [options]}. See {@link #USAGE}.
 */
public final class Main {

  static final String USAGE = """
      usage: java -jar bolt-benchmarks.jar [all|load|scaling|jmh|fuzz|compile|cluster|server|systems|help] [options]

        all      (default) the load matrix, the scaling curves and the codec benchmark; prints the tables and,
                 for a full run, writes docs/benchmarks.md, docs/scaling.md and docs/img/scaling-*.png
        load     the load matrix only (prints its tables)
        scaling  the scaling curves only (prints their tables; with default systems and points, or --out, writes
                 docs/scaling.md and its charts in docs/img/)
        jmh      the codec benchmark only (prints its table)
        fuzz     the decoder fuzzer against a boltgen server (docs/reliability.md):
                 [--frames N (1000000)] [--seed S (1)] [--threads T (4)]; exits 1 on a stall, a failed probe
                 call, a connection left open or a buffer leak
        compile  what the annotation processor costs a build: javac compiles generated-looking services with
                 and without it, in one JVM: [--services N (20)] [--iterations N (10)]
        cluster  balancing around a slow instance: 3 boltgen echo servers in one server JVM, one answering
                 --slow-ms late, called through static:/// by --concurrency async callers of a client JVM under
                 each policy in turn; prints a Markdown table (docs/benchmarks.md, "Cluster"):
                 [--seconds N (10) measured per window] [--warmup N (10) per window] [--rounds N (5)]
                 [--slow-ms M (5)] [--concurrency C (64)] [--policies LIST (ROUND_ROBIN,LEAST_PENDING)]
                 [--jvm-flags "..."] [--log-dir DIR]
        server   one system's echo server, until 'stop' or end of input: --system ID [--host H] [--port P]
        systems  lists the systems and their configurations

      load options:
        --systems LIST        ids, comma-separated, or FAMILY* (e.g. grpc*); default all ('systems' lists
                              them; e.g. boltgen,boltgen-tls,boltgen-tls-openssl: plain against TLS 1.3). A list
                              with boltgen, netty and a sofabolt and a grpc configuration makes a full report.
                              Run r starts with the system at index (r - 1) mod n (the order rotates).
        --workloads LIST      sync-32,async-256 (default both)
        --payloads LIST       payload sizes in bytes (default 100,1024)
        --runs N              runs of the whole matrix (default 3; the report gives the median and range, and
                              each Targets ratio as the median of per-run paired ratios)
        --warmup-pass S       each client's unmeasured pass over all its cases before the first is measured, in
                              seconds, shared equally by the cases (default 40)
        --warmup S            warm-up per case in seconds (default 10)
        --measure S           measured window per case in seconds (default 10); after its cases, each client
                              measures its first case again (the report's warm-up check)
        --quiet-threshold PCT other processes' CPU (machine busy time from /proc/stat minus the two benchmark
                              JVMs') in %% of one core above which a window is noisy (default 5; also scaling)
        --quiet-repeats N     a noisy window is measured again up to N more times, then the quietest is kept
                              and marked NOISY (default 2; also scaling)
        --jvm-flags "..."     replaces the flags of every child JVM (default: %s)
        --server-jvm-args ".." extra JVM args of server JVMs, e.g. "-XX:StartFlightRecording=filename=s.jfr"
        --client-jvm-args ".." extra JVM args of client JVMs
        --keep-server         after each system's cases, keep its server running until Enter is pressed
        --log-dir DIR         where child JVM logs and the JMH log go (default bolt-benchmarks/target/bench-logs/<time>)
      scaling options (the 'scaling' command; in 'all', --systems is the load matrix's: use --scaling-systems):
        --systems LIST        systems of the curves (default boltgen,sofabolt-io,netty)
        --scaling-systems LIST the same, for 'all'
        --sweeps LIST         inflight,payload,connections (default all three)
        --inflight LIST       calls in flight on one connection, async, 100 B (default 1,4,16,64,256,1024,4096)
        --payload-sizes LIST  payload bytes, async, --payload-inflight in flight on one connection
                              (default 100,1024,16384,65536,262144,1048576)
        --payload-inflight N  calls in flight in the payload curve (default 16)
        --connections LIST    client connections, async, 100 B, --per-connection in flight on each
                              (default 1,4,16,64,256,1024)
        --per-connection N    calls in flight on each connection in the connections curve (default 4)
        --scaling-jvm-warmup S warm-up of each fresh JVM pair before a curve's first point (default 30)
        --scaling-warmup S    warm-up per point (default 3)
        --scaling-measure S   measured window per point (default 5)
        Per curve, one fresh server and client JVM per system, all kept up for the curve; at point k the systems
        run in turn starting with system k mod n. Each point reports calls/s (MB/s each way for payloads),
        p50/p99, CPU µs/call, heap bytes/call in the client and the server JVM, and the server's connections.
      jmh options:
        --jmh-forks N (3)  --jmh-warmup N (3)  --jmh-iterations N (5)  --jmh-time S (1)  --jmh-include REGEX
      report options:
        --out FILE            write the Markdown report there (default for a full 'all': docs/benchmarks.md, and
                              docs/scaling.md beside it); for 'scaling', the scaling report (charts: img/ beside it)
        --no-docs             write no report
        --quick               1 run, short windows, 1 JMH fork: a rough look (labelled as such)
      """;

  private static final Set<String> FLAGS = Set.of("keep-server", "no-docs", "quick");

  private Main() {}

  /**
   * Adds a caveat when other processes used more than {@link IdleCheck#BUSY_PERCENT}% of a core over the
   * 2 s before the run (the windows' own quietness is measured and reported per window).
   */
  private static void busyAtStart(List<String> caveats) {
    double other;
    try {
      other = IdleCheck.otherCpuPercent(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (other > IdleCheck.BUSY_PERCENT) {
      caveats.add(String.format(Locale.ROOT, "the machine was busy when it started (other processes took %.0f%% of a"
          + " core over 2 s; 1-minute load average %.1f): other work shared the CPUs", other,
          MachineInfo.loadAverage1()));
    }
  }

  public static void main(String[] argv) throws Exception {
    int code;
    try {
      code = run(argv);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println();
      System.err.printf(USAGE, String.join(" ", LoadSettings.DEFAULT_JVM_FLAGS));
      code = 2;
    }
    System.exit(code);
  }

  static int run(String[] argv) throws Exception {
    Args a = Args.parse(argv, FLAGS);
    switch (a.command()) {
      case "help", "-h", "--help" -> {
        System.out.printf(USAGE, String.join(" ", LoadSettings.DEFAULT_JVM_FLAGS));
        return 0;
      }
      case "systems" -> {
        for (EchoSystem s : Systems.all()) {
          String why = s.unavailable();
          System.out.printf("%-20s %-9s %s%s%n", s.id(), s.family(), s.description(),
              why == null ? "" : " [cannot run here: " + why + "]");
        }
        return 0;
      }
      case "fuzz" -> {
        long seed = Long.parseLong(a.get("seed", "1"));
        long frames = Long.parseLong(a.get("frames", "1000000"));
        int threads = a.getInt("threads", 4);
        a.checkAllUsed();
        return FrameFuzz.main(seed, frames, threads, new PrintStream(System.out, true, StandardCharsets.UTF_8));
      }
      case "compile" -> {
        CompileCost.Settings settings = new CompileCost.Settings(a.getInt("services", 20), a.getInt("iterations", 10));
        a.checkAllUsed();
        return CompileCost.run(settings, new PrintStream(System.out, true, StandardCharsets.UTF_8));
      }
      case "server" -> {
        String system = a.require("system");
        String host = a.get("host", "127.0.0.1");
        int port = a.getInt("port", 0);
        a.checkAllUsed();
        return ServerMain.run(system, host, port);
      }
      case "client" -> {
        String system = a.require("system");
        String host = a.get("host", "127.0.0.1");
        int port = Integer.parseInt(a.require("port"));
        long serverPid = Long.parseLong(a.require("server-pid"));
        int statsPort = a.getInt("server-stats-port", 0);
        List<LoadCase> cases = new ArrayList<>();
        for (String c : a.list("cases", "")) {
          cases.add(LoadCase.parse(c));
        }
        int run = a.getInt("run", 1);
        Duration warmup = Duration.ofMillis(Long.parseLong(a.require("warmup-ms")));
        Duration measure = Duration.ofMillis(Long.parseLong(a.require("measure-ms")));
        Duration pass = Duration.ofMillis(Long.parseLong(a.get("warmup-pass-ms",
            Long.toString(warmup.toMillis() * cases.size()))));
        QuietPolicy quiet = quietPolicy(a);
        a.checkAllUsed();
        return ClientMain.run(system, host, port, serverPid, statsPort, cases, run,
            new ClientMain.Timing(warmup, measure, pass, quiet));
      }
      case "scale-client" -> {
        String system = a.require("system");
        String host = a.get("host", "127.0.0.1");
        int port = Integer.parseInt(a.require("port"));
        long serverPid = Long.parseLong(a.require("server-pid"));
        int statsPort = a.getInt("server-stats-port", 0);
        Duration jvmWarmup = Duration.ofMillis(Long.parseLong(a.require("jvm-warmup-ms")));
        Duration warmup = Duration.ofMillis(Long.parseLong(a.require("warmup-ms")));
        Duration measure = Duration.ofMillis(Long.parseLong(a.require("measure-ms")));
        Sweep sweep = Sweep.parse(a.require("sweep"));
        QuietPolicy quiet = quietPolicy(a);
        a.checkAllUsed();
        return ScaleClientMain.run(system, host, port, serverPid, statsPort, sweep, jvmWarmup, warmup, measure, quiet);
      }
      case "cluster" -> {
        ClusterSettings settings = clusterSettings(a, argv);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        return ClusterBenchmark.run(settings, out).failures().isEmpty() ? 0 : 1;
      }
      case "cluster-server" -> {
        String host = a.get("host", "127.0.0.1");
        int instances = a.getInt("instances", ClusterSettings.INSTANCES);
        int slowIndex = a.getInt("slow-index", ClusterSettings.SLOW_INDEX);
        long slowMillis = Long.parseLong(a.get("slow-ms", Long.toString(ClusterSettings.DEFAULT_SLOW_MILLIS)));
        a.checkAllUsed();
        return ClusterServerMain.run(host, instances, slowIndex, slowMillis);
      }
      case "cluster-client" -> {
        String host = a.get("host", "127.0.0.1");
        List<Integer> ports = new ArrayList<>();
        for (String p : a.list("ports", "")) {
          ports.add(Integer.parseInt(p));
        }
        int slowIndex = a.getInt("slow-index", ClusterSettings.SLOW_INDEX);
        List<LoadBalancer> policies = policies(a);
        int rounds = a.getInt("rounds", 1);
        int concurrency = a.getInt("concurrency", ClusterSettings.DEFAULT_CONCURRENCY);
        int payload = a.getInt("payload", ClusterSettings.PAYLOAD_BYTES);
        Duration warmup = Duration.ofMillis(Long.parseLong(a.require("warmup-ms")));
        Duration measure = Duration.ofMillis(Long.parseLong(a.require("measure-ms")));
        a.checkAllUsed();
        return ClusterClientMain.run(host, ports, slowIndex, policies, rounds, concurrency, payload, warmup, measure);
      }
      case "all", "load", "jmh", "scaling" -> {
        Bench.Plan plan = plan(a, argv);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Bench.Result result = Bench.execute(plan, out);
        return result.failures().isEmpty() ? 0 : 1;
      }
      default -> throw new IllegalArgumentException("unknown command " + a.command());
    }
  }

  static Bench.Plan plan(Args a, String[] argv) {
    String command = a.command();
    boolean quick = a.flag("quick");
    List<String> caveats = new ArrayList<>();
    if (quick) {
      caveats.add("--quick: one run with short windows and one JMH fork");
    }
    Path root = repoRoot();

    Path logDir = a.has("log-dir") ? Path.of(a.get("log-dir", ".")) : defaultLogDir(root);
    LoadSettings load = null;
    boolean subset = false;
    if (command.equals("all") || command.equals("load")) {
      List<EchoSystem> systems = Systems.parse(a.get("systems", "all"));
      for (EchoSystem s : systems) {
        String why = s.unavailable();
        if (why != null) {
          throw new IllegalArgumentException("system " + s.id() + " cannot run here: " + why
              + "; leave it out of --systems to run the others");
        }
      }
      subset |= !coversTargets(systems);
      List<Workload> workloads = new ArrayList<>();
      for (String w : a.list("workloads", "sync-32,async-256")) {
        workloads.add(Workload.parse(w));
      }
      List<Integer> payloads = new ArrayList<>();
      for (String p : a.list("payloads", "100,1024")) {
        payloads.add(Integer.parseInt(p));
      }
      subset |= workloads.size() < Workload.values().length || !payloads.equals(List.of(100, 1024));
      List<LoadCase> cases = new ArrayList<>();
      for (Workload w : workloads) {
        for (int p : payloads) {
          cases.add(new LoadCase(w, p));
        }
      }
      int runs = a.getInt("runs", quick ? 1 : 3);
      Duration warmup = a.seconds("warmup", quick ? 3 : 10);
      Duration measure = a.seconds("measure", quick ? 3 : 10);
      Duration pass = a.seconds("warmup-pass", quick ? 12 : LoadSettings.DEFAULT_WARM_UP_PASS.toSeconds());
      QuietPolicy quiet = quietPolicy(a);
      if (!quick && runs < 3) {
        caveats.add(runs + " run(s), fewer than the 3 a report needs for its median and range");
      }
      if (!quick && (warmup.compareTo(Duration.ofSeconds(5)) < 0 || measure.compareTo(Duration.ofSeconds(5)) < 0
          || pass.compareTo(LoadSettings.DEFAULT_WARM_UP_PASS) < 0)) {
        caveats.add("windows shorter than a report needs (5 s warm-up and 5 s measured per case, a "
            + LoadSettings.DEFAULT_WARM_UP_PASS.toSeconds() + " s warm-up pass)");
      }
      List<String> jvmFlags = a.has("jvm-flags") ? a.words("jvm-flags") : new ArrayList<>(LoadSettings.DEFAULT_JVM_FLAGS);
      load = new LoadSettings(systems, cases, runs, warmup, measure, pass, quiet, jvmFlags, a.words("server-jvm-args"),
          a.words("client-jvm-args"), a.flag("keep-server"), logDir, "127.0.0.1");
    }

    ScalingSettings scaling = null;
    if (command.equals("all") || command.equals("scaling")) {
      scaling = ScalingOptions.parse(a, command.equals("all") ? "scaling-systems" : "systems", quick, logDir, caveats);
      subset |= !scaling.systems().equals(Systems.parse(ScalingSettings.DEFAULT_SYSTEMS))
          || scaling.sweeps().size() < Sweep.values().length
          || !scaling.inflights().equals(ScalingSettings.DEFAULT_INFLIGHTS)
          || !scaling.payloads().equals(ScalingSettings.DEFAULT_PAYLOADS)
          || !scaling.connections().equals(ScalingSettings.DEFAULT_CONNECTIONS);
    }

    CodecBench.Settings jmh = null;
    if (command.equals("all") || command.equals("jmh")) {
      String include = a.get("jmh-include", null);
      subset |= include != null;
      int forks = a.getInt("jmh-forks", quick ? 1 : 3);
      if (!quick && forks < 3) {
        caveats.add(forks + " JMH fork(s), fewer than 3");
      }
      List<String> jvmFlags = load != null ? load.jvmFlags() : a.has("jvm-flags") ? a.words("jvm-flags")
          : new ArrayList<>(LoadSettings.DEFAULT_JVM_FLAGS);
      jmh = new CodecBench.Settings(forks, a.getInt("jmh-warmup", quick ? 2 : 3), a.getInt("jmh-iterations", quick ? 3 : 5),
          Math.round(Double.parseDouble(a.get("jmh-time", quick ? "0.5" : "1")) * 1000), jvmFlags, include);
    }
    if (!command.equals("all") && !command.equals("scaling")) {
      subset = true;
    }
    if (subset) {
      caveats.add("a subset of the systems, cases or codecs");
    }
    busyAtStart(caveats);

    Path docs = null;
    Path scalingDocs = null;
    Path docsDir = root != null ? root.resolve("docs") : Path.of("");
    boolean writeDefault = !a.flag("no-docs") && !subset && !quick;
    if (command.equals("scaling")) {
      if (a.has("out")) {
        scalingDocs = Path.of(a.get("out", ""));
      } else if (writeDefault) {
        scalingDocs = docsDir.resolve("scaling.md");
      }
    } else {
      if (a.has("out")) {
        docs = Path.of(a.get("out", ""));
      } else if (!a.flag("no-docs") && command.equals("all") && !subset) {
        docs = docsDir.resolve("benchmarks.md");
      }
      if (docs != null && scaling != null) {
        Path parent = docs.toAbsolutePath().getParent();
        scalingDocs = parent.resolve("scaling.md");
      }
    }
    a.has("no-docs");
    a.checkAllUsed();
    return new Bench.Plan(load, jmh, docs, commandLine(argv), caveats, logDir, scaling, scalingDocs);
  }

  /**
   * Whether {@code systems} hold everything the Targets table compares: boltgen's default, raw Netty, and a
   * configuration of each peer (SOFABolt, gRPC). Such a selection makes a full report; the others are subsets.
   */
  static boolean coversTargets(List<EchoSystem> systems) {
    boolean boltgen = false;
    boolean netty = false;
    boolean sofabolt = false;
    boolean grpc = false;
    for (EchoSystem s : systems) {
      boltgen |= s.id().equals(Systems.BOLTGEN_DEFAULT);
      netty |= s.family().equals("netty");
      sofabolt |= s.family().equals("sofabolt");
      grpc |= s.family().equals("grpc");
    }
    return boltgen && netty && sofabolt && grpc;
  }

  /** {@code --quiet-threshold PCT --quiet-repeats N}, defaults {@link QuietPolicy#DEFAULT}. */
  static QuietPolicy quietPolicy(Args a) {
    return new QuietPolicy(Double.parseDouble(a.get("quiet-threshold", Double.toString(QuietPolicy.DEFAULT.thresholdPercent()))),
        a.getInt("quiet-repeats", QuietPolicy.DEFAULT.maxRepeats()));
  }

  /** The {@code cluster} command's settings. */
  static ClusterSettings clusterSettings(Args a, String[] argv) {
    List<LoadBalancer> policies = policies(a);
    int rounds = a.getInt("rounds", ClusterSettings.DEFAULT_ROUNDS);
    Duration measure = a.seconds("seconds", ClusterSettings.DEFAULT_MEASURE_SECONDS);
    Duration warmup = a.seconds("warmup", ClusterSettings.DEFAULT_WARMUP_SECONDS);
    long slowMillis = Long.parseLong(a.get("slow-ms", Long.toString(ClusterSettings.DEFAULT_SLOW_MILLIS)));
    int concurrency = a.getInt("concurrency", ClusterSettings.DEFAULT_CONCURRENCY);
    List<String> jvmFlags = a.has("jvm-flags") ? a.words("jvm-flags") : new ArrayList<>(LoadSettings.DEFAULT_JVM_FLAGS);
    Path logDir = a.has("log-dir") ? Path.of(a.get("log-dir", ".")) : defaultLogDir(repoRoot());
    a.checkAllUsed();
    List<String> caveats = new ArrayList<>();
    if (rounds < 3) {
      caveats.add(rounds + " round(s), fewer than the 3 a median and range need");
    }
    if (warmup.compareTo(Duration.ofSeconds(ClusterSettings.DEFAULT_WARMUP_SECONDS)) < 0
        || measure.compareTo(Duration.ofSeconds(ClusterSettings.DEFAULT_MEASURE_SECONDS)) < 0) {
      caveats.add("windows shorter than the defaults (" + ClusterSettings.DEFAULT_WARMUP_SECONDS + " s warm-up, "
          + ClusterSettings.DEFAULT_MEASURE_SECONDS + " s measured)");
    }
    busyAtStart(caveats);
    return new ClusterSettings(policies, rounds, warmup, measure, slowMillis, concurrency, ClusterSettings.PAYLOAD_BYTES,
        jvmFlags, logDir, "127.0.0.1", commandLine(argv), caveats);
  }

  /** {@code --policies ROUND_ROBIN,least-pending}: the policies, in order, each once. */
  private static List<LoadBalancer> policies(Args a) {
    List<LoadBalancer> policies = new ArrayList<>();
    for (String name : a.list("policies", ClusterBenchmark.names(ClusterSettings.DEFAULT_POLICIES))) {
      LoadBalancer policy;
      try {
        policy = LoadBalancer.valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown policy " + name + "; known: " + List.of(LoadBalancer.values()));
      }
      if (!policies.contains(policy)) {
        policies.add(policy);
      }
    }
    return policies;
  }

  /** How this process was started, as a reader would retype it. */
  static String commandLine(String[] argv) {
    StringBuilder sb = new StringBuilder();
    Path jar = ownJar();
    if (jar != null) {
      Path cwd = Path.of("").toAbsolutePath();
      Path shown = jar.startsWith(cwd) ? cwd.relativize(jar) : jar;
      sb.append("java -jar ").append(shown);
    } else {
      sb.append("java -cp <class path> ").append(Main.class.getName());
    }
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
    List<Path> starts = new ArrayList<>();
    Path jar = ownJar();
    if (jar != null) {
      starts.add(jar.getParent());
    }
    starts.add(Path.of("").toAbsolutePath());
    for (Path start : starts) {
      for (Path p = start; p != null; p = p.getParent()) {
        if (Files.isRegularFile(p.resolve("bolt-benchmarks").resolve("pom.xml"))) {
          return p;
        }
      }
    }
    return null;
  }

  private static Path defaultLogDir(Path root) {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path base = root != null ? root.resolve("bolt-benchmarks").resolve("target").resolve("bench-logs") : Path.of("bench-logs");
    return base.resolve(stamp);
  }
}
