package io.boltgen.bench;

import io.boltgen.bench.Options.LoadOptions;
import io.boltgen.bench.Options.ScalingOptions;
import io.boltgen.bench.Options.JmhOptions;
import io.boltgen.bench.Options.QuietOptions;
import io.boltgen.bench.Options.ChildOptions;
import io.boltgen.bench.Options.ReportFileOptions;
import io.boltgen.bench.Options.ReportOptions;
import io.boltgen.bench.compile.CompileCost;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.run.ClientMain;
import io.boltgen.bench.run.Protocol;
import io.boltgen.bench.run.ServerMain;
import io.boltgen.bench.scenario.ClusterBalancing;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.ScalingCurves;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.system.EchoSystem;
import io.boltgen.bench.system.Systems;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
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
    for (Object sub : List.of(new All(), new Load(), new Scaling(), new Jmh(), new Cluster(), new Http(), new Mesh(),
        new SofaRpc(), new Compile(),
        new Server(), new SystemList(), new Help(), new Client())) {
      cl.addSubcommand(sub);
    }
    for (CommandLine c : Stream.concat(Stream.of(cl), cl.getSubcommands().values().stream()).toList()) {
      c.getCommandSpec().usageMessage().abbreviateSynopsis(true).sortOptions(false);
      c.getCommandSpec().addOption(CommandLine.Model.OptionSpec.builder("-h", "--help").usageHelp(true)
          .description("this help").build());
    }
    cl.setParameterExceptionHandler((e, args) -> {
      CommandLine command = e.getCommandLine();
      command.getErr().println("error: " + e.getMessage());
      CommandLine.UnmatchedArgumentException.printSuggestions(e, command.getErr());
      command.getErr().println(command == cl ? "('java -jar bolt-benchmarks.jar help' lists the commands)"
          : "('java -jar bolt-benchmarks.jar help " + command.getCommandName() + "' lists its options)");
      return 2;
    });
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
    return parsed.commandSpec().userObject() instanceof Planned p ? p.plan(Invocation.commandLine(argv)) : null;
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
      + " callers of a client JVM under each policy in turn; prints the results and, for a full run (or --out), writes docs/benchmarks-cluster.md."})
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
    @Mixin ReportFileOptions report;

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
      Setup setup = children.setup(Options.seconds("warmup", warmup), Options.seconds("seconds", seconds), quiet.policy(),
          children.logDir());
      ClusterBalancing cluster = new ClusterBalancing(chosen, rounds, slowMillis, concurrency, setup);
      if (!chosen.equals(ClusterBalancing.DEFAULT_POLICIES) || slowMillis != ClusterBalancing.DEFAULT_SLOW_MILLIS
          || concurrency != ClusterBalancing.DEFAULT_CONCURRENCY) {
        caveats.add("other policies or loads than the report's");
      }
      return new Bench.Plan(null, null, null, cluster, null, null, report.file(caveats), command, caveats,
          children.logDir());
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
}
