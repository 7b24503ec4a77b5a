package io.boltgen.runtime.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code host:port} by one set of rules, for a channel's target, a static list, a registry entry and its key:
 * what it accepts, what it refuses and says why, and that it reads back whatever it writes.
 */
class HostAndPortTest {

  /** Text that is not {@code host:port}, refused wherever an address is read. */
  static List<String> notHostAndPort() {
    return List.of("10.0.0.7", "10.0.0.7:", ":80", "10.0.0.7:x", "10.0.0.7:0", "10.0.0.7:65536", "10.0.0.7:+80",
        "10.0.0.7:-1", "10.0.0.7:000080", "10.0.0.7:99999999999", "10.0.0.7:８０", "::1:80", "::1", "[::1:80",
        "::1]:80", "[10.0.0.1]:80", "[not-v6]:80", "[g::1]:80", "[1::2::3]:80", "[]:80", "[::1 ]:80", "[::1]",
        "a b:80", "a/b:80", "tab\there:80", " h:80", "h:80 ", "h: 80", "h :80", "h\u00a0:80", "h\n:80",
        "999.1.1.1:80", "127.1:80", "1.2.3.4.:80", "...:80", "1.2.3.04444:80", "");
  }

  @ParameterizedTest
  @MethodSource("notHostAndPort")
  void refusesWhatIsNotHostAndPortQuotingIt(String text) {
    assertThatThrownBy(() -> HostAndPort.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(MessageText.quote(text) + " ");
  }

  @Test
  void saysWhatIsWrong() {
    assertThatThrownBy(() -> HostAndPort.parse("10.0.0.7")).hasMessage("\"10.0.0.7\" is not host:port");
    assertThatThrownBy(() -> HostAndPort.parse("h:65536")).hasMessage("\"h:65536\" has no port 1..65535");
    assertThatThrownBy(() -> HostAndPort.parse("::1:80"))
        .hasMessage("\"::1:80\" is not host:port (an IPv6 address is written [v6]:port)");
    assertThatThrownBy(() -> HostAndPort.parse("[v6]:80"))
        .hasMessage("\"[v6]:80\" has no IPv6 literal in its brackets");
    assertThatThrownBy(() -> HostAndPort.parse(" h:80"))
        .hasMessage("\" h:80\" has whitespace, a control character or '/' in its host");
    assertThatThrownBy(() -> HostAndPort.parse("127.1:80"))
        .hasMessage("\"127.1:80\" has a host of digits and dots that is no IPv4 address");
    assertThatThrownBy(() -> HostAndPort.parse("h".repeat(200)))
        .hasMessage("\"" + "h".repeat(80) + "…(200 characters)\" is not host:port");
    assertThatThrownBy(() -> HostAndPort.parse("tab\there:80")).hasMessageStartingWith("\"tab\\u0009here:80\"");
  }

  @Test
  void readsIpLiteralsWithoutALookupAndLeavesHostNamesUnresolved() throws Exception {
    assertThat(HostAndPort.parse("10.1.2.3:80"))
        .isEqualTo(new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 1, 2, 3}), 80));
    InetSocketAddress v6 = HostAndPort.parse("[::1]:8080");
    assertThat(v6.isUnresolved()).isFalse();
    assertThat(v6.getAddress().isLoopbackAddress()).isTrue();
    assertThat(HostAndPort.format(v6)).isEqualTo("[0:0:0:0:0:0:0:1]:8080");
    InetSocketAddress named = HostAndPort.parse("localhost:9000");
    assertThat(named.isUnresolved()).as("never looked up").isTrue();
    assertThat(named.getHostString()).isEqualTo("localhost");
    assertThat(HostAndPort.parse("h:00080").getPort()).as("five digits at most, leading zeros allowed").isEqualTo(80);
    assertThat(HostAndPort.parse("h:65535").getPort()).isEqualTo(65_535);
    assertThat(HostAndPort.parse("[fe80::1%1]:1").getAddress().getHostAddress()).startsWith("fe80:0:0:0:0:0:0:1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.7:12200", "[0:0:0:0:0:0:0:1]:1", "inventory-3.internal:65535", "h:1", "a_b:80",
      "xn--bcher-kva.example:443", "10.0.0.7.example:1", "1e100:5", "0.0.0.0:1", "255.255.255.255:2", "é.example:3"})
  void parsesWhatItWrites(String hostAndPort) {
    assertThat(HostAndPort.format(HostAndPort.parse(hostAndPort))).isEqualTo(hostAndPort);
  }

  @Test
  void writesWhatItParsesForRandomAddresses() throws Exception {
    Random random = new Random(20_260_611);
    for (int i = 0; i < 2_000; i++) {
      byte[] ip = new byte[random.nextBoolean() ? 4 : 16];
      random.nextBytes(ip);
      InetSocketAddress address = new InetSocketAddress(InetAddress.getByAddress(ip), 1 + random.nextInt(65_535));
      assertThat(HostAndPort.parse(HostAndPort.format(address))).isEqualTo(address);
    }
  }
}
