package io.boltgen.bench.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The mesh provider's command line: its help, and one {@code error:} line with exit status 2 for a wrong argument. */
class HashProviderMainTest {

  @Test
  void helpListsEveryOption() {
    StringWriter out = new StringWriter();
    assertThat(HashProviderMain.commandLine().setOut(new PrintWriter(out, true)).execute("--help")).isZero();
    assertThat(out.toString()).contains("--etcd=URL", "--weight=W", "--threads=N", "--delay-ms=MS", "--lease-ttl-s=S",
        "-h, --help");
  }

  @Test
  void aWrongArgumentIsOneErrorLineAndExitStatus2() {
    String[][] wrong = {
        {},
        {"--weight", "100"},
        {"--etcd", "http://127.0.0.1:1", "--weight", "heavy"},
        {"--etcd", "http://127.0.0.1:1", "--colour", "red"},
        {"--etcd", "http://127.0.0.1:1", "--threads", "0"},
        {"--etcd", "http://127.0.0.1:1", "--lease-ttl-s", "0"},
    };
    for (String[] argv : wrong) {
      StringWriter err = new StringWriter();
      assertThat(HashProviderMain.commandLine().setErr(new PrintWriter(err, true)).execute(argv))
          .as(String.join(" ", argv)).isEqualTo(2);
      assertThat(err.toString()).as(String.join(" ", argv)).startsWith("error: ").doesNotContain("Exception", "\tat ");
    }
  }
}
