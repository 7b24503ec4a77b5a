package io.boltgen.example;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The example's {@code serve} mode in a child JVM of its own, as an operator runs it: started, waited for
 * until it prints {@code READY <port>}, signalled, and stopped (never outliving the test). Its standard
 * error (the server's log) goes to a file the test can read.
 */
final class ServerProcess implements AutoCloseable {


  private final Process process;
  private final int port;
  private final Path log;

  private ServerProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** {@code serve --port 0} on this test's class path. */
  static ServerProcess start() throws Exception {
    return start(null);
  }

  /**
   * {@code serve --port 0}; with {@code openFileLimit} set, under a shell {@code ulimit -n} of that many
   * open files.
   */
  static ServerProcess start(Integer openFileLimit) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
        ExampleMain.class.getName(), "serve", "--port", "0"));
    if (openFileLimit != null) {
      command = List.of("bash", "-c", "ulimit -n " + openFileLimit + " && exec \"$0\" \"$@\"", command.get(0),
          command.get(1), command.get(2), command.get(3), command.get(4), command.get(5), command.get(6));
    }
    Path log = Files.createTempFile("example-server", ".log");
    Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    try {
      BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String ready = CompletableFuture.supplyAsync(() -> {
        try {
          for (String line; (line = lines.readLine()) != null; ) {
            if (line.startsWith("READY ")) {
              return line;
            }
          }
          return null;
        } catch (IOException e) {
          return null;
        }
      }).get(60, TimeUnit.SECONDS);
      if (ready == null) {
        throw new IllegalStateException("the server exited before it was ready:\n" + Files.readString(log));
      }
      return new ServerProcess(process, Integer.parseInt(ready.substring("READY ".length()).trim()), log);
    } catch (Exception e) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw e;
    }
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  /** Sends {@code signal} (STOP, CONT, …) to the server with the shell's {@code kill}. */
  void signal(String signal) throws IOException, InterruptedException {
    if (!kill(signal)) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  private boolean kill(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("bash", "-c", "kill -" + signal + " " + process.pid())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
  }

  /** What the server logged so far. */
  String log() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** SIGTERM (the shutdown hook closes the server); true if it exited within 30 s. */
  boolean stop() throws InterruptedException {
    process.destroy();
    boolean exited = process.waitFor(30, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // never outlive the test
    }
    return exited;
  }

  @Override
  public void close() throws IOException {
    try {
      if (process.isAlive()) {
        kill("CONT"); // a stopped process does not act on SIGTERM
      }
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
