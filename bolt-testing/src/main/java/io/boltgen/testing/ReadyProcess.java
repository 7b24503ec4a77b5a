package io.boltgen.testing;

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
 * A server in a child process of its own, as an operator runs one: started, waited for until it prints
 * {@code READY <port>} (at most 60 s), signalled, stopped gracefully (SIGTERM), killed (SIGKILL), and never
 * outliving the test ({@link #close}). Its standard error (its log) goes to a file the test can read.
 */
public final class ReadyProcess implements AutoCloseable {

  private final Process process;
  private final int port;
  private final Path log;

  private ReadyProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** {@code java -cp <this test's class path> mainClass args…}, with this JVM's java. */
  public static List<String> java(String mainClass, String... args) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), mainClass));
    command.addAll(List.of(args));
    return command;
  }

  /** Starts {@code command} and waits until it prints {@code READY <port>}; fails with its log if it exits first. */
  public static ReadyProcess start(List<String> command) throws Exception {
    Path log = Files.createTempFile("ready-process", ".log");
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
        throw new IllegalStateException("the process exited before it was ready:\n" + Files.readString(log));
      }
      return new ReadyProcess(process, Integer.parseInt(ready.substring("READY ".length()).trim()), log);
    } catch (Exception e) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      Files.deleteIfExists(log);
      throw e;
    }
  }

  /** The port it printed. */
  public int port() {
    return port;
  }

  /** Its process id. */
  public long pid() {
    return process.pid();
  }

  /** Whether it still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Sends {@code signal} (STOP, CONT, …) with {@code kill}. */
  public void signal(String signal) throws IOException, InterruptedException {
    if (!kill(signal)) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  private boolean kill(String signal) throws IOException, InterruptedException {
    return ChildProcess.signal(process, signal);
  }

  /** What it logged so far. */
  public String log() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** SIGTERM (a shutdown hook closes the server); true if it exited within 30 s, else it is killed. */
  public boolean stop() throws InterruptedException {
    return ChildProcess.stop(process, 30, TimeUnit.SECONDS);
  }

  /** SIGKILL, and waits until it is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws IOException {
    try {
      if (process.isAlive()) {
        kill("CONT"); // a stopped process does not act on SIGTERM
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
