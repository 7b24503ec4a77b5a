package io.boltgen.cluster.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ClusterNode} in a child JVM of its own, as an operator runs an instance: started and waited for
 * until it prints {@code READY <port>}, then stopped gracefully (SIGTERM), killed (SIGKILL), frozen (SIGSTOP)
 * and thawed (SIGCONT). It never outlives the test; its log goes to a file the test can read.
 */
final class NodeProcess implements AutoCloseable {

  private final Process process;
  private final int port;
  private final Path log;

  private NodeProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** A node registered in {@code registryUri} with a lease or session of {@code ttlMillis} and {@code weight}. */
  static NodeProcess start(String registryUri, long ttlMillis, int weight) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = List.of(java.toString(), "-Xmx128m", "-cp", System.getProperty("java.class.path"),
        ClusterNode.class.getName(), registryUri, Long.toString(ttlMillis), Integer.toString(weight));
    Path log = Files.createTempFile("cluster-node", ".log");
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
        throw new IllegalStateException("the node exited before it was ready:\n" + Files.readString(log));
      }
      return new NodeProcess(process, Integer.parseInt(ready.substring("READY ".length()).trim()), log);
    } catch (Exception e) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      Files.deleteIfExists(log);
      throw e;
    }
  }

  int port() {
    return port;
  }

  /** SIGKILL, and waits until the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
  }

  /** SIGTERM: the node closes gracefully; true if it exited within 30 s. */
  boolean stop() throws InterruptedException {
    process.destroy();
    boolean exited = process.waitFor(30, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    return exited;
  }

  /** Sends {@code signal} (STOP, CONT) with the shell's {@code kill}. */
  void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  /** What the node logged so far. */
  String log() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void close() throws IOException {
    try {
      if (process.isAlive()) {
        signal("CONT"); // a stopped process does not act on SIGTERM
        stop();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
