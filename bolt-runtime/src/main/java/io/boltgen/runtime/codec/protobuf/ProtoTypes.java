package io.boltgen.runtime.codec.protobuf;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.UUID;

/**
 * The JDK value types generated codecs carry, in their protobuf form (docs/generated-code.md, "Types"):
 *
 * <ul>
 *   <li>{@link Instant} as a {@code google.protobuf.Timestamp} and {@link Duration} as a
 *       {@code google.protobuf.Duration}: an embedded message of {@code int64 seconds = 1} and
 *       {@code int32 nanos = 2}, byte-identical to what protobuf-java writes for the same instant or
 *       duration. Every Java value can be encoded; decoding rejects nanos outside protobuf's range (and, for
 *       a duration, nanos whose sign differs from the seconds') and values Java cannot hold.</li>
 *   <li>{@link BigDecimal}, {@link BigInteger}, {@link UUID}, {@link LocalDate}, {@link LocalTime},
 *       {@link LocalDateTime} and {@link URI} as a {@code string} in their canonical text form
 *       ({@code toString()}); decoding parses it, and text that does not parse is a
 *       {@link ProtoDecodeException}.</li>
 * </ul>
 *
 * <p>Uses only the JDK: no protobuf-java on the class path is needed.
 */
public final class ProtoTypes {

  /** The tag of field 1 ({@code seconds}), a varint. */
  private static final int SECONDS_TAG = 1 << 3;
  /** The tag of field 2 ({@code nanos}), a varint. */
  private static final int NANOS_TAG = 2 << 3;
  private static final int NANOS_PER_SECOND = 1_000_000_000;

  /**
   * The longest text of a {@link BigInteger} or {@link BigDecimal} either side accepts, in characters: Java
   * parses such text in time quadratic in its length (800,000 digits take seconds), so a peer could
   * otherwise pin a thread with one string.
   */
  public static final int MAX_NUMBER_TEXT = 1_000;

  /**
   * The largest {@link BigDecimal#scale()}, either sign, either side accepts: a value such as
   * {@code 1E+999999999} is a short text whose exact integer (what {@code toBigInteger()} or
   * {@code toPlainString()} build) takes hundreds of megabytes.
   */
  public static final int MAX_DECIMAL_SCALE = 100_000;

  private ProtoTypes() {}

  // ------------------------------------------------------------------ google.protobuf.Timestamp

  /** The size of the {@code google.protobuf.Timestamp} message of {@code value}, without a length prefix. */
  public static int sizeTimestamp(Instant value) {
    return secondsNanosSize(value.getEpochSecond(), value.getNano());
  }

  /** Writes the fields of the {@code google.protobuf.Timestamp} message of {@code value}. */
  public static void writeTimestamp(Instant value, ProtoEncoder e) {
    writeSecondsNanos(value.getEpochSecond(), value.getNano(), e);
  }

  /**
   * Reads the fields of a {@code google.protobuf.Timestamp} message (for {@link ProtoDecoder#readMessage}).
   *
   * @throws ProtoDecodeException when nanos are outside 0..999,999,999 or the instant is outside
   *     {@link Instant#MIN}..{@link Instant#MAX}
   */
  public static Instant readTimestamp(ProtoDecoder d) {
    SecondsNanos read = SecondsNanos.read(d);
    long seconds = read.seconds();
    int nanos = read.nanos();
    if (nanos < 0 || nanos >= NANOS_PER_SECOND) {
      throw new ProtoDecodeException("invalid google.protobuf.Timestamp: nanos " + nanos + " outside 0..999999999");
    }
    try {
      return Instant.ofEpochSecond(seconds, nanos);
    } catch (DateTimeException e) {
      throw new ProtoDecodeException("invalid google.protobuf.Timestamp: " + seconds + " seconds is outside the"
          + " range of java.time.Instant", e);
    }
  }

  /** The size of the {@code google.protobuf.Timestamp} message of the {@code java.util.Date} {@code value}. */
  public static int sizeDate(Date value) {
    return sizeTimestamp(value.toInstant());
  }

  /** Writes the fields of the {@code google.protobuf.Timestamp} message of the {@code java.util.Date} {@code value}. */
  public static void writeDate(Date value, ProtoEncoder e) {
    writeTimestamp(value.toInstant(), e);
  }

  /**
   * Reads a {@code google.protobuf.Timestamp} message as a {@code java.util.Date} (for
   * {@link ProtoDecoder#readMessage}).
   *
   * @throws ProtoDecodeException also when the instant is finer than a millisecond or beyond a Date's range
   *     (a {@code Date} holds milliseconds: nothing is cut to fit)
   */
  public static Date readDate(ProtoDecoder d) {
    try {
      return date(readTimestamp(d));
    } catch (IllegalArgumentException e) {
      throw new ProtoDecodeException("invalid java.util.Date: " + e.getMessage(), e);
    }
  }

  /**
   * {@code instant} as a {@code java.util.Date}, which holds milliseconds.
   *
   * @throws IllegalArgumentException if the instant is finer than a millisecond or beyond a Date's range
   */
  @SuppressWarnings("JavaInstantGetSecondsGetNano") // the nanos within the second are what a Date cannot hold
  public static Date date(Instant instant) {
    if (instant.getNano() % 1_000_000 != 0) {
      throw new IllegalArgumentException(instant + " is finer than the milliseconds a java.util.Date holds");
    }
    return Date.from(instant); // IllegalArgumentException beyond Long.MAX_VALUE milliseconds
  }

  /** The size of the {@code google.protobuf.Timestamp} message of the {@code java.sql.Timestamp} {@code value}. */
  public static int sizeSqlTimestamp(Timestamp value) {
    return sizeTimestamp(value.toInstant());
  }

  /** Writes the fields of the {@code google.protobuf.Timestamp} message of the {@code java.sql.Timestamp}. */
  public static void writeSqlTimestamp(Timestamp value, ProtoEncoder e) {
    writeTimestamp(value.toInstant(), e);
  }

  /**
   * Reads a {@code google.protobuf.Timestamp} message as a {@code java.sql.Timestamp}, nanoseconds and all.
   *
   * @throws ProtoDecodeException also when the instant is beyond a Timestamp's range
   */
  public static Timestamp readSqlTimestamp(ProtoDecoder d) {
    try {
      return sqlTimestamp(readTimestamp(d));
    } catch (IllegalArgumentException e) {
      throw new ProtoDecodeException("invalid java.sql.Timestamp: " + e.getMessage(), e);
    }
  }

  /**
   * {@code instant} as a {@code java.sql.Timestamp}, nanoseconds and all.
   *
   * @throws IllegalArgumentException if the instant is beyond a Timestamp's range (whose milliseconds are a long:
   *     JDK 17's {@code Timestamp.from} would wrap around silently)
   */
  @SuppressWarnings("JavaInstantGetSecondsGetNano") // a Timestamp keeps the nanos within its second
  public static Timestamp sqlTimestamp(Instant instant) {
    long millis;
    try {
      millis = instant.toEpochMilli();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(instant + " is beyond the range of a java.sql.Timestamp", e);
    }
    Timestamp timestamp = new Timestamp(millis);
    timestamp.setNanos(instant.getNano());
    return timestamp;
  }

  // ------------------------------------------------------------------ google.protobuf.Duration

  /** The size of the {@code google.protobuf.Duration} message of {@code value}, without a length prefix. */
  public static int sizeDuration(Duration value) {
    long seconds = value.getSeconds();
    int nanos = value.getNano();
    if (seconds < 0 && nanos > 0) {
      return secondsNanosSize(seconds + 1, nanos - NANOS_PER_SECOND);
    }
    return secondsNanosSize(seconds, nanos);
  }

  /**
   * Writes the fields of the {@code google.protobuf.Duration} message of {@code value}. Java keeps the
   * nanos of a negative duration positive ({@code -1.5 s} is {@code -2 s + 500,000,000 ns}); protobuf gives
   * them the sign of the seconds ({@code -1 s - 500,000,000 ns}).
   */
  public static void writeDuration(Duration value, ProtoEncoder e) {
    long seconds = value.getSeconds();
    int nanos = value.getNano();
    if (seconds < 0 && nanos > 0) {
      writeSecondsNanos(seconds + 1, nanos - NANOS_PER_SECOND, e);
    } else {
      writeSecondsNanos(seconds, nanos, e);
    }
  }

  /**
   * Reads the fields of a {@code google.protobuf.Duration} message (for {@link ProtoDecoder#readMessage}).
   *
   * @throws ProtoDecodeException when nanos are outside -999,999,999..999,999,999, have the other sign than
   *     non-zero seconds, or the duration does not fit {@link Duration}
   */
  public static Duration readDuration(ProtoDecoder d) {
    SecondsNanos read = SecondsNanos.read(d);
    long seconds = read.seconds();
    int nanos = read.nanos();
    if (nanos <= -NANOS_PER_SECOND || nanos >= NANOS_PER_SECOND) {
      throw new ProtoDecodeException("invalid google.protobuf.Duration: nanos " + nanos
          + " outside -999999999..999999999");
    }
    if ((seconds < 0 && nanos > 0) || (seconds > 0 && nanos < 0)) {
      throw new ProtoDecodeException("invalid google.protobuf.Duration: seconds " + seconds + " and nanos " + nanos
          + " have different signs");
    }
    try {
      return Duration.ofSeconds(seconds, nanos);
    } catch (ArithmeticException e) {
      throw new ProtoDecodeException("invalid google.protobuf.Duration: " + seconds + " s " + nanos
          + " ns does not fit java.time.Duration", e);
    }
  }

  private static int secondsNanosSize(long seconds, int nanos) {
    int size = 0;
    if (seconds != 0) {
      size += 1 + ProtoSizes.int64(seconds);
    }
    if (nanos != 0) {
      size += 1 + ProtoSizes.int32(nanos);
    }
    return size;
  }

  private static void writeSecondsNanos(long seconds, int nanos, ProtoEncoder e) {
    if (seconds != 0) {
      e.writeTag(SECONDS_TAG);
      e.writeInt64(seconds);
    }
    if (nanos != 0) {
      e.writeTag(NANOS_TAG);
      e.writeInt32(nanos);
    }
  }

  // ------------------------------------------------------------------ text forms

  /**
   * The text of {@code value}: {@link BigDecimal#toString()}, which keeps unscaled value and scale
   * ({@code 1.50}, {@code 1.5E+10}, {@code -1E-7}).
   *
   * @throws ProtoEncodeException when the exponent of that text exceeds what {@link BigDecimal#BigDecimal(String)}
   *     reads back (a scale within the precision of {@code Integer.MIN_VALUE})
   */
  public static String decimalText(BigDecimal value) {
    int scale = value.scale();
    if (scale > MAX_DECIMAL_SCALE || scale < -MAX_DECIMAL_SCALE) {
      throw new ProtoEncodeException("the BigDecimal with scale " + scale + " is outside the scale a reader"
          + " accepts, ±" + MAX_DECIMAL_SCALE);
    }
    return checkedLength("BigDecimal", value.toString());
  }

  /** The decimal text of {@code value}. @throws ProtoEncodeException when it is longer than a reader accepts */
  public static String integerText(BigInteger value) {
    return checkedLength("BigInteger", value.toString());
  }

  private static String checkedLength(String type, String text) {
    if (text.length() > MAX_NUMBER_TEXT) {
      throw new ProtoEncodeException("the " + type + " of " + text.length() + " characters is longer than a reader"
          + " accepts, " + MAX_NUMBER_TEXT);
    }
    return text;
  }

  /** Parses {@code text} as written by {@link #decimalText}, or any other form {@link BigDecimal} reads. */
  public static BigDecimal parseBigDecimal(String text) {
    tooLong("BigDecimal", text);
    // An exponent beyond int's range is refused by Java 17's parser as malformed and read by Java 25's
    // ("1E+2147483648", scale Integer.MIN_VALUE): one that puts the scale out of range whatever the digits is
    // refused here first, so that every JDK gives the same error
    if (exponentOutOfRange(text)) {
      throw outsideScale(text);
    }
    BigDecimal value;
    try {
      value = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw malformed("BigDecimal", text, e);
    }
    if (value.scale() > MAX_DECIMAL_SCALE || value.scale() < -MAX_DECIMAL_SCALE) {
      throw outsideScale(text);
    }
    return value;
  }

  /**
   * Whether {@code text} ends in an exponent (digits as {@link BigDecimal} reads them, after {@code e} or
   * {@code E} and a sign) so large that the scale is outside {@link #MAX_DECIMAL_SCALE} whatever precedes it:
   * the scale is the digits after the point (fewer than {@link #MAX_NUMBER_TEXT}) less the exponent.
   */
  private static boolean exponentOutOfRange(String text) {
    int e = Math.max(text.lastIndexOf('e'), text.lastIndexOf('E'));
    if (e < 0) {
      return false;
    }
    int at = e + 1;
    boolean negative = at < text.length() && text.charAt(at) == '-';
    if (at < text.length() && (text.charAt(at) == '-' || text.charAt(at) == '+')) {
      at++;
    }
    if (at == text.length()) {
      return false;
    }
    long exponent = 0;
    for (int i = at; i < text.length(); i++) {
      int digit = Character.digit(text.charAt(i), 10);
      if (digit < 0) {
        return false; // malformed: BigDecimal says why
      }
      exponent = Math.min(exponent * 10 + digit, Integer.MAX_VALUE + 1L);
    }
    return negative ? exponent > MAX_DECIMAL_SCALE : exponent > MAX_DECIMAL_SCALE + (long) MAX_NUMBER_TEXT;
  }

  private static ProtoDecodeException outsideScale(String text) {
    return new ProtoDecodeException("a BigDecimal text \"" + shorten(text, 64) + "\" whose scale is outside ±"
        + MAX_DECIMAL_SCALE);
  }

  /** Parses the decimal {@code text} of a {@link BigInteger} (an optional sign and digits). */
  public static BigInteger parseBigInteger(String text) {
    tooLong("BigInteger", text);
    try {
      return new BigInteger(text);
    } catch (NumberFormatException e) {
      throw malformed("BigInteger", text, e);
    }
  }

  private static void tooLong(String type, String text) {
    if (text.length() > MAX_NUMBER_TEXT) {
      throw new ProtoDecodeException("a " + type + " text of " + text.length() + " characters, longer than "
          + MAX_NUMBER_TEXT);
    }
  }

  /**
   * Parses the canonical 36-character text of a {@link UUID}, {@code 8-4-4-4-12} hexadecimal digits (either
   * case). Stricter than {@link UUID#fromString}, which also accepts shortened groups.
   */
  public static UUID parseUuid(String text) {
    if (text.length() != 36) {
      throw malformed("UUID", text, null);
    }
    for (int i = 0; i < 36; i++) {
      char c = text.charAt(i);
      boolean ok = (i == 8 || i == 13 || i == 18 || i == 23) ? c == '-' : Character.digit(c, 16) >= 0 && c < 0x80;
      if (!ok) {
        throw malformed("UUID", text, null);
      }
    }
    return UUID.fromString(text);
  }

  /** Parses an ISO-8601 date, {@code 2024-02-29} (years beyond 9999 signed: {@code +10000-01-01}). */
  public static LocalDate parseLocalDate(String text) {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeException e) {
      throw malformed("LocalDate", text, e);
    }
  }

  /** Parses an ISO-8601 time of day, {@code 10:15}, {@code 10:15:30} or {@code 10:15:30.000000001}. */
  public static LocalTime parseLocalTime(String text) {
    try {
      return LocalTime.parse(text);
    } catch (DateTimeException e) {
      throw malformed("LocalTime", text, e);
    }
  }

  /** Parses an ISO-8601 date and time without offset, {@code 2024-02-29T10:15:30}. */
  public static LocalDateTime parseLocalDateTime(String text) {
    try {
      return LocalDateTime.parse(text);
    } catch (DateTimeException e) {
      throw malformed("LocalDateTime", text, e);
    }
  }

  /** Parses an RFC 2396 URI reference, as {@link URI#URI(String)} does. */
  public static URI parseUri(String text) {
    try {
      return new URI(text);
    } catch (URISyntaxException e) {
      throw malformed("URI", text, e);
    }
  }

  /**
   * The error for text that does not parse. The parser's exception is not kept as the cause: its message
   * repeats the whole text, which a peer chooses (up to a frame's size); only its first 200 characters are.
   */
  private static ProtoDecodeException malformed(String type, String text, Exception cause) {
    String why = cause == null || cause.getMessage() == null ? "" : ": " + shorten(cause.getMessage(), 200);
    return new ProtoDecodeException("malformed " + type + " text \"" + shorten(text, 64) + "\"" + why);
  }

  private static String shorten(String s, int max) {
    return s.length() > max ? s.substring(0, max) + "…" : s;
  }

  /** The two fields {@code Timestamp} and {@code Duration} share, as read: 0 where absent. */
  private record SecondsNanos(long seconds, int nanos) {
    static SecondsNanos read(ProtoDecoder d) {
      long seconds = 0;
      int nanos = 0;
      for (int tag = d.readTag(); tag != 0; tag = d.readTag()) {
        switch (tag) {
          case SECONDS_TAG:
            seconds = d.readInt64();
            break;
          case NANOS_TAG:
            nanos = d.readInt32();
            break;
          default:
            d.skipField(tag);
            break;
        }
      }
      return new SecondsNanos(seconds, nanos);
    }
  }
}
