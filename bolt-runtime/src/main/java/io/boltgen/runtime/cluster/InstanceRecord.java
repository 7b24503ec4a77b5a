package io.boltgen.runtime.cluster;

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
 * The stored form of a {@link ServiceInstance} in a registry: the value every registry keeps for an instance
 * of a service ({@code bolt-registry-etcd} as the value of key {@code <prefix>/<service>/<host:port>},
 * {@code bolt-registry-zookeeper} as the data of node {@code <root>/<service>/<host:port>}). Other tools read
 * and write it too, so this is the format, exactly. It is one UTF-8 JSON object (RFC 8259):
 *
 * <pre>{@code
 * {"address":"10.0.0.7:12200","weight":100,"version":"1.4.2","zone":"zone-a","metadata":{"rack":"r7"}}
 * }</pre>
 *
 * <table>
 * <caption>The fields</caption>
 * <tr><th>field</th><th>type</th><th>absent or {@code null}</th><th>rule</th></tr>
 * <tr><td>{@code address}</td><td>string</td><td>refused</td><td>{@code host:port}, see {@link #parseAddress}</td></tr>
 * <tr><td>{@code weight}</td><td>integer</td><td>{@value ServiceInstance#DEFAULT_WEIGHT}</td>
 *     <td>0..{@value ServiceInstance#MAX_WEIGHT}, without fraction or exponent</td></tr>
 * <tr><td>{@code version}</td><td>string</td><td>{@code ""}</td><td>free text</td></tr>
 * <tr><td>{@code zone}</td><td>string</td><td>{@code ""}</td><td>free text</td></tr>
 * <tr><td>{@code metadata}</td><td>object of strings</td><td>none</td>
 *     <td>at most {@value ServiceInstance#MAX_METADATA} entries; a value is a string, never {@code null}</td></tr>
 * </table>
 *
 * <p><b>Written</b> ({@link #write}) with all five fields in that order, no whitespace, the address as
 * {@link ServiceInstance#hostAndPort()} and the metadata keys sorted ({@link String#compareTo}). Strings
 * escape {@code "} and {@code \}, use {@code \b \f \n \r \t}, and <code>&#92;u00XX</code> for the other control
 * characters, DEL, U+2028, U+2029 and unpaired surrogates; every other character is written as itself, in
 * UTF-8. So any Java string survives the round trip, and one instance is always written as the same bytes.
 *
 * <p><b>Read</b> ({@link #read}) strictly: valid UTF-8; exactly one JSON object, whitespace around it
 * allowed (no byte order mark); no comments, trailing commas, single quotes or duplicate keys; nesting at most
 * 16 deep. Fields not listed above are ignored, whatever their value, so that a later writer may add some.
 * A registry bounds the size of what it reads before calling {@link #read}.
 *
 * <p>Stateless and thread-safe; depends on the JDK only, and never looks a name up.
 */
public final class InstanceRecord {

  private static final int MAX_QUOTED = 80;

  private InstanceRecord() {}

  /** {@code instance} in the stored form: never fails, always the same bytes for equal instances. */
  public static byte[] write(ServiceInstance instance) {
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
    // every unpaired surrogate was escaped, so encoding loses nothing
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
   * The instance that {@code data} in the stored form describes.
   *
   * @throws IllegalArgumentException saying what is wrong (and naming the field), if {@code data} is not
   *     exactly that form
   */
  public static ServiceInstance read(byte[] data) {
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
    if (!(JsonReader.read(text) instanceof Map<?, ?> fields)) {
      throw new IllegalArgumentException("not a JSON object");
    }
    Object a = present(fields, "address");
    if (a == null) {
      throw new IllegalArgumentException("no \"address\"");
    }
    if (!(a instanceof String address)) {
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
      if (entries.size() > ServiceInstance.MAX_METADATA) {
        throw new IllegalArgumentException("\"metadata\" has " + entries.size() + " entries, more than "
            + ServiceInstance.MAX_METADATA);
      }
      for (Map.Entry<?, ?> e : entries.entrySet()) {
        if (!(e.getValue() instanceof String v)) {
          throw new IllegalArgumentException("\"metadata\" value of " + quote((String) e.getKey())
              + " must be a string");
        }
        metadata.put((String) e.getKey(), v);
      }
    }
    InetSocketAddress socketAddress;
    try {
      socketAddress = parseAddress(address);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("\"address\": " + e.getMessage());
    }
    return new ServiceInstance(
        socketAddress, weight, optionalString(fields, "version"), optionalString(fields, "zone"), metadata);
  }

  /** The value of field {@code name}, or null if it is absent or JSON {@code null}. */
  private static Object present(Map<?, ?> fields, String name) {
    Object value = fields.get(name);
    return value == JsonReader.Token.NULL ? null : value;
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
   * {@code host:port} as an address, the inverse of {@link ServiceInstance#hostAndPort()}, never looked up.
   * The port is 1..65535 in at most five decimal digits. The host is one of:
   *
   * <ul>
   *   <li>{@code [v6]}: an IPv6 literal in brackets, optionally with a {@code %zone}; a resolved address;
   *   <li>four decimal numbers 0..255 joined by dots, an IPv4 literal: a resolved address (any other host of
   *       only digits and dots is refused, rather than left to a resolver's reading);
   *   <li>anything else, a host name without whitespace, control characters, {@code /}, {@code :},
   *       {@code [} or {@code ]}: an unresolved address, resolved when a connection is made.
   * </ul>
   *
   * @throws IllegalArgumentException quoting {@code hostAndPort} and saying what is wrong with it
   */
  public static InetSocketAddress parseAddress(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostAndPort.length() - 1) {
      throw bad(hostAndPort, "is not host:port");
    }
    String host = hostAndPort.substring(0, colon);
    String digits = hostAndPort.substring(colon + 1);
    if (digits.length() > 5 || !digits.chars().allMatch(InstanceRecord::isAsciiDigit)
        || Integer.parseInt(digits) < 1 || Integer.parseInt(digits) > 65_535) {
      throw bad(hostAndPort, "has no port 1..65535");
    }
    int port = Integer.parseInt(digits);
    if (host.startsWith("[") && host.endsWith("]")) {
      String literal = host.substring(1, host.length() - 1);
      if (literal.indexOf(':') < 0 || !literal.chars().allMatch(ch -> ch < 0x80
          && (Character.isLetterOrDigit(ch) || ch == ':' || ch == '.' || ch == '%' || ch == '_' || ch == '-'))) {
        throw bad(hostAndPort, "has no IPv6 literal in its brackets");
      }
      try {
        // in brackets, InetAddress takes the text for an IPv6 literal or refuses it: it never looks it up
        return new InetSocketAddress(InetAddress.getByName(host), port);
      } catch (UnknownHostException e) {
        throw bad(hostAndPort, "has no IPv6 literal in its brackets");
      }
    }
    if (host.indexOf(':') >= 0 || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
      throw bad(hostAndPort, "is not host:port (an IPv6 address is written [v6]:port)");
    }
    if (host.chars().anyMatch(ch -> ch <= ' ' || (ch >= 0x7f && ch <= 0x9f) || ch == '/')) {
      throw bad(hostAndPort, "has whitespace, a control character or '/' in its host");
    }
    if (host.chars().allMatch(ch -> ch == '.' || isAsciiDigit(ch))) {
      byte[] ipv4 = ipv4(host);
      if (ipv4 == null) {
        throw bad(hostAndPort, "has a host of digits and dots that is no IPv4 address");
      }
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
      if (p.isEmpty() || p.length() > 3 || Integer.parseInt(p) > 255) {
        return null;
      }
      bytes[i] = (byte) Integer.parseInt(p);
    }
    return bytes;
  }

  private static boolean isAsciiDigit(int ch) {
    return ch >= '0' && ch <= '9';
  }

  private static IllegalArgumentException bad(String hostAndPort, String what) {
    return new IllegalArgumentException(quote(hostAndPort) + " " + what);
  }

  /** {@code s} in quotes for a message: control characters escaped, long text cut. */
  private static String quote(String s) {
    StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_QUOTED) + 8).append('"');
    for (int i = 0; i < s.length() && i < MAX_QUOTED; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    if (s.length() > MAX_QUOTED) {
      out.append("…(").append(s.length()).append(" characters)");
    }
    return out.append('"').toString();
  }
}
