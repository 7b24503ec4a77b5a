package io.boltgen.runtime.support;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * {@code host:port}, the one way boltgen writes and reads an address: a channel's target, each address of a
 * {@code static:///} list, a registry entry's {@code address} and key. Parsing never looks a name up; whoever
 * needs a resolved address resolves the host name it returns.
 *
 * <p>The rules ({@link #parse}):
 *
 * <ul>
 *   <li>the port follows the last {@code ':'}: one to five ASCII digits, 1..65535; without it (no
 *       {@code ':'}, nothing after it, or nothing before it) the text is refused;
 *   <li>a host in brackets is an IPv6 literal, optionally with a {@code %zone}; an IPv6 literal without
 *       brackets is refused, as are brackets around anything else;
 *   <li>a host of only digits and dots must be four numbers 0..255 (an IPv4 literal), never a shorter form
 *       such as {@code 127.1};
 *   <li>any other host is a host name, refused if it has whitespace (anywhere, leading and trailing
 *       included), a control character, {@code /}, {@code [} or {@code ]}.
 * </ul>
 */
@Internal
public final class HostAndPort {

  private HostAndPort() {}

  /**
   * {@code address} as {@code host:port}, the inverse of {@link #parse}: the host as given (an IP literal in
   * Java's full form), in brackets when it is an IPv6 literal.
   */
  public static String format(InetSocketAddress address) {
    String host = address.getHostString();
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
  }

  /**
   * The address {@code hostAndPort} names, by the rules above: an IP literal as a resolved address, a host name
   * as an unresolved one. Nothing is looked up.
   *
   * @throws IllegalArgumentException quoting {@code hostAndPort} and saying what is wrong with it
   */
  public static InetSocketAddress parse(String hostAndPort) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon <= 0 || colon == hostAndPort.length() - 1) {
      throw bad(hostAndPort, "is not host:port");
    }
    String host = hostAndPort.substring(0, colon);
    int port = port(hostAndPort.substring(colon + 1));
    if (port < 0) {
      throw bad(hostAndPort, "has no port 1..65535");
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      return new InetSocketAddress(ipv6(hostAndPort, host), port);
    }
    if (host.indexOf(':') >= 0 || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
      throw bad(hostAndPort, "is not host:port (an IPv6 address is written [v6]:port)");
    }
    if (host.chars().anyMatch(ch -> Character.isWhitespace(ch) || Character.isSpaceChar(ch)
        || Character.isISOControl(ch) || ch == '/')) {
      throw bad(hostAndPort, "has whitespace, a control character or '/' in its host");
    }
    if (host.chars().allMatch(ch -> ch == '.' || isAsciiDigit(ch))) {
      return new InetSocketAddress(ipv4(hostAndPort, host), port);
    }
    return InetSocketAddress.createUnresolved(host, port);
  }

  /** The port that {@code digits} is, or -1 if it is not one to five ASCII digits making 1..65535. */
  private static int port(String digits) {
    if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(HostAndPort::isAsciiDigit)) {
      return -1;
    }
    int port = Integer.parseInt(digits);
    return port >= 1 && port <= 65_535 ? port : -1;
  }

  private static InetAddress ipv6(String hostAndPort, String bracketed) {
    String literal = bracketed.substring(1, bracketed.length() - 1);
    if (literal.indexOf(':') < 0 || !literal.chars().allMatch(ch -> ch < 0x80
        && (Character.isLetterOrDigit(ch) || ch == ':' || ch == '.' || ch == '%' || ch == '_' || ch == '-'))) {
      throw bad(hostAndPort, "has no IPv6 literal in its brackets");
    }
    try {
      // in brackets, InetAddress takes the text for an IPv6 literal or refuses it: it never looks it up
      return InetAddress.getByName(bracketed);
    } catch (UnknownHostException e) {
      throw bad(hostAndPort, "has no IPv6 literal in its brackets");
    }
  }

  /** The IPv4 address of a dotted quad; anything else of digits and dots is refused. */
  private static InetAddress ipv4(String hostAndPort, String host) {
    String[] parts = host.split("\\.", -1);
    if (parts.length != 4
        || Arrays.stream(parts).anyMatch(p -> p.isEmpty() || p.length() > 3 || Integer.parseInt(p) > 255)) {
      throw bad(hostAndPort, "has a host of digits and dots that is no IPv4 address");
    }
    byte[] bytes = new byte[4];
    for (int i = 0; i < 4; i++) {
      bytes[i] = (byte) Integer.parseInt(parts[i]);
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new AssertionError(e); // four bytes are always an address
    }
  }

  private static boolean isAsciiDigit(int ch) {
    return ch >= '0' && ch <= '9';
  }

  private static IllegalArgumentException bad(String hostAndPort, String what) {
    return new IllegalArgumentException(MessageText.quote(hostAndPort) + " " + what);
  }
}
