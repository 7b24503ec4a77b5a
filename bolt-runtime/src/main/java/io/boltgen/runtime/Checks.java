package io.boltgen.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Argument checks shared by the builders. */
final class Checks {

  private Checks() {}

  /** Fails, saying why, unless this JVM has virtual threads (Java 21+): the runtime is compiled for 17. */
  static void virtualThreadsAvailable() {
    if (Runtime.version().feature() < 21) {
      throw new UnsupportedOperationException("virtual threads need Java 21 or later; this JVM is Java "
          + Runtime.version() + ": leave virtualThreads() off or run on Java 21+");
    }
  }

  static long positiveMillis(Duration d, String what) {
    Objects.requireNonNull(d, what);
    long millis = d.toMillis();
    if (millis <= 0) {
      throw new IllegalArgumentException(what + " must be positive: " + d);
    }
    return millis;
  }

  static long nonNegativeMillis(Duration d, String what) {
    Objects.requireNonNull(d, what);
    long millis = d.toMillis();
    if (millis < 0) {
      throw new IllegalArgumentException(what + " must not be negative: " + d);
    }
    return millis;
  }

  static int positive(int value, String what) {
    if (value <= 0) {
      throw new IllegalArgumentException(what + " must be positive: " + value);
    }
    return value;
  }

  static long positive(long value, String what) {
    if (value <= 0) {
      throw new IllegalArgumentException(what + " must be positive: " + value);
    }
    return value;
  }

  static int atLeast(int value, int min, String what) {
    if (value < min) {
      throw new IllegalArgumentException(what + " must be at least " + min + ": " + value);
    }
    return value;
  }

  static void waterMarks(int low, int high) {
    if (low < 0 || high <= 0 || low > high) {
      throw new IllegalArgumentException("water marks need 0 <= low <= high, 0 < high: " + low + " / " + high);
    }
  }

  /** Browser origins for CORS: each {@code *} or {@code scheme://host[:port]}, a trailing slash dropped. */
  static List<String> origins(String... origins) {
    List<String> allowed = new ArrayList<>();
    for (String origin : origins) {
      if (origin == null || origin.isBlank() || !(origin.equals("*") || origin.contains("://"))) {
        throw new IllegalArgumentException("a CORS origin is * or scheme://host[:port], not " + origin);
      }
      allowed.add(origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin);
    }
    return List.copyOf(allowed);
  }
}
