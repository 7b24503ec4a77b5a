package io.boltgen.runtime.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * Lines per cause are bounded, and the lines left out are counted in the next line written; per key, each key
 * is a cause, and the keys remembered are bounded.
 */
class RateLimitedLogTest {

  /** A logger that keeps what it is given. Never serialized: javac 18 and newer would warn on its lists. */
  @SuppressWarnings("serial")
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
  void perKeyEachKeyIsACauseOfItsOwn() {
    RecordingLogger logger = new RecordingLogger();
    AtomicLong clock = new AtomicLong();
    RateLimitedLog.PerKey log = new RateLimitedLog.PerKey(logger, 1, TimeUnit.MINUTES.toNanos(1), clock::get);
    for (int i = 0; i < 3; i++) {
      log.warn("node:/a", "skipping node {}: {}", "/a", "garbled");
      log.warn("node:/b", "skipping node {}: {}", "/b", "garbled");
    }
    assertThat(logger.lines).containsExactly("WARN skipping node /a: garbled", "WARN skipping node /b: garbled");

    clock.addAndGet(TimeUnit.MINUTES.toNanos(1));
    log.warn("node:/a", "skipping node {}: {}", "/a", "still garbled");
    log.info("node:/c", "node {} is back", "/c");
    assertThat(logger.lines).containsExactly("WARN skipping node /a: garbled", "WARN skipping node /b: garbled",
        "WARN skipping node /a: still garbled (2 more line(s) of this kind were left out before this one)",
        "INFO node /c is back");
  }

  @Test
  void perKeyForgetsItsKeysPastTheBoundSoMemoryStaysBounded() {
    RecordingLogger logger = new RecordingLogger();
    RateLimitedLog.PerKey log = new RateLimitedLog.PerKey(logger, 1, TimeUnit.MINUTES.toNanos(1), () -> 0);
    log.warn("first", "first");
    log.warn("first", "first again"); // left out: one line a minute
    for (int i = 1; i < RateLimitedLog.PerKey.MAX_KEYS; i++) {
      log.warn("key-" + i, "key {}", i);
    }
    assertThat(logger.lines).hasSize(RateLimitedLog.PerKey.MAX_KEYS);
    log.warn("one more", "one more"); // the bound is reached: every key is forgotten
    log.warn("first", "first once more");
    assertThat(logger.lines).hasSize(RateLimitedLog.PerKey.MAX_KEYS + 2).last().isEqualTo("WARN first once more");
  }

  @Test
  void limitsMustBePositive() {
    RecordingLogger logger = new RecordingLogger();
    assertThatThrownBy(() -> new RateLimitedLog(logger, 0, 1, () -> 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RateLimitedLog.perKey(logger, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    RateLimitedLog five = RateLimitedLog.of(logger, 5);
    for (int i = 0; i < 7; i++) {
      five.warn("line {}", i);
    }
    assertThat(logger.lines).hasSize(5);
    assertThat(five.suppressed()).isEqualTo(2);
  }
}
