package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The example's command line as a user meets it: what each command reads (the conventions the docs and other
 * modules' tests run it by: no argument for the demo, {@code serve --port N}, {@code call --port N}…), what
 * {@code --help} lists, and what a wrong argument is told: one line {@code error: …} naming it, on standard
 * error, exit status 2, before anything starts; and, from the main in a process of its own, no stack trace.
 */
class ArgumentsTest {

  private static final Duration EXIT = Duration.ofSeconds(60);

  /** What running {@code args} printed and its exit status, for arguments that start nothing. */
  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Arguments.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int status = cl.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  /** The command {@code args} name, parsed (nothing runs). */
  private static Object parse(String... args) {
    CommandLine.ParseResult parsed = Arguments.commandLine().parseArgs(args);
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    return parsed.commandSpec().userObject();
  }

  @Test
  void eachCommandReadsItsOptions() {
    assertThat(parse()).isInstanceOf(Arguments.Example.class); // the demo
    assertThat(parse("demo")).isInstanceOf(Arguments.Demo.class);
    assertThat(parse("serve", "--port", "0")).isInstanceOfSatisfying(Arguments.Serve.class, serve -> {
      assertThat(serve.port).isZero();
      assertThat(serve.registry).isNull();
    });
    assertThat(parse("serve", "--registry", "zookeeper://127.0.0.1:2181", "--port", "12200"))
        .isInstanceOfSatisfying(Arguments.Serve.class, serve -> {
          assertThat(serve.port).isEqualTo(12200);
          assertThat(serve.registry).isEqualTo("zookeeper://127.0.0.1:2181");
        });
    assertThat(parse("call", "--port", "12200")).isInstanceOfSatisfying(Arguments.Call.class, call -> {
      assertThat(call.target.port).isEqualTo(12200);
      assertThat(call.target.registry).isNull();
    });
    assertThat(parse("call", "--registry", "etcd://127.0.0.1:2379")).isInstanceOfSatisfying(Arguments.Call.class,
        call -> {
          assertThat(call.target.port).isNull();
          assertThat(call.target.registry).isEqualTo("etcd://127.0.0.1:2379");
        });
    assertThat(parse("gateway", "--port", "8080", "--registry", "etcd://127.0.0.1:2379"))
        .isInstanceOfSatisfying(Arguments.Gateway.class, gateway -> {
          assertThat(gateway.port).isEqualTo(8080);
          assertThat(gateway.registry).isEqualTo("etcd://127.0.0.1:2379");
        });
  }

  @Test
  void helpListsTheCommandsAndEachCommandItsOptions() {
    for (String[] args : new String[][] {{"--help"}, {"-h"}, {"help"}}) {
      Run help = run(args);
      assertThat(help.status()).as("status of %s", args[0]).isZero();
      assertThat(help.err()).isEmpty();
      assertThat(help.out()).as("%s", args[0]).startsWith("Usage: java -jar example-service.jar [-h] [COMMAND]")
          .contains("demo", "serve", "call", "gateway", "help", "etcd://HOST:PORT");
    }
    assertThat(run("serve", "--help").out()).startsWith("Usage: java -jar example-service.jar serve")
        .contains("--port=N", "--registry=URI", "READY <port>");
    assertThat(run("help", "call").out()).startsWith("Usage: java -jar example-service.jar call")
        .contains("(--port=N | --registry=URI)");
    assertThat(run("gateway", "-h").out()).startsWith("Usage: java -jar example-service.jar gateway")
        .contains("--port=N", "--registry=URI");
    assertThat(run("demo", "--help").status()).isZero();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "serve --port abc          | Invalid value for option '--port': 'abc' is not an int",
      "serve --port 65536        | --port: 65536 is not a port number (0..65535)",
      "serve --port -1           | --port: -1 is not a port number (0..65535)",
      "call --port 99999999999   | Invalid value for option '--port': '99999999999' is not an int",
      "serve --port              | Missing required parameter for option '--port' (N)",
      "call --registry           | Missing required parameter for option '--registry' (URI)",
      "serve --port 1 --port 2   | option '--port' (N) should be specified only once",
      "serve --port 0 --verbose 1 | Unknown options: '--verbose', '1'",
      "call --port 1 extra       | Unmatched argument at index 3: 'extra'",
      "serve                     | Missing required option: '--port=N'",
      "serve --registry etcd://127.0.0.1:2379 | Missing required option: '--port=N'",
      "call                      | Missing required argument (specify one of these): (--port=N | --registry=URI)",
      "call --port 1 --registry etcd://127.0.0.1:2379 | --port=N, --registry=URI are mutually exclusive",
      "gateway --port 8080       | Missing required option: '--registry=URI'",
      "gateway --registry etcd://127.0.0.1:2379 | Missing required option: '--port=N'",
      "gateway --port 1 --registry etcd://127.0.0.1:2379 --policy x | Unknown options: '--policy', 'x'",
      "frobnicate --port 1       | Unmatched arguments from index 0: 'frobnicate', '--port', '1'",
      "--port 1                  | Unknown options: '--port', '1'",
      "demo --port 1             | Unknown options: '--port', '1'",
      "call --registry http://127.0.0.1:2379 | --registry: \"http://127.0.0.1:2379\" is not etcd://HOST:PORT or"
          + " zookeeper://HOST:PORT",
      "call --registry etcd://   | --registry: no host in \"etcd://\"",
      "serve --port 0 --registry zookeeper://127.0.0.1 | --registry: expected host:port in ",
  })
  void aWrongArgumentIsNamedInOneLineWithStatusTwo(String args, String message) {
    Run refused = run(args.split(" "));
    assertThat(refused.status()).as("%s", refused).isEqualTo(2);
    assertThat(refused.out()).as("%s", refused).isEmpty();
    assertThat(refused.err()).as("%s", refused).startsWith("error: " + message).doesNotContain("\tat ");
  }

  @Test
  void aParameterErrorSaysWhereTheOptionsAreListed() {
    assertThat(run("serve", "--port").err().lines()).containsExactly(
        "error: Missing required parameter for option '--port' (N)",
        "('java -jar example-service.jar serve --help' lists the options)");
    assertThat(run("stop").err().lines()).containsExactly("error: Unmatched argument at index 0: 'stop'",
        "('java -jar example-service.jar --help' lists the options)");
  }

  @Test
  void theMainSaysWhatIsWrongOnStandardErrorAndExitsWithStatus2() throws Exception {
    MainProcess.Result run = MainProcess.run(EXIT, "serve", "--port", "0", "--tls", "on");
    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.out()).as("%s", run).isEmpty();
    assertThat(run.err().lines()).as("%s", run).containsExactly("error: Unknown options: '--tls', 'on'",
        "('java -jar example-service.jar serve --help' lists the options)");
    MainProcess.Result noHost = MainProcess.run(EXIT, "serve", "--port", "0", "--registry", "etcd://");
    assertThat(noHost.exitCode()).as("%s", noHost).isEqualTo(2);
    assertThat(noHost.out()).as("%s", noHost).isEmpty();
    assertThat(noHost.err().lines()).as("%s", noHost).singleElement(STRING).startsWith("error: --registry: no host in ");
  }

  @Test
  void theMainPrintsTheHelpOnStandardOutput() throws Exception {
    MainProcess.Result help = MainProcess.run(EXIT, "--help");
    assertThat(help.exitCode()).as("%s", help).isZero();
    assertThat(help.err()).as("%s", help).isEmpty();
    assertThat(help.out()).as("%s", help).startsWith("Usage: java -jar example-service.jar");
  }

  @Test
  void aServerThatCannotListenSaysSoInOneLineAndExitsWithStatus1() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      MainProcess.Result run = MainProcess.run(EXIT, "serve", "--port", Integer.toString(taken.getLocalPort()));
      assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
      assertThat(run.out()).as("%s", run).isEmpty();
      assertThat(run.err().lines()).as("%s", run).singleElement(STRING)
          .startsWith("error: the server could not start: ").contains("127.0.0.1:" + taken.getLocalPort())
          .doesNotContain("\tat ");
    }
  }
}
