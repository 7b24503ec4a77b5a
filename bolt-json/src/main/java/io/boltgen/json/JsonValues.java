package io.boltgen.json;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;

/**
 * The proto3 JSON forms of values that are not plain JSON numbers or strings, for the JSON codecs the processor
 * generates: 64-bit integers as decimal strings, {@code float} and {@code double} with {@code "NaN"},
 * {@code "Infinity"} and {@code "-Infinity"}, {@code bytes} as standard base64 with padding, and the RFC 3339 and
 * {@code "1.5s"} texts of {@code google.protobuf.Timestamp} and {@code Duration}. {@link JsonReader} reads them
 * back.
 *
 * <p>A value the mapping cannot express fails with an {@link IllegalArgumentException}: an instant outside
 * {@code 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z}, a duration longer than 10,000 years, a
 * {@code null} element of a collection.
 */
public final class JsonValues {

  /** {@code 0001-01-01T00:00:00Z}, the first second of {@code google.protobuf.Timestamp}. */
  static final long TIMESTAMP_MIN_SECONDS = -62_135_596_800L;
  /** {@code 9999-12-31T23:59:59Z}, the last second of {@code google.protobuf.Timestamp}. */
  static final long TIMESTAMP_MAX_SECONDS = 253_402_300_799L;
  /** The longest {@code google.protobuf.Duration}, in seconds either way: 10,000 years. */
  static final long DURATION_MAX_SECONDS = 315_576_000_000L;
  static final int NANOS_PER_SECOND = 1_000_000_000;

  private JsonValues() {}

  /** {@code element}, or a {@link NullPointerException} saying that JSON has no null element. */
  public static <T> T element(T element) {
    if (element == null) {
      throw new NullPointerException("a collection element, map key or map value is null: the proto3 JSON"
          + " mapping has no null elements");
    }
    return element;
  }

  /** An {@code int64}: its decimal text, as a JSON string. */
  public static void writeInt64(JsonWriter out, long value) {
    out.writeQuoted(value);
  }

  /** A {@code uint64} or {@code fixed64} held in a long's 64 bits: its unsigned decimal text, as a JSON string. */
  public static void writeUint64(JsonWriter out, long value) {
    if (value >= 0) {
      out.writeQuoted(value);
    } else {
      out.writeString(Long.toUnsignedString(value));
    }
  }

  /** A {@code float}: a number, or the string {@code "NaN"}, {@code "Infinity"} or {@code "-Infinity"}. */
  public static void writeFloat(JsonWriter out, float value) {
    if (Float.isFinite(value)) {
      out.writeNumber(value);
    } else {
      out.writeString(Float.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
    }
  }

  /** A {@code double}: a number, or the string {@code "NaN"}, {@code "Infinity"} or {@code "-Infinity"}. */
  public static void writeDouble(JsonWriter out, double value) {
    if (Double.isFinite(value)) {
      out.writeNumber(value);
    } else {
      out.writeString(Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
    }
  }

  /**
   * A {@code string}. A lone surrogate, which is no Unicode text, is written as {@code ?}, as the protobuf
   * encoder (and protobuf-java) write it.
   */
  public static void writeString(JsonWriter out, String value) {
    out.writeString(value); // the writer writes a lone surrogate as ?
  }

  /** A {@code string} map key, as the name of an object member: lone surrogates as in {@link #writeString}. */
  public static void writeKey(JsonWriter out, String key) {
    out.writeName(key);
  }

  /** The index of the first surrogate of {@code text} that is not half of a pair, or -1. */
  static int loneSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      }
    }
    return -1;
  }

  /** A {@code bytes} value: standard base64 with padding (RFC 4648 section 4), as a JSON string. */
  public static void writeBytes(JsonWriter out, byte[] value) {
    out.writeString(Base64.getEncoder().encodeToString(value));
  }

  /** A {@code google.protobuf.Timestamp} of {@code value}: its RFC 3339 text in UTC. */
  public static void writeTimestamp(JsonWriter out, Instant value) {
    out.writeString(timestampText(value.getEpochSecond(), value.getNano()));
  }

  /** A {@code google.protobuf.Timestamp} of {@code seconds} and {@code nanos}: its RFC 3339 text in UTC. */
  public static void writeTimestamp(JsonWriter out, long seconds, int nanos) {
    out.writeString(timestampText(seconds, nanos));
  }

  /** A {@code google.protobuf.Duration} of {@code value}: seconds with a suffix {@code s}, e.g. {@code "-1.500s"}. */
  public static void writeDuration(JsonWriter out, Duration value) {
    long seconds = value.getSeconds();
    int nanos = value.getNano();
    if (seconds < 0 && nanos > 0) { // protobuf's normal form: nanos take the sign of the seconds
      seconds++;
      nanos -= NANOS_PER_SECOND;
    }
    out.writeString(durationText(seconds, nanos));
  }

  /** A {@code google.protobuf.Duration} of {@code seconds} and {@code nanos} (of the same sign). */
  public static void writeDuration(JsonWriter out, long seconds, int nanos) {
    out.writeString(durationText(seconds, nanos));
  }

  /**
   * {@code 1972-01-01T10:00:20.021Z}: UTC, with 0, 3, 6 or 9 digits of fraction, as protobuf writes it.
   *
   * @throws IllegalArgumentException outside {@code google.protobuf.Timestamp}'s range
   */
  static String timestampText(long seconds, int nanos) {
    if (seconds < TIMESTAMP_MIN_SECONDS || seconds > TIMESTAMP_MAX_SECONDS || nanos < 0 || nanos >= NANOS_PER_SECOND) {
      throw new IllegalArgumentException("the instant " + seconds + " s " + nanos + " ns is outside the range of"
          + " google.protobuf.Timestamp, 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z, which JSON can carry");
    }
    LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
    StringBuilder out = new StringBuilder(30);
    pad(out, t.getYear(), 4).append('-');
    pad(out, t.getMonthValue(), 2).append('-');
    pad(out, t.getDayOfMonth(), 2).append('T');
    pad(out, t.getHour(), 2).append(':');
    pad(out, t.getMinute(), 2).append(':');
    pad(out, t.getSecond(), 2);
    fraction(out, nanos);
    return out.append('Z').toString();
  }

  /**
   * {@code -1.500s}: seconds with 0, 3, 6 or 9 digits of fraction, as protobuf writes it.
   *
   * @throws IllegalArgumentException outside {@code google.protobuf.Duration}'s range (±10,000 years), or
   *     when seconds and nanos differ in sign
   */
  static String durationText(long seconds, int nanos) {
    if (seconds < -DURATION_MAX_SECONDS || seconds > DURATION_MAX_SECONDS || nanos <= -NANOS_PER_SECOND
        || nanos >= NANOS_PER_SECOND || (seconds < 0 && nanos > 0) || (seconds > 0 && nanos < 0)) {
      throw new IllegalArgumentException("the duration " + seconds + " s " + nanos + " ns is outside the range of"
          + " google.protobuf.Duration, ±" + DURATION_MAX_SECONDS + " s, which JSON can carry");
    }
    StringBuilder out = new StringBuilder(24);
    if (seconds < 0 || nanos < 0) {
      out.append('-');
    }
    out.append(Math.abs(seconds));
    fraction(out, Math.abs(nanos));
    return out.append('s').toString();
  }

  private static StringBuilder pad(StringBuilder out, int value, int digits) {
    String text = Integer.toString(value);
    for (int i = text.length(); i < digits; i++) {
      out.append('0');
    }
    return out.append(text);
  }

  private static void fraction(StringBuilder out, int nanos) {
    if (nanos == 0) {
      return;
    }
    out.append('.');
    if (nanos % 1_000_000 == 0) {
      pad(out, nanos / 1_000_000, 3);
    } else if (nanos % 1_000 == 0) {
      pad(out, nanos / 1_000, 6);
    } else {
      pad(out, nanos, 9);
    }
  }

  /**
   * Parses the RFC 3339 text of a {@code google.protobuf.Timestamp}: {@code yyyy-mm-ddThh:mm:ss}, 1 to 9 digits
   * of fraction after a {@code .} if any, and {@code Z} or an offset {@code ±hh:mm}; within
   * {@code 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z}.
   *
   * @throws IllegalArgumentException for any other text
   */
  static Instant parseTimestamp(String text) {
    int n = text.length();
    if (n < 20 || !digits(text, 0, 4) || text.charAt(4) != '-' || !digits(text, 5, 7) || text.charAt(7) != '-'
        || !digits(text, 8, 10) || text.charAt(10) != 'T' || !digits(text, 11, 13) || text.charAt(13) != ':'
        || !digits(text, 14, 16) || text.charAt(16) != ':' || !digits(text, 17, 19)) {
      throw new IllegalArgumentException("not an RFC 3339 timestamp");
    }
    int at = 19;
    int nanos = 0;
    if (text.charAt(at) == '.') {
      int end = at + 1;
      while (end < n && Character.isDigit(text.charAt(end)) && text.charAt(end) < 0x80) {
        end++;
      }
      if (end == at + 1) {
        throw new IllegalArgumentException("not an RFC 3339 timestamp: no digit after the decimal point");
      }
      nanos = nanos(text, at + 1, end);
      at = end;
    }
    int offsetSeconds;
    if (at == n - 1 && text.charAt(at) == 'Z') {
      offsetSeconds = 0;
    } else if (at == n - 6 && (text.charAt(at) == '+' || text.charAt(at) == '-') && digits(text, at + 1, at + 3)
        && text.charAt(at + 3) == ':' && digits(text, at + 4, at + 6)) {
      int hours = Integer.parseInt(text, at + 1, at + 3, 10);
      int minutes = Integer.parseInt(text, at + 4, at + 6, 10);
      if (hours > 23 || minutes > 59) {
        throw new IllegalArgumentException("not an RFC 3339 timestamp: the offset is out of range");
      }
      offsetSeconds = (text.charAt(at) == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
    } else {
      throw new IllegalArgumentException("not an RFC 3339 timestamp: it ends in neither Z nor an offset ±hh:mm");
    }
    long seconds;
    try {
      LocalDateTime local = LocalDateTime.of(LocalDate.of(Integer.parseInt(text, 0, 4, 10),
          Integer.parseInt(text, 5, 7, 10), Integer.parseInt(text, 8, 10, 10)), LocalTime.of(
              Integer.parseInt(text, 11, 13, 10), Integer.parseInt(text, 14, 16, 10), Integer.parseInt(text, 17, 19, 10)));
      seconds = local.toEpochSecond(ZoneOffset.UTC) - offsetSeconds;
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("not an RFC 3339 timestamp: " + e.getMessage(), e);
    }
    if (seconds < TIMESTAMP_MIN_SECONDS || seconds > TIMESTAMP_MAX_SECONDS) {
      throw new IllegalArgumentException("outside the range of google.protobuf.Timestamp,"
          + " 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z");
    }
    return Instant.ofEpochSecond(seconds, nanos);
  }

  /**
   * Parses the text of a {@code google.protobuf.Duration}: an optional {@code -}, seconds, up to 9 digits of
   * fraction after a {@code .} if any, and {@code s}; within ±10,000 years.
   *
   * @throws IllegalArgumentException for any other text
   */
  static Duration parseDuration(String text) {
    int n = text.length();
    int start = n > 0 && text.charAt(0) == '-' ? 1 : 0;
    int point = text.indexOf('.');
    int secondsEnd = point < 0 ? n - 1 : point;
    if (n < 2 || text.charAt(n - 1) != 's' || secondsEnd <= start || secondsEnd - start > 12
        || !digits(text, start, secondsEnd)) {
      throw new IllegalArgumentException("not a duration: seconds with a suffix s, e.g. \"1.5s\"");
    }
    long seconds = Long.parseLong(text, start, secondsEnd, 10);
    int nanos = point < 0 ? 0 : nanos(text, point + 1, n - 1);
    if (seconds > DURATION_MAX_SECONDS) {
      throw new IllegalArgumentException("outside the range of google.protobuf.Duration, ±" + DURATION_MAX_SECONDS
          + " s");
    }
    return start == 1 ? Duration.ofSeconds(-seconds, -nanos) : Duration.ofSeconds(seconds, nanos);
  }

  /** The nanoseconds of the fraction digits {@code text[from, to)}: 0 to 9 ASCII digits. */
  private static int nanos(String text, int from, int to) {
    if (to - from > 9 || !digits(text, from, to)) {
      throw new IllegalArgumentException("the fraction of a second has more than 9 digits, or not only digits");
    }
    int nanos = 0;
    for (int i = from; i < from + 9; i++) {
      nanos = nanos * 10 + (i < to ? text.charAt(i) - '0' : 0);
    }
    return nanos;
  }

  /** Whether {@code text[from, to)} is all ASCII digits (and in bounds). */
  private static boolean digits(String text, int from, int to) {
    if (to > text.length()) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
