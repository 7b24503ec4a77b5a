package io.boltgen.example;

import io.boltgen.testing.ReadyProcess;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@link ExampleMain} with some arguments in a child JVM of its own, as a user runs the jar ({@code call --port
 * N}, a bad command line…), run to its end: what it printed on standard output and error, and its exit status.
 * Netty's leak detector runs at paranoid in it, as in the tests' own JVM. It never outlives the test.
 */
final class MainProcess implements AutoCloseable {

  /** What a finished process printed, and how it exited. */
  record Result(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit status " + exitCode + "\n--- standard output:\n" + out + "--- standard error:\n" + err;
    }
  }

  private final Process process;
  private final Path out;
  private final Path err;

  private MainProcess(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  /** Starts {@code ExampleMain args…} on this test's class path; it runs while the caller goes on. */
  static MainProcess start(String... args) throws IOException {
    // native access as the jar's manifest grants it (Enable-Native-Access): without it, JDK 24 and newer warn on
    // standard error when Netty loads its epoll library
    List<String> command = ReadyProcess.java(List.of("-Dio.netty.leakDetection.level=paranoid",
        "--enable-native-access=ALL-UNNAMED"), ExampleMain.class.getName(), List.of(args));
    int classPath = command.indexOf("-cp") + 1;
    command.set(classPath, exampleClassPath(command.get(classPath)));
    Path out = Files.createTempFile("example-main", ".out");
    Path err = Files.createTempFile("example-main", ".err");
    Process process;
    try {
      process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    } catch (IOException e) {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      throw e;
    }
    process.getOutputStream().close(); // nothing on its standard input
    return new MainProcess(process, out, err);
  }

  /**
   * The test's {@code classPath} less the SLF4J binding some test dependencies bring: the example ships
   * logback alone, and with two bindings SLF4J warns on standard error.
   */
  private static String exampleClassPath(String classPath) {
    return Arrays.stream(classPath.split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("slf4j-simple"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** Runs {@code ExampleMain args…} to its end, at most {@code timeout}. */
  static Result run(Duration timeout, String... args) throws Exception {
    try (MainProcess main = start(args)) {
      return main.await(timeout);
    }
  }

  /**
   * Waits at most {@code timeout} for the process to exit and returns what it printed.
   *
   * @throws AssertionError if it still runs then (it is killed), with what it printed so far
   */
  Result await(Duration timeout) throws IOException, InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("ExampleMain did not exit within " + timeout + "; it printed:\n" + printed(-1));
    }
    return printed(process.exitValue());
  }

  private Result printed(int exitCode) throws IOException {
    return new Result(exitCode, Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Override
  public void close() throws IOException {
    try {
      if (process.isAlive()) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
