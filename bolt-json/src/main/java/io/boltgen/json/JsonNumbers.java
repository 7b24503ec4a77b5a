package io.boltgen.json;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The numbers of the proto3 JSON mapping read from their text (a JSON number's, or a string's), as
 * protobuf-java-util's {@code JsonFormat} reads them: an integer type takes {@link Integer#parseInt}'s forms or
 * any integral decimal in its range ({@code 1e2}, {@code "1.0"}); a floating-point type takes a decimal. A
 * failure is an {@link IllegalArgumentException} whose message says what was wrong; {@link JsonReader} adds the
 * field. And where a number's text ends in a document, for {@link JsonLexer}.
 */
final class JsonNumbers {

  /** {@code JsonFormat}'s tolerance on the range of {@code float} and {@code double}: printed values may round up. */
  private static final double TOLERANCE = 1e-6;
  private static final BigDecimal MAX_DOUBLE = new BigDecimal(String.valueOf(Double.MAX_VALUE))
      .multiply(new BigDecimal(String.valueOf(1.0 + TOLERANCE)));
  private static final double MAX_FLOAT = Float.MAX_VALUE * (1.0 + TOLERANCE);

  private JsonNumbers() {}

  /**
   * Scans the number at {@code pos} of a document (its first byte is {@code -} or a digit) by RFC 8259, bounded to
   * {@value StrictJson#MAX_NUMBER_LENGTH} characters and followed by a delimiter or the end: the offset after it,
   * bitwise complemented ({@code ~end}) when it has a fraction or an exponent.
   *
   * @throws JsonLexer.Malformed if it breaks the rules
   */
  static int scan(byte[] b, int pos, int limit) {
    int p = pos;
    boolean integer = true;
    if (b[p] == '-') {
      p++;
    }
    if (p < limit && b[p] == '0') {
      p++;
      if (p < limit && isDigit(b[p])) {
        throw new JsonLexer.Malformed(p - 1, "a number with a leading zero");
      }
    } else {
      p = digits(b, p, limit, "a digit after '-'");
    }
    if (p < limit && b[p] == '.') {
      integer = false;
      p = digits(b, p + 1, limit, "a digit after '.'");
    }
    if (p < limit && (b[p] == 'e' || b[p] == 'E')) {
      integer = false;
      p++;
      if (p < limit && (b[p] == '+' || b[p] == '-')) {
        p++;
      }
      p = digits(b, p, limit, "a digit in the exponent");
    }
    if (p - pos > StrictJson.MAX_NUMBER_LENGTH) {
      throw new JsonLexer.Malformed(pos, "number length (" + (p - pos) + ") exceeds the maximum allowed ("
          + StrictJson.MAX_NUMBER_LENGTH + ")");
    }
    if (p < limit && !JsonLexer.isDelimiter(b[p])) {
      throw JsonLexer.unexpectedAt(b, p, "a delimiter after a number");
    }
    return integer ? p : ~p;
  }

  /** Passes one or more digits from {@code p}; {@code what} was expected when there is none. */
  private static int digits(byte[] b, int p, int limit, String what) {
    if (p >= limit || !isDigit(b[p])) {
      throw p >= limit ? new JsonLexer.Malformed(p, "the text ends inside a number")
          : JsonLexer.unexpectedAt(b, p, what);
    }
    do {
      p++;
    } while (p < limit && isDigit(b[p]));
    return p;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  /** The integer {@code b[start..end)} spells as {@code -?[0-9]{1,18}}, else {@link JsonLexer#NOT_SIMPLE}. */
  static long simple(byte[] b, int start, int end) {
    int p = start;
    boolean negative = p < end && b[p] == '-';
    if (negative) {
      p++;
    }
    int digits = end - p;
    if (digits < 1 || digits > 18) {
      return JsonLexer.NOT_SIMPLE;
    }
    long value = 0;
    for (; p < end; p++) {
      int digit = b[p] - '0';
      if (digit < 0 || digit > 9) {
        return JsonLexer.NOT_SIMPLE;
      }
      value = value * 10 + digit;
    }
    return negative ? -value : value;
  }

  /** An {@code int32}; {@code quoted}: the text was a string (for the message). */
  static int int32(String text, boolean quoted) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      BigDecimal value = decimal(text, "an int32", quoted);
      try {
        return value.intValueExact();
      } catch (ArithmeticException notExact) {
        throw inexact(value, text, "int32", quoted);
      }
    }
  }

  /** An {@code int64}. */
  static long int64(String text, boolean quoted) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      BigDecimal value = decimal(text, "an int64", quoted);
      try {
        return value.longValueExact();
      } catch (ArithmeticException notExact) {
        throw inexact(value, text, "int64", quoted);
      }
    }
  }

  /** A {@code uint32}, as a long in 0..4294967295. */
  static long uint32(String text, boolean quoted) {
    return unsigned(text, quoted, 32, "uint32");
  }

  /**
   * A {@code uint64}, 0..18446744073709551615, its 64 bits in a long (as protobuf-java holds it: a value above
   * {@link Long#MAX_VALUE} is negative).
   */
  static long uint64(String text, boolean quoted) {
    return unsigned(text, quoted, 64, "uint64");
  }

  /** An unsigned integer of at most {@code bits} bits, the protobuf type {@code type}, as a long. */
  private static long unsigned(String text, boolean quoted, int bits, String type) {
    BigDecimal value;
    try {
      value = BigDecimal.valueOf(Long.parseLong(text));
    } catch (NumberFormatException e) {
      value = decimal(text, "a " + type, quoted);
    }
    // below 10^21 before the exact integer is built: 1e999999999 is a short text of a very long integer
    if (value.signum() < 0 || value.precision() - value.scale() > 21) {
      throw inexact(value, text, type, quoted);
    }
    BigInteger integer;
    try {
      integer = value.toBigIntegerExact();
    } catch (ArithmeticException notIntegral) {
      throw inexact(value, text, type, quoted);
    }
    if (integer.bitLength() > bits) {
      throw inexact(value, text, type, quoted);
    }
    return integer.longValue();
  }

  /**
   * A {@code float} or {@code double} ({@code type}) from a number's text, or a string's: {@code "NaN"},
   * {@code "Infinity"}, {@code "-Infinity"} or a decimal. {@code -0.0} keeps its sign.
   */
  static double floatingPoint(String text, boolean quoted, String type) {
    if (quoted) {
      switch (text) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          decimal(text, "a " + type, true); // a decimal number: Double.parseDouble alone also takes "1f", " 1", hex
      }
    }
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a " + type + ", got " + shown(text, quoted));
    }
    if (type.equals("float")) {
      if (Double.isFinite(value) && (value > MAX_FLOAT || value < -MAX_FLOAT)) {
        throw new IllegalArgumentException(shown(text, quoted) + " is out of range for float");
      }
      return value;
    }
    // past Double.MAX_VALUE by more than JsonFormat's tolerance is out of range; within it, infinite
    if (Double.isInfinite(value) && decimal(text, "a double", quoted).abs().compareTo(MAX_DOUBLE) > 0) {
      throw new IllegalArgumentException(shown(text, quoted) + " is out of range for double");
    }
    return value;
  }

  private static BigDecimal decimal(String text, String what, boolean quoted) {
    if (text.length() > StrictJson.MAX_NUMBER_LENGTH) {
      throw new IllegalArgumentException("a number of " + text.length() + " characters, longer than "
          + StrictJson.MAX_NUMBER_LENGTH);
    }
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected " + what + ", got " + shown(text, quoted));
    }
  }

  /** The error for a decimal that is not an integer of {@code type}: out of range, or not integral. */
  private static IllegalArgumentException inexact(BigDecimal value, String text, String type, boolean quoted) {
    boolean integral = value.signum() == 0 || value.scale() <= 0 || value.stripTrailingZeros().scale() <= 0;
    return new IllegalArgumentException(integral ? shown(text, quoted) + " is out of range for " + type
        : "expected " + (type.startsWith("i") ? "an " : "a ") + type + ", got " + shown(text, quoted));
  }

  /** {@code text} as it was, in quotes if {@code quoted}, shortened. */
  static String shown(String text, boolean quoted) {
    return quoted ? "\"" + shorten(text) + "\"" : shorten(text);
  }

  static String shorten(String text) {
    return text.length() > 64 ? text.substring(0, 64) + "…" : text;
  }
}
