package io.boltgen.registry.zookeeper;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * WARN lines at most once a minute per key (a node path, a watched service), so that a garbled node or a
 * failing read is named without flooding the log. Thread-safe.
 */
final class RateLimitedWarn {

  static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);
  private static final int MAX_KEYS = 1024;

  private final Logger log;
  private final Map<String, Long> lastWarned = new ConcurrentHashMap<>();

  RateLimitedWarn(Logger log) {
    this.log = log;
  }

  /** Logs {@code format} at WARN unless {@code key} was warned about within the last minute. */
  void warn(String key, String format, Object... args) {
    long now = System.nanoTime();
    boolean[] due = {false};
    if (lastWarned.size() >= MAX_KEYS) {
      lastWarned.clear(); // a bound on memory; at worst some keys warn early once
    }
    lastWarned.compute(key, (k, last) -> {
      if (last == null || now - last >= INTERVAL_NANOS) {
        due[0] = true;
        return now;
      }
      return last;
    });
    if (due[0]) {
      log.warn(format, args);
    }
  }
}
