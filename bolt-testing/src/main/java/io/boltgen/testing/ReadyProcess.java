package io.boltgen.testing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A server in a child process of its own, as an operator runs one (or, with {@link Launcher#run}, a tool that does
 * its work and exits, waited for with {@link #finish}): started, waited for until it prints
 * {@code READY <port>} (at most 60 s), signalled, stopped gracefully (SIGTERM), killed (SIGKILL), and never
 * outliving the test ({@link #close}). Its standard error (its log) goes to a file the test can read.
 *
 * <p>{@link #launcher} starts one with more control, for harnesses that talk to their children: the log kept
 * in a file of the caller's with standard output and error merged into it, protocol lines recognised by a
 * marker anywhere in a line (so that a JVM's own output on the same stream cannot hide them), the lines after
 * {@code READY} read one by one ({@link #nextLine}), lines sent to its standard input ({@link #send}), and a
 * polite stop: a line on standard input before SIGTERM.
 */
public final class ReadyProcess implements AutoCloseable {

  private static final String EOF = "\u0000eof";
  private static final int TAIL_LINES = 40;

  private final Process process;
  private final Launcher launch;
  private final Path log;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  @GuardedBy("tail")
  private final Deque<String> tail = new ArrayDeque<>();
  @GuardedBy("stdin")
  private final Writer stdin;
  private final Thread pump;
  private String ready;

  private ReadyProcess(Process process, Launcher launch, Path log) {
    this.process = process;
    this.launch = launch;
    this.log = log;
    this.stdin = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.pump = new Thread(this::pump, "ready-process-output-" + process.pid());
    this.pump.setDaemon(true);
    this.pump.start();
  }

  /** {@code java -cp <this test's class path> mainClass args…}, with this JVM's java. */
  public static List<String> java(String mainClass, String... args) {
    return java(List.of(), mainClass, List.of(args));
  }

  /** {@code java <jvmOptions> -cp <this JVM's class path> mainClass args…}, with this JVM's java. */
  public static List<String> java(List<String> jvmOptions, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(args);
    return command;
  }

  /** Starts {@code command} and waits until it prints {@code READY <port>}; fails with its log if it exits first. */
  public static ReadyProcess start(List<String> command) throws Exception {
    return launcher(command).start();
  }

  /** How to start {@code command}, with more control than {@link #start}. */
  public static Launcher launcher(List<String> command) {
    return new Launcher(command);
  }

  /** How a {@link ReadyProcess} is started; {@link #start} starts it. */
  public static final class Launcher {
    private final List<String> command;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private Path log;
    private String marker = "";
    private String stopLine;
    private Duration readyTimeout = Duration.ofSeconds(60);

    private Launcher(List<String> command) {
      this.command = List.copyOf(command);
    }

    /**
     * Keeps the log in {@code file} (not deleted on close), its first line the command, standard output and error
     * merged into it.
     */
    public Launcher log(Path file) {
      this.log = file;
      return this;
    }

    /** Only lines holding {@code marker} are protocol lines ({@code READY}, {@link #nextLine}), read from after it. */
    public Launcher marker(String marker) {
      this.marker = marker;
      return this;
    }

    /** {@link #close} first sends {@code line} and closes standard input, then waits 15 s before SIGTERM. */
    public Launcher stopLine(String line) {
      this.stopLine = line;
      return this;
    }

    /** How long {@link #start} waits for {@code READY} (60 s unless set). */
    public Launcher readyTimeout(Duration timeout) {
      this.readyTimeout = timeout;
      return this;
    }

    /** Adds {@code name=value} to the child's environment. */
    public Launcher environment(String name, String value) {
      environment.put(name, value);
      return this;
    }

    /** Starts the process and waits until it says {@code READY}; fails with its log's last lines if it does not. */
    public ReadyProcess start() throws Exception {
      ReadyProcess child = spawn();
      try {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        do {
          child.ready = child.nextLine(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        } while (child.ready != null && !child.ready.startsWith("READY"));
        if (child.ready == null) {
          throw new IllegalStateException("the process exited, or was not ready within " + readyTimeout.toSeconds()
              + " s:\n" + (log != null ? child.tail() : Files.readString(child.log)));
        }
        return child;
      } catch (Exception e) {
        child.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        if (log == null) {
          Files.deleteIfExists(child.log);
        }
        throw e;
      }
    }

    /**
     * Starts a tool that does its work and exits (wrk, a script), without waiting for a {@code READY} line: its
     * caller waits with {@link ReadyProcess#finish}, or polls for the readiness it knows of.
     *
     * @throws IOException saying which command did not start
     */
    public ReadyProcess run() throws IOException {
      try {
        return spawn();
      } catch (IOException e) {
        throw new IOException(String.join(" ", command) + " did not start: " + e.getMessage(), e);
      }
    }

    private ReadyProcess spawn() throws IOException {
      Path file = log != null ? log : Files.createTempFile("ready-process", ".log");
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().putAll(environment);
      if (log != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, "# " + String.join(" ", command) + "\n", StandardCharsets.UTF_8);
        builder.redirectErrorStream(true);
      } else {
        builder.redirectError(file.toFile());
      }
      try {
        return new ReadyProcess(ChildProcess.track(builder.start(), () -> {}), this, file);
      } catch (IOException e) {
        if (log == null) {
          Files.deleteIfExists(file);
        }
        throw e;
      }
    }
  }

  private void pump() {
    Writer out = null;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      if (launch.log != null) {
        out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
      }
      for (String line; (line = in.readLine()) != null; ) {
        if (out != null) {
          out.write(line + "\n");
          out.flush();
        }
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
          }
        }
        int at = line.indexOf(launch.marker);
        if (at >= 0) {
          lines.add(line.substring(at + launch.marker.length()));
        }
      }
    } catch (IOException e) {
      // the process went away
    } finally {
      try {
        if (out != null) {
          out.close();
        }
      } catch (IOException ignored) {
        // nothing more to write
      }
      lines.add(EOF);
    }
  }

  /** The port it printed ({@code READY <port> …}), or -1 if its ready line names none. */
  public int port() {
    String[] words = ready.split(" ");
    return words.length > 1 && words[1].matches("[0-9]+") ? Integer.parseInt(words[1]) : -1;
  }

  /** Its {@code READY} line, without the marker. */
  public String readyLine() {
    return ready;
  }

  /** The next protocol line after {@code READY}, or null if it exited or printed none within {@code timeout}. */
  public String nextLine(Duration timeout) throws InterruptedException {
    String line = lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (EOF.equals(line)) {
      lines.add(EOF);
      return null;
    }
    return line;
  }

  /** Sends {@code line} to its standard input. */
  public void send(String line) throws IOException {
    synchronized (stdin) {
      stdin.write(line + "\n");
      stdin.flush();
    }
  }

  /** The last lines it printed on standard output (and error, with a {@link Launcher#log} file). */
  public String tail() {
    synchronized (tail) {
      return String.join("\n", tail);
    }
  }

  /** The file its log goes to. */
  public Path logFile() {
    return log;
  }

  /** Its process id. */
  public long pid() {
    return process.pid();
  }

  /** Whether it still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Waits up to {@code timeout} for it to exit by itself; true if it did. */
  public boolean waitFor(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Waits up to {@code timeout} for a {@link Launcher#run run} tool to exit and for all it printed to be in its log
   * (read within 10 s more); its exit status. If it is still running then, it is killed and this fails saying so.
   */
  public int finish(Duration timeout) throws IOException, InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      kill();
      throw new IOException(String.join(" ", launch.command) + " did not end within " + timeout.toSeconds()
          + " s; log: " + log);
    }
    pump.join(TimeUnit.SECONDS.toMillis(10));
    if (pump.isAlive()) {
      throw new IOException(String.join(" ", launch.command) + " exited with " + process.exitValue()
          + ", but its output was not all read within 10 s (a child of it holds it open?); log: " + log);
    }
    return process.exitValue();
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

  /**
   * Stops it if it still runs (continued first, should it be stopped): with a {@link Launcher#stopLine}, that line and the end of its input first, then
   * 15 s for it to exit; then SIGTERM and, after 30 s, SIGKILL. The log is deleted unless it is the caller's file.
   */
  @Override
  public void close() throws IOException {
    try {
      if (process.isAlive()) {
        try {
          kill("CONT"); // a stopped process reads no stop line and does not act on SIGTERM
        } catch (IOException e) {
          // no kill(1) to run: stop it anyway, below
        }
      }
      if (process.isAlive() && launch.stopLine != null) {
        synchronized (stdin) {
          try (Writer w = stdin) {
            w.write(launch.stopLine + "\n");
          } catch (IOException ignored) {
            // it is exiting already
          }
        }
        process.waitFor(15, TimeUnit.SECONDS);
      }
      if (process.isAlive()) {
        stop();
      }
      pump.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    } finally {
      if (launch.log == null) {
        Files.deleteIfExists(log);
      }
    }
  }
}
