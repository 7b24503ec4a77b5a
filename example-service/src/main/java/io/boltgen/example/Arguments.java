package io.boltgen.example;

import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.support.MessageText;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The example's command line: no command (or {@code demo}) runs the demo, {@code serve --port N [--registry
 * URI]}, {@code call --port N}, {@code call --registry URI}, {@code gateway --port N --registry URI}, and
 * {@code help} or {@code -h/--help}, which print the usage. A wrong argument is named on standard error in one
 * line, {@code error: …}, with exit status 2, as every boltgen program does.
 */
final class Arguments {

  /** How the docs run it: the name in the usage and in the hint below an error. */
  static final String NAME = "java -jar example-service.jar";

  private Arguments() {}

  /** The command line; {@code execute} runs the command its arguments name and returns the exit status. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Example());
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

  @Command(name = NAME, sortOptions = false, usageHelpAutoWidth = true,
      description = "The inventory example. Without a command: the demo (see demo).",
      subcommands = {Demo.class, Serve.class, Call.class, Gateway.class, CommandLine.HelpCommand.class},
      footer = {"", "URI: etcd://HOST:PORT[,HOST:PORT] or zookeeper://HOST:PORT. A wrong argument is named on"
          + " standard error, exit status 2."})
  static final class Example implements Callable<Integer> {
    @Mixin Help help;

    @Override
    public Integer call() throws Exception {
      return new Demo().call();
    }
  }

  @Command(name = "demo", sortOptions = false, usageHelpAutoWidth = true,
      description = "Starts the inventory server on a free loopback port, runs the demo client against it, prints"
          + " what happened, and exits 0 when every call behaved as expected (1 otherwise).")
  static final class Demo implements Callable<Integer> {
    @Mixin Help help;

    @Override
    public Integer call() throws Exception {
      return ExampleMain.demo(System.out) ? 0 : 1;
    }
  }

  @Command(name = "serve", sortOptions = false, usageHelpAutoWidth = true,
      description = {"Runs only the inventory server on 127.0.0.1, printing READY <port> once it listens, until"
          + " the process is stopped. It also answers HTTP on that port, with its console at /.",
          "A server that cannot start says so in one line, exit status 1."})
  static final class Serve implements Callable<Integer> {
    @Option(names = "--port", required = true, paramLabel = "N",
        description = "the port to listen on (0 picks a free one)")
    int port;

    @Option(names = "--registry", paramLabel = "URI",
        description = "register the server there too; on stop it deregisters, then drains")
    String registry;

    @Mixin Help help;

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      checkPort(port);
      return ExampleMain.serve(port, registry == null ? null : openRegistry(registry), System.out,
          spec.commandLine().getErr());
    }
  }

  @Command(name = "call", sortOptions = false, usageHelpAutoWidth = true,
      description = "Runs only the demo client against a server already listening, and exits 0 when every call"
          + " behaved as expected (1 otherwise). It can be run against one server again and again, and from a few"
          + " terminals at once.")
  static final class Call implements Callable<Integer> {
    @ArgGroup(multiplicity = "1")
    Target target;

    @Mixin Help help;

    /** Where the servers are: one port, or a registry. */
    static final class Target {
      @Option(names = "--port", required = true, paramLabel = "N", description = "the server on 127.0.0.1:N")
      Integer port;

      @Option(names = "--registry", required = true, paramLabel = "URI",
          description = "every server registered there, balancing between them")
      String registry;
    }

    @Override
    public Integer call() throws Exception {
      if (target.registry != null) {
        return ExampleMain.callCluster(openRegistry(target.registry), System.out) ? 0 : 1;
      }
      checkPort(target.port);
      return ExampleMain.call(target.port, System.out) ? 0 : 1;
    }
  }

  @Command(name = "gateway", sortOptions = false, usageHelpAutoWidth = true,
      description = {"Runs the mesh agent: the inventory over HTTP (and its console) on 127.0.0.1:N, every call"
          + " forwarded to the servers the registry lists; prints READY <port> once it listens, and runs until the"
          + " process is stopped.", "A gateway that cannot start says so in one line, exit status 1."})
  static final class Gateway implements Callable<Integer> {
    @Option(names = "--port", required = true, paramLabel = "N",
        description = "the port to listen on (0 picks a free one)")
    int port;

    @Option(names = "--registry", required = true, paramLabel = "URI",
        description = "where the servers register")
    String registry;

    @Mixin Help help;

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      checkPort(port);
      return ExampleMain.gateway(port, openRegistry(registry), System.out, spec.commandLine().getErr());
    }
  }

  /** Refuses a {@code --port} that is no port number. */
  static void checkPort(int port) {
    if (port < 0 || port > 65535) {
      throw new BadArgument("--port: " + port + " is not a port number (0..65535)");
    }
  }

  /**
   * The registry {@code uri} names, opened.
   *
   * @throws IllegalArgumentException naming {@code --registry} if the URI is not one of a registry (another
   *     scheme, a host without a port, a bad key prefix…)
   */
  static Registry openRegistry(String uri) {
    if (!uri.startsWith("etcd://") && !uri.startsWith("zookeeper://")) {
      throw new BadArgument("--registry: " + MessageText.quote(uri)
          + " is not etcd://HOST:PORT or zookeeper://HOST:PORT");
    }
    try {
      return ExampleMain.openRegistry(uri);
    } catch (IllegalArgumentException e) {
      throw new BadArgument("--registry: " + e.getMessage(), e);
    }
  }

  /** An argument the command refuses: one {@code error:} line, exit status 2 (any other failure is not a usage error). */
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
