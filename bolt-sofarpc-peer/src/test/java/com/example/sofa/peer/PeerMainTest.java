package com.example.sofa.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The peer's command line: the arguments bolt-sofarpc-it's SofaRpcPeer and bolt-benchmarks' SofaPeer run it
 * with, what {@code --help} lists, and what a wrong argument is told (one line {@code error: …} on standard
 * error, exit status 2) before SOFARPC starts.
 */
class PeerMainTest {

  /** What running {@code args} printed and its exit status, for arguments that start nothing. */
  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = PeerMain.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int status = cl.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  /** The mode {@code args} name, parsed (nothing runs). */
  private static Object parse(String... args) {
    CommandLine.ParseResult parsed = PeerMain.commandLine().parseArgs(args);
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    return parsed.commandSpec().userObject();
  }

  @Test
  void eachModeReadsTheArgumentsItIsRunWith() {
    assertThat(parse("provider", "--port", "12200", "--id", "zk-light", "--registry", "zookeeper://127.0.0.1:2181",
        "--weight", "1")).isInstanceOfSatisfying(PeerMain.Provider.class, p -> {
          assertThat(p.port).isEqualTo(12200);
          assertThat(p.id).isEqualTo("zk-light");
          assertThat(p.registry).isEqualTo("zookeeper://127.0.0.1:2181");
          assertThat(p.weight).isEqualTo(1);
        });
    assertThat(parse("provider", "--port", "12200")).isInstanceOfSatisfying(PeerMain.Provider.class, p -> {
      assertThat(p.id).isNull(); // sofa-peer-12200
      assertThat(p.registry).isNull();
      assertThat(p.weight).isEqualTo(100);
    });
    assertThat(parse("consumer", "--serializer", "hessian2", "--direct", "127.0.0.1:12200", "--calls",
        "sync,unknown", "--timeout-ms", "800")).isInstanceOfSatisfying(PeerMain.Consumer.class, c -> {
          assertThat(c.serializer).isEqualTo("hessian2");
          assertThat(c.target.direct).isEqualTo("127.0.0.1:12200");
          assertThat(c.target.registry).isNull();
          assertThat(PeerMain.list(c.calls)).containsExactly("sync", "unknown");
          assertThat(c.timeoutMs).isEqualTo(800);
        });
    assertThat(parse("consumer", "--serializer", "protobuf", "--registry", "zookeeper://127.0.0.1:2181"))
        .isInstanceOfSatisfying(PeerMain.Consumer.class, c -> {
          assertThat(c.target.registry).isEqualTo("zookeeper://127.0.0.1:2181");
          assertThat(c.calls).isEqualTo(PeerConsumer.DEFAULT_CALLS);
          assertThat(c.timeoutMs).isEqualTo(5000);
        });
    assertThat(parse("bench", "--direct", "127.0.0.1:12200")).isInstanceOfSatisfying(PeerMain.Bench.class,
        b -> assertThat(b.direct).isEqualTo("127.0.0.1:12200"));
    assertThat(parse("zookeeper", "--port", "2181", "--data", "/tmp/zk")).isInstanceOfSatisfying(
        PeerMain.ZooKeeper.class, z -> {
          assertThat(z.port).isEqualTo(2181);
          assertThat(z.data).isEqualTo("/tmp/zk");
        });
  }

  @Test
  void helpListsTheModesAndEachModeItsOptions() {
    Run help = run("--help");
    assertThat(help.status()).isZero();
    assertThat(help.err()).isEmpty();
    assertThat(help.out()).startsWith("Usage: com.example.sofa.peer.PeerMain [-h] MODE")
        .contains("Modes:", "provider", "consumer", "bench", "zookeeper");
    assertThat(run("provider", "--help").out()).contains("--port=N", "--id=ID", "--registry=zookeeper://host:port",
        "--weight=W", "READY N");
    assertThat(run("consumer", "-h").out()).contains("--serializer=protobuf|hessian2",
        "(--direct=host:port |", "--calls=NAME[,NAME...]", "--timeout-ms=T");
    assertThat(run("bench", "-h").out()).contains("--direct=host:port");
    assertThat(run("zookeeper", "-h").out()).contains("--port=N", "--data=DIR");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "                                  | Missing required subcommand",
      "server --port 1                   | Unmatched arguments from index 0: 'server', '--port', '1'",
      "provider                          | Missing required option: '--port=N'",
      "provider --port 0                 | --port: 0 is not a free port, 1..65535 (0 is not supported)",
      "provider --port x                 | Invalid value for option '--port': 'x' is not an int",
      "provider --port 1 --serializer protobuf | Unknown options: '--serializer', 'protobuf'",
      "provider --port 1 --registry etcd://127.0.0.1:2379 | --registry: only zookeeper:// registries, not etcd://",
      "consumer --direct 127.0.0.1:1     | Missing required option: '--serializer=protobuf|hessian2'",
      "consumer --serializer json --direct 127.0.0.1:1 | --serializer: 'json' is not protobuf or hessian2",
      "consumer --serializer protobuf    | Missing required argument (specify one of these): (--direct",
      "consumer --serializer protobuf --direct a:1 --registry zookeeper://b:2 | --direct=host:port,"
          + " --registry=zookeeper://host:port are mutually exclusive",
      "bench                             | Missing required option: '--direct=host:port'",
      "zookeeper --port 2181             | Missing required option: '--data=DIR'",
  })
  void aWrongArgumentIsNamedInOneLineWithStatusTwo(String args, String message) {
    Run refused = run(args == null ? new String[0] : args.split(" "));
    assertThat(refused.status()).as("%s", refused).isEqualTo(2);
    assertThat(refused.out()).as("%s", refused).isEmpty();
    assertThat(refused.err()).as("%s", refused).startsWith("error: " + message).doesNotContain("\tat ");
  }

  @Test
  void aParameterErrorSaysWhereTheOptionsAreListed() {
    assertThat(run("bench").err().lines()).containsExactly("error: Missing required option: '--direct=host:port'",
        "('com.example.sofa.peer.PeerMain bench --help' lists the options)");
  }
}
