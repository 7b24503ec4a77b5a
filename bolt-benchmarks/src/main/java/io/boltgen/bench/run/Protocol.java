package io.boltgen.bench.run;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The lines child JVMs and the runner exchange. A child sends its lines on standard output, each marked by
 * {@link #PREFIX}; everything else a child prints (logs, library chatter, JVM diagnostics such as
 * {@code -XX:+PrintCompilation} or {@code -Xlog}) goes to its log file only. A child points {@code System.out} at
 * standard error and writes each line, newline included, with one unbuffered write (atomic on a pipe), so the JVM's
 * own output can at most precede a line's marker on the same physical line, never split it: the runner reads from
 * the marker on. The runner sends {@code WINDOW} lines, and {@code stop}, on the child's standard input.
 */
public final class Protocol {

  /** Marks every line a child sends. */
  public static final String PREFIX = "@@BENCH ";
  /** {@code READY key=value…}: a server listens ({@code port= ports= pid= stats=}), or a client has warmed up. */
  public static final String READY = "READY";
  /** {@code WINDOW <point token> <run> <repeat>}: the runner asks a client for a window. */
  public static final String WINDOW = "WINDOW";
  /** {@code RESULT <window line>}: a client measured one. */
  public static final String RESULT = "RESULT";
  /** {@code FAILED <reason>}. */
  public static final String FAILED = "FAILED";
  /** Asks a child to finish. */
  public static final String STOP = "stop";

  @GuardedBy("Protocol.class")
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

  /** Sends one line. */
  public static synchronized void send(String kind, String body) {
    claimStdout();
    try {
      out.write((PREFIX + kind + (body.isEmpty() ? "" : " " + body) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("the runner went away", e);
    }
  }

  /** The {@code key=value} words of {@code line}, e.g. a {@code READY} line's. */
  public static Map<String, String> fields(String line) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String word : line.split(" ")) {
      int eq = word.indexOf('=');
      if (eq > 0) {
        fields.put(word.substring(0, eq), word.substring(eq + 1));
      }
    }
    return fields;
  }
}
