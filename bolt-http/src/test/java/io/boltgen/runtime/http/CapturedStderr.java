package io.boltgen.runtime.http;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What is written to {@code System.err} while it is open, which is where the tests' SLF4J binding
 * (slf4j-simple, which looks the stream up at every line) writes the runtime's log; everything still goes
 * to the real stream too. Tests run one at a time in their JVM, so nothing else writes there meanwhile
 * except the server under test.
 */
final class CapturedStderr implements AutoCloseable {

  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  private CapturedStderr() {
    OutputStream tee = new OutputStream() {
      @Override
      public void write(int b) {
        synchronized (captured) {
          captured.write(b);
        }
        original.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        synchronized (captured) {
          captured.write(b, off, len);
        }
        original.write(b, off, len);
      }

      @Override
      public void flush() {
        original.flush();
      }
    };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  /** Starts capturing. */
  static CapturedStderr start() {
    return new CapturedStderr();
  }

  /** The lines written so far. */
  List<String> lines() {
    synchronized (captured) {
      return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
