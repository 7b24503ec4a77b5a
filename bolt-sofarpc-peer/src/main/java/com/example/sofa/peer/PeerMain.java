package com.example.sofa.peer;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A real SOFARPC 5.13.2 provider or consumer of the interop services (EchoService on protobuf, GreetService on
 * hessian2), for bolt-sofarpc-it's tests, or a SOFARPC consumer load for bolt-benchmarks' sofarpc command. Needs
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED} on Java 17, and java.math and java.util opened likewise for
 * the checks that carry a BigInteger or a UUID (sofa-hessian writes those by reflection).
 *
 * <pre>
 * provider --port N [--id ID] [--registry zookeeper://host:port] [--weight W]
 *     prints "READY N" once serving; stops at the end of standard input or on SIGTERM
 * consumer --serializer protobuf|hessian2 (--direct host:port | --registry zookeeper://host:port)
 *          [--calls NAME[,NAME...]] [--timeout-ms T]
 *     prints "CHECK name PASS|FAIL detail" per check, then "DONE passes fails"; exit code 0 iff no FAIL
 * zookeeper --port N --data DIR
 *     a ZooKeeper 3.5.7 server (SOFARPC's own version); prints "READY N" once it accepts connections; stops at
 *     the end of standard input or on SIGTERM
 * bench --direct host:port
 *     prints "READY"; then per line "protobuf|hessian2 sync|async CONCURRENCY WARMUP_MS MEASURE_MS" of standard
 *     input "MEASURING" and "RESULT calls=N errors=N seconds=S p50us=X p99us=X cpuns=N error=TEXT" (PeerBench)
 * </pre>
 *
 * <p>{@code --help} (after a mode: its options) prints the usage. A wrong argument is named on standard error in
 * a line {@code error: …} (then, for a parse error, the help to read), with exit status 2, as every boltgen program
 * does.
 */
public final class PeerMain {

  /** Standard output, UTF-8 whatever the platform's default, for the protocol lines. */
  static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

  /** How it is run: the name in the usage and in the hint below an error. */
  static final String NAME = "com.example.sofa.peer.PeerMain";

  private PeerMain() {}

  public static void main(String[] args) {
    // SOFA's logs (and its tracer's) go under ${logging.path}, ~/logs unless set: keep them out of the home
    if (System.getProperty("logging.path") == null) {
      System.setProperty("logging.path", Path.of(System.getProperty("java.io.tmpdir"), "sofa-peer-logs").toString());
    }
    int exit = commandLine().execute(args);
    OUT.flush();
    // SOFARPC leaves non-daemon threads behind (its timers, bolt's scanners): end the JVM ourselves
    System.exit(exit);
  }

  /** The command line: its errors named on standard error with status 2, as every boltgen program does. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Peer());
    cl.setParameterExceptionHandler((e, args) -> {
      CommandLine at = e.getCommandLine();
      // picocli starts its messages about argument groups with "Error: "
      at.getErr().println("error: " + e.getMessage().replaceFirst("^Error: ", ""));
      at.getErr().println("('" + at.getCommandSpec().qualifiedName() + " --help' lists the options)");
      return 2;
    });
    cl.setExecutionExceptionHandler((e, command, parsed) -> {
      if (!(e instanceof BadArgument)) {
        throw e; // a failure while running, not a usage error: picocli prints it, exit status 1
      }
      command.getErr().println("error: " + e.getMessage());
      return 2;
    });
    return cl;
  }

  /** {@code -h, --help} on every command. */
  static final class Help {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
    boolean help;
  }

  @Command(name = NAME, usageHelpAutoWidth = true, synopsisSubcommandLabel = "MODE", commandListHeading = "Modes:%n",
      description = "A real SOFARPC 5.13.2 provider or consumer of the interop services (EchoService on protobuf,"
          + " GreetService on hessian2). Needs --add-opens java.base/java.lang=ALL-UNNAMED (and java.math,"
          + " java.util for BigInteger and UUID values).",
      subcommands = {Provider.class, Consumer.class, Bench.class, ZooKeeper.class})
  static final class Peer { // not runnable: without a mode picocli says "Missing required subcommand"
    @Mixin Help help;
  }

  @Command(name = "provider", sortOptions = false, usageHelpAutoWidth = true,
      description = "One bolt server on 127.0.0.1:N; prints READY N once serving; stops at the end of standard"
          + " input or on SIGTERM.")
  static final class Provider implements Callable<Integer> {
    @Option(names = "--port", required = true, paramLabel = "N",
        description = "a free port, 1..65535 (with 0 SOFARPC would register port 0)")
    int port;

    @Option(names = "--id", paramLabel = "ID", description = "its id in the answers (sofa-peer-<port>)")
    String id;

    @Option(names = "--registry", paramLabel = "zookeeper://host:port", description = "register it there")
    String registry;

    @Option(names = "--weight", paramLabel = "W", description = "its weight in the registry (100)")
    int weight = 100;

    @Mixin Help help;

    @Override
    public Integer call() throws Exception {
      if (port <= 0 || port > 65535) {
        // SOFARPC registers the port it was given; with 0 the registered (and printed) port would be wrong
        throw new BadArgument("--port: " + port + " is not a free port, 1..65535 (0 is not supported)");
      }
      checkRegistry(registry);
      PeerProvider.run(port, id != null ? id : "sofa-peer-" + port, registry, weight);
      return 0;
    }
  }

  @Command(name = "consumer", sortOptions = false, usageHelpAutoWidth = true,
      description = "Runs the checks; prints CHECK name PASS|FAIL detail per check, then DONE passes fails; exit"
          + " code 0 iff no FAIL.")
  static final class Consumer implements Callable<Integer> {
    @Option(names = "--serializer", required = true, paramLabel = "protobuf|hessian2",
        description = "protobuf (EchoService) or hessian2 (GreetService)")
    String serializer;

    @ArgGroup(multiplicity = "1")
    Target target;

    /** Where the providers are: one address, or a registry. */
    static final class Target {
      @Option(names = "--direct", required = true, paramLabel = "host:port", description = "one provider")
      String direct;

      @Option(names = "--registry", required = true, paramLabel = "zookeeper://host:port",
          description = "the providers registered there")
      String registry;
    }

    @Option(names = "--calls", paramLabel = "NAME[,NAME...]",
        description = "the checks (" + PeerConsumer.DEFAULT_CALLS + "; also unknown, spread)")
    String calls = PeerConsumer.DEFAULT_CALLS;

    @Option(names = "--timeout-ms", paramLabel = "T", description = "the calls' timeout (5000)")
    int timeoutMs = 5000;

    @Mixin Help help;

    @Override
    public Integer call() {
      if (!serializer.equals("protobuf") && !serializer.equals("hessian2")) {
        throw new BadArgument("--serializer: '" + serializer + "' is not protobuf or hessian2");
      }
      checkRegistry(target.registry);
      return PeerConsumer.run(serializer, target.direct, target.registry, timeoutMs, list(calls));
    }
  }

  @Command(name = "bench", sortOptions = false, usageHelpAutoWidth = true,
      description = {"The SOFARPC side of bolt-benchmarks' sofarpc command: prints READY; then per line"
          + " \"protobuf|hessian2 sync|async N WARMUP_MS MEASURE_MS\" of standard input MEASURING and a RESULT line.",
          "Stops at \"stop\" or the end of its input."})
  static final class Bench implements Callable<Integer> {
    @Option(names = "--direct", required = true, paramLabel = "host:port", description = "the provider")
    String direct;

    @Mixin Help help;

    @Override
    public Integer call() throws Exception {
      return PeerBench.run(direct);
    }
  }

  @Command(name = "zookeeper", sortOptions = false, usageHelpAutoWidth = true,
      description = "A ZooKeeper 3.5.7 server (SOFARPC's own version); prints READY N once it accepts connections;"
          + " stops at the end of standard input or on SIGTERM.")
  static final class ZooKeeper implements Callable<Integer> {
    @Option(names = "--port", required = true, paramLabel = "N", description = "the port to serve")
    int port;

    @Option(names = "--data", required = true, paramLabel = "DIR", description = "where it keeps its data")
    String data;

    @Mixin Help help;

    @Override
    public Integer call() throws Exception {
      if (port <= 0 || port > 65535) {
        throw new BadArgument("--port: " + port + " is not a port number, 1..65535");
      }
      PeerZooKeeper.run(port, data);
      return 0;
    }
  }

  /** Refuses a registry URL SOFARPC's ZooKeeper registry cannot take, before anything starts. */
  private static void checkRegistry(String url) {
    if (url != null) {
      try {
        Sofa.registry(url);
      } catch (IllegalArgumentException e) {
        throw new BadArgument(e.getMessage(), e);
      }
    }
  }

  static List<String> list(String csv) {
    List<String> out = new ArrayList<>();
    for (String s : csv.split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  /** An argument the mode refuses: one {@code error:} line, exit status 2 (any other failure is not a usage error). */
  static final class BadArgument extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    BadArgument(String message) {
      super(message);
    }

    BadArgument(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
