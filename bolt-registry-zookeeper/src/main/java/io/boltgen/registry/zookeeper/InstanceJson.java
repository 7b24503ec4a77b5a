package io.boltgen.registry.zookeeper;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The data of an instance's node: UTF-8 JSON
 * {@code {"address":"host:port","weight":100,"version":"…","zone":"…","metadata":{"k":"v"}}}.
 *
 * <p>Written with the fields in that order and metadata keys sorted. Read strictly (RFC 8259: no comments,
 * no trailing commas, no duplicate keys, nothing after the object, valid UTF-8); {@code address} is required,
 * the other fields default to the values of {@link ServiceInstance#of} when absent or {@code null}, and
 * unknown fields are ignored so that a later writer may add some. Stateless.
 */
final class InstanceJson {

  /** Nesting deeper than this (objects and arrays) is refused; the format itself needs two levels. */
  static final int MAX_DEPTH = 16;

  private InstanceJson() {}

  /** The node data of {@code instance}. */
  static byte[] write(ServiceInstance instance) {
    StringBuilder out = new StringBuilder(96 + 32 * instance.metadata().size());
    out.append("{\"address\":");
    string(out, instance.hostAndPort());
    out.append(",\"weight\":").append(instance.weight());
    out.append(",\"version\":");
    string(out, instance.version());
    out.append(",\"zone\":");
    string(out, instance.zone());
    out.append(",\"metadata\":{");
    boolean first = true;
    for (Map.Entry<String, String> e : new TreeMap<>(instance.metadata()).entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      string(out, e.getKey());
      out.append(':');
      string(out, e.getValue());
    }
    out.append("}}");
    // every lone surrogate was escaped, so the encoding is lossless
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          boolean pairedHigh = Character.isHighSurrogate(c) && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1));
          if (pairedHigh) {
            out.append(c).append(s.charAt(++i));
          } else if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * The instance {@code data} describes.
   *
   * @throws IllegalArgumentException saying what is wrong, if it is not such JSON
   */
  static ServiceInstance read(byte[] data) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(data))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("not UTF-8");
    }
    Object value = new Parser(text).document();
    if (!(value instanceof Map<?, ?> fields)) {
      throw new IllegalArgumentException("not a JSON object");
    }
    Object address = fields.get("address");
    if (!(address instanceof String a)) {
      throw new IllegalArgumentException("\"address\" must be a string");
    }
    int weight = ServiceInstance.DEFAULT_WEIGHT;
    Object w = present(fields, "weight");
    if (w != null) {
      if (!(w instanceof Long n) || n < 0 || n > ServiceInstance.MAX_WEIGHT) {
        throw new IllegalArgumentException("\"weight\" must be an integer 0.." + ServiceInstance.MAX_WEIGHT);
      }
      weight = n.intValue();
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    Object m = present(fields, "metadata");
    if (m != null) {
      if (!(m instanceof Map<?, ?> entries)) {
        throw new IllegalArgumentException("\"metadata\" must be an object");
      }
      for (Map.Entry<?, ?> e : entries.entrySet()) {
        if (!(e.getValue() instanceof String v)) {
          throw new IllegalArgumentException("metadata values must be strings");
        }
        metadata.put((String) e.getKey(), v);
      }
    }
    return new ServiceInstance(
        address(a), weight, optionalString(fields, "version"), optionalString(fields, "zone"), metadata);
  }

  /** The value of field {@code name}, or null if it is absent or JSON {@code null}. */
  private static Object present(Map<?, ?> fields, String name) {
    Object value = fields.get(name);
    return value == Token.NULL ? null : value;
  }

  private static String optionalString(Map<?, ?> fields, String name) {
    Object value = present(fields, name);
    if (value == null) {
      return "";
    }
    if (!(value instanceof String s)) {
      throw new IllegalArgumentException("\"" + name + "\" must be a string");
    }
    return s;
  }

  /**
   * {@code host:port} or {@code [v6]:port} as an address: resolved (never looked up) for an IP literal,
   * unresolved for a name.
   */
  static InetSocketAddress address(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostAndPort.length() - 1) {
      throw new IllegalArgumentException("\"address\" must be host:port");
    }
    String host = hostAndPort.substring(0, colon);
    String digits = hostAndPort.substring(colon + 1);
    if (digits.length() > 5 || !digits.chars().allMatch(InstanceJson::isAsciiDigit)
        || Integer.parseInt(digits) > 65_535) {
      throw new IllegalArgumentException("bad port in \"address\"");
    }
    int port = Integer.parseInt(digits);
    if (host.startsWith("[") && host.endsWith("]")) {
      String literal = host.substring(1, host.length() - 1);
      // InetAddress treats text with a ':' as an IPv6 literal: it never looks it up
      if (literal.indexOf(':') < 0 || !literal.chars().allMatch(ch -> ch < 0x80
          && (Character.isLetterOrDigit(ch) || ch == ':' || ch == '.' || ch == '%' || ch == '_' || ch == '-'))) {
        throw new IllegalArgumentException("bad IPv6 literal in \"address\"");
      }
      try {
        return new InetSocketAddress(InetAddress.getByName(literal), port);
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("bad IPv6 literal in \"address\"");
      }
    }
    if (host.indexOf(':') >= 0 || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
      throw new IllegalArgumentException("an IPv6 address must be written [v6]:port");
    }
    if (host.chars().anyMatch(ch -> ch <= ' ' || ch == 0x7f || ch == '/')) {
      throw new IllegalArgumentException("bad host in \"address\"");
    }
    byte[] ipv4 = ipv4(host);
    if (ipv4 != null) {
      try {
        return new InetSocketAddress(InetAddress.getByAddress(ipv4), port);
      } catch (UnknownHostException e) {
        throw new AssertionError(e); // four bytes are always an address
      }
    }
    return InetSocketAddress.createUnresolved(host, port);
  }

  /** The four bytes of a dotted-quad literal, or null if {@code host} is not one. */
  private static byte[] ipv4(String host) {
    String[] parts = host.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] bytes = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(InstanceJson::isAsciiDigit)) {
        return null;
      }
      int octet = Integer.parseInt(p);
      if (octet > 255) {
        return null;
      }
      bytes[i] = (byte) octet;
    }
    return bytes;
  }

  private static boolean isAsciiDigit(int ch) {
    return ch >= '0' && ch <= '9';
  }

  private static int hexDigit(char ch) {
    if (ch >= '0' && ch <= '9') {
      return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
      return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
      return ch - 'A' + 10;
    }
    return -1;
  }

  /**
   * A strict RFC 8259 parser: objects as maps, strings as strings, integers up to 18 digits as Long; arrays,
   * other numbers and null as {@link Token}s, since the format needs none of them.
   */
  private static final class Parser {
    private final String s;
    private int pos;
    private int depth;

    Parser(String s) {
      this.s = s;
    }

    Object document() {
      Object value = value();
      whitespace();
      if (pos != s.length()) {
        throw fail("unexpected text after the JSON value");
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
          if (c == '-' || (c >= '0' && c <= '9')) {
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
        expect(':');
        Object value = value();
        if (fields.putIfAbsent(key, value) != null) {
          throw fail("duplicate key \"" + key + "\"");
        }
        whitespace();
        char c = peek();
        pos++;
        if (c == '}') {
          depth--;
          return fields;
        }
        if (c != ',') {
          pos--;
          throw fail("expected ',' or '}'");
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
        whitespace();
        char c = peek();
        pos++;
        if (c == ']') {
          depth--;
          return Token.ARRAY;
        }
        if (c != ',') {
          pos--;
          throw fail("expected ',' or ']'");
        }
      }
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
          case 'u' -> {
            int code = 0;
            for (int i = 0; i < 4; i++) {
              int digit = pos < s.length() ? hexDigit(s.charAt(pos)) : -1;
              if (digit < 0) {
                throw fail("bad \\u escape");
              }
              code = code * 16 + digit;
              pos++;
            }
            out.append((char) code);
          }
          default -> throw fail("bad escape");
        }
      }
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
        if (!(peek() >= '0' && peek() <= '9')) {
          throw fail("bad number");
        }
        digits();
        integer = false;
      }
      if (peek() == 'e' || peek() == 'E') {
        pos++;
        if (peek() == '+' || peek() == '-') {
          pos++;
        }
        if (!(peek() >= '0' && peek() <= '9')) {
          throw fail("bad number");
        }
        digits();
        integer = false;
      }
      String text = s.substring(start, pos);
      if (integer && text.length() <= 18) {
        return Long.parseLong(text);
      }
      return Token.OTHER_NUMBER;
    }

    private void digits() {
      while (peek() >= '0' && peek() <= '9') {
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

    private void expect(char c) {
      if (peek() != c) {
        throw fail("expected '" + c + "'");
      }
      pos++;
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
  }

  /** JSON values this format never needs: kept only as markers. */
  private enum Token {
    NULL,
    ARRAY,
    OTHER_NUMBER
  }
}
