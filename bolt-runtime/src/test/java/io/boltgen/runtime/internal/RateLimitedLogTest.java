package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** Lines per cause are bounded, and the lines left out are counted in the next line written. */
class RateLimitedLogTest {

  /** A logger that keeps what it is given. */
  static final class RecordingLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;
    final List<String> lines = new ArrayList<>();
    final List<Throwable> throwables = new ArrayList<>();

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String format, Object[] args, Throwable t) {
      lines.add(level + " " + MessageFormatter.basicArrayFormat(format, args));
      throwables.add(t);
    }

    @Override
    public boolean isTraceEnabled() {
      return true;
    }

    @Override
    public boolean isDebugEnabled() {
      return true;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }
  }

  @Test
  void aFloodCostsTheLimitPerPeriodAndTheNextLineCountsWhatWasLeftOut() {
    RecordingLogger logger = new RecordingLogger();
    AtomicLong clock = new AtomicLong();
    RateLimitedLog log = new RateLimitedLog(logger, 3, TimeUnit.SECONDS.toNanos(60), clock::get);
    for (int i = 0; i < 1_000; i++) {
      log.warn("bad frame from {}", "peer-" + i);
    }
    assertThat(logger.lines).containsExactly("WARN bad frame from peer-0", "WARN bad frame from peer-1",
        "WARN bad frame from peer-2");
    assertThat(log.suppressed()).isEqualTo(997);

    clock.addAndGet(TimeUnit.SECONDS.toNanos(59));
    log.warn("bad frame from {}", "late");
    assertThat(logger.lines).hasSize(3);

    clock.addAndGet(TimeUnit.SECONDS.toNanos(1)); // a new period
    log.info("bad frame from {}", "next");
    assertThat(logger.lines).hasSize(4);
    assertThat(logger.lines.get(3)).isEqualTo("INFO bad frame from next (998 more line(s) of this kind were left out"
        + " before this one)");
    assertThat(log.suppressed()).isZero();
  }

  @Test
  void aThrowableArgumentStillReachesTheLogger() {
    RecordingLogger logger = new RecordingLogger();
    RateLimitedLog log = new RateLimitedLog(logger, 1, 1, () -> 0);
    IllegalStateException bug = new IllegalStateException("bug");
    log.warn("unexpected {}", "x", bug);
    assertThat(logger.throwables).containsExactly(bug);
  }

  @Test
  void longPeerTextIsCut() {
    String className = "x".repeat(32 * 1024);
    String shortened = LogText.shorten(className);
    assertThat(shortened).startsWith("x".repeat(LogText.MAX_CHARS)).endsWith("…(32568 more chars)");
    assertThat(LogText.shorten("short")).isEqualTo("short");
    assertThat(LogText.shorten(null)).isEqualTo("null");
    // a surrogate pair is never split
    String emoji = "a".repeat(LogText.MAX_CHARS - 1) + "\uD83D\uDE00" + "tail";
    assertThat(LogText.shorten(emoji)).startsWith("a".repeat(LogText.MAX_CHARS - 1) + "…");
  }
}
