package io.boltgen.bench.load;

import java.io.PrintStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM of the orchestrator: its merged output goes to a log file, and its protocol lines
 * ({@link Protocol}) to {@link #next}. Closing it asks it to stop (standard input), then kills it if it
 * does not exit in time.
 */
final class Child implements AutoCloseable {

  private static final String EOF = "\u0000eof";
  private static final int TAIL_LINES = 40;

  private final String name;
  private final Process process;
  private final Path log;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Deque<String> tail = new ArrayDeque<>();
  private final Thread pump;
  private final Writer stdin;

  private Child(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.stdin = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.pump = new Thread(this::pump, "child-output-" + name);
    this.pump.setDaemon(true);
    this.pump.start();
  }

  /** Starts {@code command}, logging its output to {@code log}. */
  static Child start(String name, List<String> command, Path log) {
    try {
      Files.createDirectories(log.getParent());
      Files.writeString(log, "# " + String.join(" ", command) + "\n", StandardCharsets.UTF_8);
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      return new Child(name, p, log);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + name, e);
    }
  }

  private void pump() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.write(line);
        out.write('\n');
        out.flush();
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
          }
        }
        int marker = line.indexOf(Protocol.PREFIX);
        if (marker >= 0) {
          lines.add(line.substring(marker + Protocol.PREFIX.length()));
        }
      }
    } catch (IOException e) {
      // the process went away; EOF below
    } finally {
      lines.add(EOF);
    }
  }

  /** The next protocol line, or null if the child exited or nothing came within {@code timeout}. */
  String next(Duration timeout) throws InterruptedException {
    String line = lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (line == null || line.equals(EOF)) {
      if (line != null) {
        lines.add(EOF);
      }
      return null;
    }
    return line;
  }

  /** Sends {@code line} to the child's standard input. */
  void send(String line) throws IOException {
    synchronized (stdin) {
      stdin.write(line);
      stdin.write('\n');
      stdin.flush();
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path log() {
    return log;
  }

  /** The last lines the child printed, for error messages. */
  String tail() {
    synchronized (tail) {
      return String.join("\n", new ArrayList<>(tail));
    }
  }

  /**
   * Prints {@code FAILED <what>; log: <file>} and the last lines this child printed to {@code out}; returns
   * that message without the tail.
   */
  String reportFailure(String what, PrintStream out) {
    String message = what + "; log: " + log;
    out.println("  FAILED " + message);
    String lines = tail();
    if (!lines.isBlank()) {
      out.println("  last lines of " + this + ":");
      for (String l : lines.split("\n")) {
        out.println("    | " + l);
      }
    }
    return message;
  }

  /** Waits for the child to exit by itself. */
  boolean waitFor(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Asks the child to stop (a {@code stop} line, then end of input) and waits; kills it after 15 s (at once
   * if this thread is interrupted, keeping the interrupt).
   */
  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        synchronized (stdin) {
          try (Writer w = stdin) {
            w.write("stop\n");
          } catch (IOException ignored) {
            // it is exiting already
          }
        }
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
          process.destroy();
          if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
          }
        }
      }
      pump.join(5_000);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ")";
  }
}
