package io.boltgen.registry.etcd;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of etcd's gateway: its replies are read here (the instance values are read and written by
 * {@link io.boltgen.runtime.cluster.InstanceRecord}). Reading is strict (RFC 8259: one value, no trailing
 * commas, no comments, no duplicate names, nesting at most {@value #MAX_DEPTH} deep) and yields
 * {@code Map<String, Object>} (insertion order), {@code List<Object>}, {@code String}, {@code Long} (integers
 * that fit), {@code Double} (other numbers), {@code Boolean} and {@code null}. {@link #quote} writes a string
 * as a JSON literal, escaped so that any Java string round-trips, for messages.
 */
final class Json {

  /** The deepest nesting read; the gateway's replies are at most about 6 deep. */
  static final int MAX_DEPTH = 64;

  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /** Reads one JSON value spanning all of {@code text} (whitespace around it allowed). */
  static Object parse(String text) {
    Json reader = new Json(text);
    reader.skipWhitespace();
    Object value = reader.readValue(0);
    reader.skipWhitespace();
    if (reader.pos != text.length()) {
      throw reader.error("unexpected text after the value");
    }
    return value;
  }

  /** Reads a JSON object spanning all of {@code text}. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> parseObject(String text) {
    Object value = parse(text);
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("expected a JSON object, got " + typeName(value));
    }
    return (Map<String, Object>) value;
  }

  private Object readValue(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nested deeper than " + MAX_DEPTH);
    }
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return readObject(depth);
      case '[':
        return readArray(depth);
      case '"':
        return readString();
      case 't':
        expectWord("true");
        return Boolean.TRUE;
      case 'f':
        expectWord("false");
        return Boolean.FALSE;
      case 'n':
        expectWord("null");
        return null;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return readNumber();
        }
        throw error("unexpected character '" + printable(c) + "'");
    }
  }

  private Map<String, Object> readObject(int depth) {
    pos++; // {
    Map<String, Object> object = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return object;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String name = readString();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      Object value = readValue(depth + 1);
      if (object.containsKey(name)) {
        throw error("duplicate member \"" + name + "\"");
      }
      object.put(name, value);
      skipWhitespace();
      char c = next();
      if (c == '}') {
        return object;
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or '}'");
      }
    }
  }

  private List<Object> readArray(int depth) {
    pos++; // [
    List<Object> array = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return array;
    }
    while (true) {
      skipWhitespace();
      array.add(readValue(depth + 1));
      skipWhitespace();
      char c = next();
      if (c == ']') {
        return array;
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or ']'");
      }
    }
  }

  private String readString() {
    pos++; // "
    StringBuilder out = null;
    int start = pos;
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        String value = out == null ? text.substring(start, pos) : out.append(text, start, pos).toString();
        pos++;
        return value;
      }
      if (c < 0x20) {
        throw error("control character in a string");
      }
      if (c != '\\') {
        pos++;
        continue;
      }
      if (out == null) {
        out = new StringBuilder();
      }
      out.append(text, start, pos);
      pos++;
      char e = next();
      switch (e) {
        case '"': out.append('"'); break;
        case '\\': out.append('\\'); break;
        case '/': out.append('/'); break;
        case 'b': out.append('\b'); break;
        case 'f': out.append('\f'); break;
        case 'n': out.append('\n'); break;
        case 'r': out.append('\r'); break;
        case 't': out.append('\t'); break;
        case 'u': out.append(readHex4()); break;
        default:
          pos--;
          throw error("bad escape '\\" + printable(e) + "'");
      }
      start = pos;
    }
  }

  private char readHex4() {
    if (pos + 4 > text.length()) {
      throw error("short \\u escape");
    }
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(text.charAt(pos + i), 16);
      if (digit < 0) {
        throw error("bad \\u escape");
      }
      value = value * 16 + digit;
    }
    pos += 4;
    return (char) value;
  }

  private Object readNumber() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (isDigit(peek())) {
      skipDigits();
    } else {
      throw error("bad number");
    }
    boolean integral = true;
    if (peek() == '.') {
      integral = false;
      pos++;
      requireDigit();
      skipDigits();
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      requireDigit();
      skipDigits();
    }
    String number = text.substring(start, pos);
    if (integral && number.length() <= 19) {
      try {
        return Long.parseLong(number);
      } catch (NumberFormatException tooBig) {
        // falls through to a double
      }
    }
    return Double.parseDouble(number);
  }

  private void requireDigit() {
    if (!isDigit(peek())) {
      throw error("bad number");
    }
  }

  private void skipDigits() {
    while (isDigit(peek())) {
      pos++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private void expectWord(String word) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected word");
    }
    pos += word.length();
  }

  private void expect(char c) {
    if (next() != c) {
      pos--;
      throw error("expected '" + c + "'");
    }
  }

  /** The current character, or 0 at the end. */
  private char peek() {
    return pos < text.length() ? text.charAt(pos) : 0;
  }

  private char next() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    return text.charAt(pos++);
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
  }

  private static String printable(char c) {
    return c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c);
  }

  static String typeName(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map) {
      return "object";
    }
    if (value instanceof List) {
      return "array";
    }
    if (value instanceof String) {
      return "string";
    }
    if (value instanceof Boolean) {
      return "boolean";
    }
    return "number";
  }

  // ---- writing

  /** {@code value} as a JSON string literal, quotes included. */
  static String quote(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2);
    appendQuoted(out, value);
    return out.toString();
  }

  /** Appends {@code value} as a JSON string literal: quotes, backslashes and control characters escaped. */
  private static void appendQuoted(StringBuilder out, String value) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
          // control characters, and the two line separators JavaScript once refused in strings
          if (c < 0x20 || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c) && !pairedAt(value, i)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }

  /** Whether the surrogate at {@code i} is half of a well-formed pair (lone halves are written escaped). */
  private static boolean pairedAt(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  // ---- reading helpers for the gateway's replies

  /** The object member {@code name} of {@code object}, or an empty map when absent. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Map<String, Object> object, String name) {
    Object value = object.get(name);
    if (value == null) {
      return Collections.emptyMap();
    }
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("\"" + name + "\" is a " + typeName(value) + ", not an object");
    }
    return (Map<String, Object>) value;
  }

  /** The array member {@code name} of {@code object}, or an empty list when absent. */
  @SuppressWarnings("unchecked")
  static List<Object> array(Map<String, Object> object, String name) {
    Object value = object.get(name);
    if (value == null) {
      return Collections.emptyList();
    }
    if (!(value instanceof List)) {
      throw new IllegalArgumentException("\"" + name + "\" is a " + typeName(value) + ", not an array");
    }
    return (List<Object>) value;
  }

  /** The string member {@code name}, or {@code fallback} when absent. */
  static String string(Map<String, Object> object, String name, String fallback) {
    Object value = object.get(name);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof String)) {
      throw new IllegalArgumentException("\"" + name + "\" is a " + typeName(value) + ", not a string");
    }
    return (String) value;
  }

  /**
   * The int64 member {@code name}, which the gateway writes as a string (or a number), or 0 when absent
   * (proto3 leaves zero values out).
   */
  static long int64(Map<String, Object> object, String name) {
    Object value = object.get(name);
    if (value == null) {
      return 0;
    }
    if (value instanceof Long) {
      return (Long) value;
    }
    if (value instanceof String) {
      try {
        return Long.parseLong((String) value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("\"" + name + "\" is not an int64: " + value);
      }
    }
    throw new IllegalArgumentException("\"" + name + "\" is a " + typeName(value) + ", not an int64");
  }

  /** The boolean member {@code name}, false when absent. */
  static boolean bool(Map<String, Object> object, String name) {
    Object value = object.get(name);
    if (value == null) {
      return false;
    }
    if (!(value instanceof Boolean)) {
      throw new IllegalArgumentException("\"" + name + "\" is a " + typeName(value) + ", not a boolean");
    }
    return (Boolean) value;
  }
}
