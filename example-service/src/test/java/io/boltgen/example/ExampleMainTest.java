package io.boltgen.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
        .contains("future    reserve(apple x10 for acme)")
        .contains("duplex")
        .contains("callback  watch(pear)")
        .contains("oneway")
        .contains("UnknownSkuException: no such SKU: durian")
        .contains("TIMEOUT")
        .contains("all calls behaved as expected");
  }

  @Test
  void serveAndCallWorkAsSeparateProcesses() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process server = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        ExampleMain.class.getName(), "serve", "--port", "0")
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    boolean exited;
    try {
      BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      String ready = CompletableFuture.supplyAsync(() -> {
        try {
          for (String line; (line = lines.readLine()) != null; ) {
            if (line.startsWith("READY ")) {
              return line;
            }
          }
          return null;
        } catch (java.io.IOException e) {
          return null;
        }
      }).get(60, TimeUnit.SECONDS);
      assertThat(ready).matches("READY \\d+");
      int port = Integer.parseInt(ready.substring("READY ".length()));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      assertThat(ExampleMain.call(port, new PrintStream(bytes, true, StandardCharsets.UTF_8)))
          .as(bytes.toString(StandardCharsets.UTF_8)).isTrue();
    } finally {
      server.destroy(); // SIGTERM: the shutdown hook closes the server
      exited = server.waitFor(30, TimeUnit.SECONDS);
      if (!exited) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // never outlive the test
      }
    }
    assertThat(exited).as("the server exits on SIGTERM").isTrue();
  }
}
