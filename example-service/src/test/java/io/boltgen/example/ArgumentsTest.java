package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The example's command line: what each mode reads, and what a bad one is told (which argument, what is wrong
 * with it), in the parser and, as a user sees it, from the main in a process of its own: that line, the usage,
 * exit status 2, no stack trace.
 */
class ArgumentsTest {

  private static final Duration EXIT = Duration.ofSeconds(60);

  @Test
  void eachModeReadsItsOptions() throws Exception {
    assertThat(Arguments.parse()).isEqualTo(new Arguments("demo", -1, null));
    assertThat(Arguments.parse("demo")).isEqualTo(new Arguments("demo", -1, null));
    assertThat(Arguments.parse("serve", "--port", "0")).isEqualTo(new Arguments("serve", 0, null));
    assertThat(Arguments.parse("serve", "--port", "65535", "--registry", "etcd://127.0.0.1:2379"))
        .isEqualTo(new Arguments("serve", 65535, "etcd://127.0.0.1:2379"));
    assertThat(Arguments.parse("serve", "--registry", "zookeeper://127.0.0.1:2181", "--port", "12200"))
        .isEqualTo(new Arguments("serve", 12200, "zookeeper://127.0.0.1:2181"));
    assertThat(Arguments.parse("call", "--port", "12200")).isEqualTo(new Arguments("call", 12200, null));
    assertThat(Arguments.parse("call", "--registry", "etcd://127.0.0.1:2379"))
        .isEqualTo(new Arguments("call", -1, "etcd://127.0.0.1:2379"));
    assertThat(Arguments.parse("gateway", "--port", "8080", "--registry", "etcd://127.0.0.1:2379"))
        .isEqualTo(new Arguments("gateway", 8080, "etcd://127.0.0.1:2379"));
    assertThat(Arguments.parse("--help").command()).isEqualTo("help");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "serve --port abc          | --port: 'abc' is not a port number (0..65535)",
      "serve --port 65536        | --port: '65536' is not a port number (0..65535)",
      "serve --port -1           | --port: '-1' is not a port number (0..65535)",
      "call --port 99999999999   | --port: '99999999999' is not a port number (0..65535)",
      "serve --port              | --port: the value is missing (--port N)",
      "call --registry           | --registry: the value is missing (--registry URI)",
      "serve --port 1 --port 2   | --port: given twice",
      "serve --verbose 1         | '--verbose': unknown option (serve takes --port N and --registry URI)",
      "call --port 1 extra       | 'extra': unknown option (call takes --port N or --registry URI)",
      "serve                     | serve: --port N is missing",
      "serve --registry etcd://127.0.0.1:2379 | serve: --port N is missing",
      "call                      | call: --port N or --registry URI is missing",
      "gateway --port 8080       | gateway: --registry URI is missing",
      "gateway --registry etcd://127.0.0.1:2379 | gateway: --port N is missing",
      "gateway --port 1 --policy x | '--policy': unknown option (gateway takes --port N and --registry URI)",
      "frobnicate --port 1       | 'frobnicate': unknown command (expected serve, call, gateway, or none for the demo)",
      "--port 1                  | '--port': unknown command (expected serve, call, gateway, or none for the demo)",
      "demo --port 1             | demo: takes no option, got '--port'",
      "call --registry http://127.0.0.1:2379 | --registry: 'http://127.0.0.1:2379' is not etcd://HOST:PORT or"
          + " zookeeper://HOST:PORT",
  })
  void aBadCommandLineIsToldWhichArgumentIsWrongAndWhy(String args, String message) {
    assertThatThrownBy(() -> Arguments.parse(args.split(" "))).isInstanceOf(Arguments.BadArguments.class)
        .hasMessage(message);
  }

  @Test
  void aRegistryUriThatNamesNoRegistryIsAnArgumentError() throws Exception {
    Arguments etcdWithoutHost = Arguments.parse("call", "--registry", "etcd://");
    assertThatThrownBy(etcdWithoutHost::openRegistry).isInstanceOf(Arguments.BadArguments.class)
        .hasMessageStartingWith("--registry: no host in \"etcd://\"");
    Arguments zookeeperWithoutPort = Arguments.parse("call", "--registry", "zookeeper://127.0.0.1");
    assertThatThrownBy(zookeeperWithoutPort::openRegistry).isInstanceOf(Arguments.BadArguments.class)
        .hasMessageStartingWith("--registry: expected host:port in ");
  }

  /** What a user sees: the problem, then the usage, on standard error; nothing on standard output; status 2. */
  private static void assertRefused(MainProcess.Result run, String problem) {
    assertThat(run.exitCode()).as("%s", run).isEqualTo(2);
    assertThat(run.out()).as("%s", run).isEmpty();
    assertThat(run.err().lines()).as("%s", run).containsExactly(problem, Arguments.USAGE);
  }

  @Test
  void theMainNamesTheBadArgumentAboveTheUsageAndExitsWithStatus2() throws Exception {
    assertRefused(MainProcess.run(EXIT, "serve", "--port", "abc"), "--port: 'abc' is not a port number (0..65535)");
    assertRefused(MainProcess.run(EXIT, "call", "--port"), "--port: the value is missing (--port N)");
    assertRefused(MainProcess.run(EXIT, "serve", "--port", "0", "--tls", "on"),
        "'--tls': unknown option (serve takes --port N and --registry URI)");
    assertRefused(MainProcess.run(EXIT, "stop"),
        "'stop': unknown command (expected serve, call, gateway, or none for the demo)");
    assertRefused(MainProcess.run(EXIT, "call", "--registry", "consul://127.0.0.1:8500"),
        "--registry: 'consul://127.0.0.1:8500' is not etcd://HOST:PORT or zookeeper://HOST:PORT");
    MainProcess.Result noHost = MainProcess.run(EXIT, "serve", "--port", "0", "--registry", "etcd://");
    assertThat(noHost.exitCode()).as("%s", noHost).isEqualTo(2);
    assertThat(noHost.out()).as("%s", noHost).isEmpty();
    assertThat(noHost.err().lines()).as("%s", noHost).hasSize(2).last().isEqualTo(Arguments.USAGE);
    assertThat(noHost.err()).as("%s", noHost).startsWith("--registry: no host in ");
  }

  @Test
  void helpPrintsTheUsageOnStandardOutput() throws Exception {
    MainProcess.Result help = MainProcess.run(EXIT, "--help");
    assertThat(help.exitCode()).as("%s", help).isZero();
    assertThat(help.out().lines()).as("%s", help).containsExactly(Arguments.USAGE);
  }

  @Test
  void aServerThatCannotListenSaysSoInOneLineAndExitsWithStatus1() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      MainProcess.Result run = MainProcess.run(EXIT, "serve", "--port", Integer.toString(taken.getLocalPort()));
      assertThat(run.exitCode()).as("%s", run).isEqualTo(1);
      assertThat(run.out()).as("%s", run).isEmpty();
      assertThat(run.err().lines()).as("%s", run).singleElement(STRING)
          .startsWith("serve: ").contains("127.0.0.1:" + taken.getLocalPort()).doesNotContain("\tat ");
    }
  }
}
