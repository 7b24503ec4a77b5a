package io.boltgen.runtime;

import java.time.Duration;
import java.util.Objects;

/** Argument checks shared by the builders. */
final class Checks {

  private Checks() {}

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
}
