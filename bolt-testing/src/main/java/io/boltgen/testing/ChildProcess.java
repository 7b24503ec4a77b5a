package io.boltgen.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How tests here start, signal, stop and kill their child processes, so that every child ({@link ReadyProcess},
 * {@link EtcdProcess}) is handled one way: signals through {@code kill(1)}, a graceful stop that is SIGTERM and
 * then SIGKILL if the process does not exit in time, and a wait after every kill so that no child outlives its
 * test.
 */
final class ChildProcess {

  /** How long a process may take to go once killed (SIGKILL), and kill(1) to run. */
  private static final long KILL_BOUND_SECONDS = 10;

  private ChildProcess() {}

  /** Starts {@code command} with its standard output and error appended to {@code log}. */
  static Process start(List<String> command, Path log) throws IOException {
    return new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  /** Sends {@code signal} ({@code STOP}, {@code CONT}, …) with {@code kill -<signal> <pid>}; whether it worked. */
  static boolean signal(Process process, String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return kill.waitFor(KILL_BOUND_SECONDS, TimeUnit.SECONDS) && kill.exitValue() == 0;
  }

  /**
   * SIGTERM, then waits up to {@code grace} for it to exit; if it does not, {@link #kill}. A process frozen with
   * SIGSTOP acts on SIGTERM only once continued.
   *
   * @return whether it exited within {@code grace}
   */
  static boolean stop(Process process, long grace, TimeUnit unit) throws InterruptedException {
    process.destroy();
    boolean exited = process.waitFor(grace, unit);
    if (!exited) {
      kill(process);
    }
    return exited;
  }

  /** SIGKILL, and waits (at most 10 s) until it is gone. */
  static void kill(Process process) throws InterruptedException {
    process.destroyForcibly().waitFor(KILL_BOUND_SECONDS, TimeUnit.SECONDS);
  }

  /**
   * Whatever it is doing, makes it go: continued (in case it was frozen) and {@link #stop stopped}; SIGKILL at
   * once if the calling thread is interrupted, whose interrupt status is then set again.
   */
  static void close(Process process, long grace, TimeUnit unit) throws IOException {
    try {
      if (process.isAlive()) {
        signal(process, "CONT"); // a stopped process does not act on SIGTERM
        stop(process, grace, unit);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
