package io.boltgen.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process a test started, with what it writes going to a log file: signalled with {@code kill(1)}, stopped
 * gracefully (SIGTERM, then SIGKILL if it does not exit in time) or killed (SIGKILL), and waited for each time
 * so that it never outlives the test. {@link ReadyProcess} and {@link EtcdProcess} are made of it, so tests
 * start, stop and signal every child the same way. Not thread-safe.
 */
final class ChildProcess {

  /** How long a process may take to go once killed (SIGKILL). */
  private static final Duration KILL_BOUND = Duration.ofSeconds(10);

  private final Process process;

  private ChildProcess(Process process) {
    this.process = process;
  }

  /** Starts {@code command} with its standard output and error appended to {@code log}. */
  static ChildProcess start(List<String> command, Path log) throws IOException {
    return new ChildProcess(new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
  }

  /** Starts {@code command} with its standard error appended to {@code log}; its standard output is {@link #output}. */
  static ChildProcess startReadingOutput(List<String> command, Path log) throws IOException {
    return new ChildProcess(new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
  }

  /** {@return its standard output}, when started by {@link #startReadingOutput}. */
  InputStream output() {
    return process.getInputStream();
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** {@return the exit status}, if it has exited. */
  int exitValue() {
    return process.exitValue();
  }

  /**
   * Sends {@code signal} ({@code STOP}, {@code CONT}, …) with {@code kill -<signal> <pid>}.
   *
   * @throws IllegalStateException if kill(1) fails (the process is gone) or takes over 10 s
   */
  void signal(String signal) throws IOException, InterruptedException {
    if (!trySignal(signal)) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  /** {@link #signal}, saying whether it worked instead of throwing. */
  boolean trySignal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return kill.waitFor(KILL_BOUND.toMillis(), TimeUnit.MILLISECONDS) && kill.exitValue() == 0;
  }

  /**
   * SIGTERM, then waits up to {@code grace} for it to exit; if it does not, SIGKILL. A process frozen with
   * SIGSTOP acts on SIGTERM only once continued.
   *
   * @return whether it exited within {@code grace}
   */
  boolean stop(Duration grace) throws InterruptedException {
    process.destroy();
    boolean exited = process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
    if (!exited) {
      kill();
    }
    return exited;
  }

  /** SIGKILL, and waits (at most 10 s) until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(KILL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Whatever it is doing, makes it go: continued (in case it was frozen) and {@link #stop stopped}; SIGKILL at
   * once if the calling thread is interrupted, whose interrupt status is then set again.
   */
  void close(Duration grace) throws IOException {
    try {
      if (process.isAlive()) {
        trySignal("CONT"); // a stopped process does not act on SIGTERM
        stop(grace);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
