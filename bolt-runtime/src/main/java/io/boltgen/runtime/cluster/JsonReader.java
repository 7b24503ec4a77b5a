package io.boltgen.runtime.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A strict RFC 8259 reader, just enough for {@link InstanceRecord}: one value with whitespace around it, no
 * comments, no trailing commas, no single quotes, no duplicate keys, nesting at most {@value #MAX_DEPTH} deep.
 * Objects are read as maps (in their order), strings as strings, {@code true}/{@code false} as Booleans and
 * integers of up to 18 digits as Longs; arrays, other numbers and {@code null} as {@link Token}s, since the
 * format needs none of them. One instance reads one text.
 */
final class JsonReader {

  /** Nesting deeper than this (objects and arrays) is refused; the format itself needs two levels. */
  static final int MAX_DEPTH = 16;

  /** The JSON values the format never needs, kept only as markers. */
  enum Token {
    NULL,
    ARRAY,
    OTHER_NUMBER
  }

  private final String s;
  private int pos;
  private int depth;

  private JsonReader(String s) {
    this.s = s;
  }

  /**
   * The one JSON value that {@code text} is.
   *
   * @throws IllegalArgumentException saying what is wrong and at which offset, if it is not strict JSON
   */
  static Object read(String text) {
    JsonReader reader = new JsonReader(text);
    Object value = reader.value();
    reader.whitespace();
    if (reader.pos != text.length()) {
      throw reader.fail("unexpected text after the JSON value");
    }
    return value;
  }

  private Object value() {
    whitespace();
    if (pos >= s.length()) {
      throw fail("unexpected end");
    }
    char c = s.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", Token.NULL);
      default -> {
        if (c == '-' || isDigit(c)) {
          yield number();
        }
        throw fail("unexpected character");
      }
    };
  }

  private Map<String, Object> object() {
    enter();
    pos++; // {
    Map<String, Object> fields = new LinkedHashMap<>();
    whitespace();
    if (peek() == '}') {
      pos++;
      depth--;
      return fields;
    }
    while (true) {
      whitespace();
      if (peek() != '"') {
        throw fail("expected a string key");
      }
      String key = string();
      whitespace();
      if (peek() != ':') {
        throw fail("expected ':'");
      }
      pos++;
      Object value = value();
      if (fields.putIfAbsent(key, value) != null) {
        throw fail("duplicate key \"" + key + "\"");
      }
      if (endOf('}', "expected ',' or '}'")) {
        return fields;
      }
    }
  }

  private Token array() {
    enter();
    pos++; // [
    whitespace();
    if (peek() == ']') {
      pos++;
      depth--;
      return Token.ARRAY;
    }
    while (true) {
      value();
      if (endOf(']', "expected ',' or ']'")) {
        return Token.ARRAY;
      }
    }
  }

  /** After a member: true past {@code close} (leaving the level), false past a ',', else fails. */
  private boolean endOf(char close, String expected) {
    whitespace();
    char c = peek();
    if (c == close) {
      pos++;
      depth--;
      return true;
    }
    if (c != ',') {
      throw fail(expected);
    }
    pos++;
    return false;
  }

  private String string() {
    pos++; // "
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= s.length()) {
        throw fail("unterminated string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw fail("unescaped control character in a string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (pos >= s.length()) {
        throw fail("unterminated string");
      }
      char e = s.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> out.append(hex4());
        default -> throw fail("bad escape");
      }
    }
  }

  private char hex4() {
    int code = 0;
    for (int i = 0; i < 4; i++) {
      int digit = pos < s.length() ? hexDigit(s.charAt(pos)) : -1;
      if (digit < 0) {
        throw fail("bad \\u escape");
      }
      code = code * 16 + digit;
      pos++;
    }
    return (char) code;
  }

  private Object number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (peek() >= '1' && peek() <= '9') {
      digits();
    } else {
      throw fail("bad number");
    }
    boolean integer = true;
    if (peek() == '.') {
      pos++;
      requireDigit();
      digits();
      integer = false;
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      requireDigit();
      digits();
      integer = false;
    }
    String text = s.substring(start, pos);
    return integer && text.length() <= 18 ? (Object) Long.parseLong(text) : Token.OTHER_NUMBER;
  }

  private void requireDigit() {
    if (!isDigit(peek())) {
      throw fail("bad number");
    }
  }

  private void digits() {
    while (isDigit(peek())) {
      pos++;
    }
  }

  private Object literal(String word, Object value) {
    if (!s.startsWith(word, pos)) {
      throw fail("unexpected character");
    }
    pos += word.length();
    return value;
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw fail("nested deeper than " + MAX_DEPTH);
    }
  }

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private void whitespace() {
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private IllegalArgumentException fail(String what) {
    return new IllegalArgumentException("malformed JSON at offset " + pos + ": " + what);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static int hexDigit(char c) {
    if (isDigit(c)) {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
