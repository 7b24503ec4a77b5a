package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.testing.ReadyProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The demo main's three modes. */
class ExampleMainTest {

  @Test
  void theDemoRunsEveryCallStyleAndSucceeds() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean ok = ExampleMain.demo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String output = bytes.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(output).isTrue();
    assertThat(output)
        .contains("sync      get(apple)")
        .contains("future    reserve(pear x1 for acme)")
        .contains("R-1, 1 unit, held while this client stays connected")
        .contains("the server called back over our connection: pear has 2 left after R-1")
        .contains("callback  watch(pear)")
        .contains("oneway")
        .contains("UnknownSkuException: no such SKU: durian")
        .contains("TIMEOUT")
        .contains("all calls behaved as expected");
  }

  @Test
  void serveAndCallWorkAsSeparateProcesses() throws Exception {
    boolean exited;
    try (ReadyProcess server = ServerProcess.start()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      assertThat(ExampleMain.call(server.port(), new PrintStream(bytes, true, StandardCharsets.UTF_8)))
          .as(bytes.toString(StandardCharsets.UTF_8)).isTrue();
      exited = server.stop();
    }
    assertThat(exited).as("the server exits on SIGTERM").isTrue();
  }
}
