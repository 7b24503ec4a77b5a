package io.boltgen.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.testing.EtcdProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The gateway's command line as a user meets it: {@code --help} lists every option docs/gateway.md's table
 * names, and each wrong argument is named on standard error with exit status 2, before anything starts; a
 * port already in use is one line too, with the same status.
 */
class GatewayMainTest {

  /** What running {@code args} printed on standard error and its exit status, for arguments it refuses. */
  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = GatewayMain.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int status = cl.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  @Test
  void helpListsEveryOptionOfTheDocsTable() throws Exception {
    Run help = run("--help");
    assertThat(help.status()).isZero();
    String docs = Files.readString(docsGateway());
    for (String option : new String[] {"--registry", "--port", "--host", "--service-jar", "--service",
        "--policy", "--forward-header", "--console", "--tls-cert", "--tls-key", "--tls-client-ca", "--instance-ca",
        "--instance-cert", "--instance-key", "--help"}) {
      assertThat(help.out()).as("--help").contains(option);
      assertThat(docs).as("docs/gateway.md's table").contains("`" + option);
    }
  }

  @Test
  void eachWrongArgumentIsNamedWithStatusTwo(@TempDir Path dir) throws Exception {
    Path pem = Files.writeString(dir.resolve("a.pem"), "not used: refused before it is read");
    String etcd = "etcd://127.0.0.1:1";
    String[][] cases = {
        {},
        {"--registry", etcd, "--bogus"},
        {"--registry", "http://127.0.0.1:2379"},
        {"--registry", etcd, "--port", "70000"},
        {"--registry", etcd, "--port", "eighty"},
        {"--registry", etcd, "--service", "demo.Inventory"},
        {"--registry", etcd, "--policy", "fastest"},
        {"--registry", etcd, "--service-jar", dir.resolve("missing.jar").toString()},
        {"--registry", etcd, "--tls-cert", pem.toString()},
        {"--registry", etcd, "--tls-client-ca", pem.toString()},
        {"--registry", etcd, "--instance-cert", pem.toString(), "--instance-key", pem.toString()},
    };
    String[] said = {
        "error: Missing required option: '--registry=URI'",
        "error: Unknown option: '--bogus'",
        "error: --registry: \"http://127.0.0.1:2379\" is not etcd://HOST:PORT or zookeeper://HOST:PORT",
        "error: --port: 70000 is not a port number (0..65535)",
        "error: Invalid value for option '--port': 'eighty' is not an int",
        "error: --service: \"demo.Inventory\" is not NAME:VERSION",
        "error: --policy: \"fastest\" is not least-pending, round-robin or weighted-random",
        "error: --service-jar: cannot read " + dir.resolve("missing.jar"),
        "error: --tls-cert and --tls-key go together",
        "error: --tls-client-ca needs --tls-cert and --tls-key",
        "error: --instance-cert needs --instance-ca (the CAs of the instances)",
    };
    for (int i = 0; i < cases.length; i++) {
      Run refused = run(cases[i]);
      assertThat(refused.status()).as("status of %s", String.join(" ", cases[i])).isEqualTo(2);
      assertThat(refused.err()).as("what %s says", String.join(" ", cases[i])).startsWith(said[i]);
    }
  }

  @Test
  void aPortInUseIsOneLineWithStatusOne() throws Exception {
    try (EtcdProcess etcd = EtcdProcess.start();
        ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Run refused = run("--registry", "etcd://" + URI.create(etcd.clientUrl()).getAuthority(), "--host", "127.0.0.1",
          "--port", String.valueOf(taken.getLocalPort()), "--service", "gw.Work:1.0");
      assertThat(refused.status()).as(refused.err()).isEqualTo(1);
      assertThat(refused.err()).startsWith("error: the gateway could not start on 127.0.0.1:" + taken.getLocalPort())
          .doesNotContain("\tat ");
    }
  }

  private static Path docsGateway() {
    Path here = Path.of("").toAbsolutePath();
    Path docs = here.resolve("docs/gateway.md");
    return Files.exists(docs) ? docs : here.getParent().resolve("docs/gateway.md");
  }
}
