package io.boltgen.testing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How tests here start, signal, stop and kill their child processes, so that every child ({@link ReadyProcess},
 * {@link EtcdProcess}) is handled one way: signals through {@code kill(1)}, a graceful stop that is SIGTERM and
 * then SIGKILL if the process does not exit in time, and a wait after every kill so that no child outlives its
 * test. Every child is tracked until it exits: should this JVM stop first (Ctrl-C, a test JVM that ends), a
 * shutdown hook continues and stops what is left (SIGTERM, then SIGKILL after 5 s).
 */
final class ChildProcess {

  /** How long a process may take to go once killed (SIGKILL), and kill(1) to run. */
  private static final long KILL_BOUND_SECONDS = 10;

  /** How long the shutdown hook waits for the children it stops before it kills them. */
  private static final long LEFTOVER_GRACE_SECONDS = 5;

  /** Children still running, with what to do once the shutdown hook has stopped one. */
  @GuardedBy("LIVE")
  private static final Map<Process, Runnable> LIVE = new LinkedHashMap<>();

  /** Whether the shutdown hook runs: a child started from now on is killed at once. */
  @GuardedBy("LIVE")
  private static boolean stopping;

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(ChildProcess::stopLeftovers, "child-process-cleanup"));
  }

  private ChildProcess() {}

  /**
   * Starts {@code command} with its standard output and error appended to {@code log}; should the shutdown hook stop
   * it, {@code afterStop} runs then.
   */
  static Process start(List<String> command, Path log, Runnable afterStop) throws IOException {
    return track(new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start(), afterStop);
  }

  /**
   * {@code process}, stopped by the shutdown hook if it still runs when this JVM stops ({@code afterStop} run then);
   * once the hook runs, it is killed at once instead and this fails.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // the stage only forgets the process once it exited; nothing to await
  static Process track(Process process, Runnable afterStop) {
    synchronized (LIVE) {
      if (!stopping) {
        LIVE.put(process, afterStop);
        process.onExit().thenRun(() -> {
          synchronized (LIVE) {
            LIVE.remove(process);
          }
        });
        return process;
      }
    }
    process.destroyForcibly();
    throw new IllegalStateException("this JVM is stopping: killed " + process.pid() + " as soon as it started");
  }

  /**
   * The shutdown hook: from now on no child is started; every child left is continued and stopped, those still there
   * after {@value #LEFTOVER_GRACE_SECONDS} s are killed, and their after-stop actions run.
   */
  private static void stopLeftovers() {
    Map<Process, Runnable> left;
    synchronized (LIVE) {
      stopping = true;
      left = new LinkedHashMap<>(LIVE);
    }
    for (Process p : left.keySet()) {
      if (p.isAlive()) {
        try {
          signal(p, "CONT"); // a stopped process does not act on SIGTERM
        } catch (IOException | InterruptedException e) {
          // stopped below all the same
        }
        p.destroy();
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LEFTOVER_GRACE_SECONDS);
    left.forEach((p, afterStop) -> {
      try {
        if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          p.destroyForcibly().waitFor(KILL_BOUND_SECONDS, TimeUnit.SECONDS);
        }
        afterStop.run();
      } catch (InterruptedException | RuntimeException e) {
        p.destroyForcibly();
      }
    });
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
