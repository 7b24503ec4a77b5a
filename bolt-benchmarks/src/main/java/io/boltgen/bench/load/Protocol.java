package io.boltgen.bench.load;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The lines child JVMs send the orchestrator on their standard output, each marked by {@link #PREFIX}.
 * Everything else a child prints (logs, library chatter, JVM diagnostics such as {@code -XX:+PrintCompilation}
 * or {@code -Xlog}) goes to the child's log file only. A child points {@code System.out} at standard error
 * and writes each protocol line, newline included, with one unbuffered write (atomic on a pipe), so the
 * JVM's own output can at most precede a line's marker on the same physical line, never split it: the
 * orchestrator reads from the marker on.
 */
public final class Protocol {

  /** Marks every protocol line. */
  public static final String PREFIX = "@@BENCH ";
  /** {@code READY port=<port> pid=<pid> stats=<port>}: a server is listening (stats: its {@link StatsPort}). */
  public static final String READY = "READY";
  /** {@code CASE <token> [repeat]}: a client starts a case (warm-up first); {@code repeat}: the first case again. */
  public static final String CASE = "CASE";
  /** {@code POINT <ScalePoint token>}: the orchestrator asks a scaling client for a point (on its standard input). */
  public static final String POINT = "POINT";
  /** {@code RESULT <CaseResult line>} or, from a scaling client, {@code RESULT <PointResult line>}. */
  public static final String RESULT = "RESULT";
  /** {@code DONE}: a client finished every case. */
  public static final String DONE = "DONE";
  /** {@code FAILED <reason>}. */
  public static final String FAILED = "FAILED";

  private static FileOutputStream out;

  private Protocol() {}

  /** Takes over standard output for protocol lines (call first thing in a child's main). */
  public static synchronized void claimStdout() {
    if (out == null) {
      System.out.flush();
      out = new FileOutputStream(FileDescriptor.out);
      System.setOut(System.err);
    }
  }

  /** Sends one protocol line. */
  public static synchronized void send(String kind, String body) {
    claimStdout();
    byte[] line = (PREFIX + kind + (body.isEmpty() ? "" : " " + body) + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      out.write(line);
    } catch (IOException e) {
      throw new UncheckedIOException("the orchestrator went away", e);
    }
  }
}
