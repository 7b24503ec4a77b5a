package io.boltgen.registry.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InstanceJsonTest {

  private static String text(ServiceInstance instance) {
    return new String(InstanceJson.write(instance), StandardCharsets.UTF_8);
  }

  private static ServiceInstance read(String json) {
    return InstanceJson.read(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void writesTheFieldsInTheirOrderWithMetadataSorted() {
    ServiceInstance instance = ServiceInstance.of(new InetSocketAddress("127.0.0.1", 20001))
        .withWeight(250).withVersion("1.4.2").withZone("zone-b").withMetadata(Map.of("tls", "false", "rack", "r7"));
    assertThat(text(instance)).isEqualTo("{\"address\":\"127.0.0.1:20001\",\"weight\":250,\"version\":\"1.4.2\","
        + "\"zone\":\"zone-b\",\"metadata\":{\"rack\":\"r7\",\"tls\":\"false\"}}");
  }

  @Test
  void escapesWhatJsonRequiresAndReadsItBack() {
    String nasty = "quote\" back\\ nl\n cr\r tab\t bs\b ff\f nul\u0000 del\u007f ls\u2028 é 😀 lone\ud800 end";
    ServiceInstance instance = ServiceInstance.of(new InetSocketAddress("127.0.0.1", 1))
        .withVersion(nasty).withMetadata(Map.of(nasty, nasty, "a=b,c\nd", "\"{}[]:,"));
    String json = text(instance);
    assertThat(json).doesNotContainPattern("[\\x00-\\x1f\\x7f\\u2028]")
        .contains("\\\"", "\\\\", "\\n", "\\r", "\\t", "\\b", "\\f", "\\u0000", "\\u007f", "\\u2028", "\\ud800")
        .contains("é", "😀");
    assertThat(InstanceJson.read(InstanceJson.write(instance))).isEqualTo(instance);
  }

  @Test
  void readsIpLiteralsWithoutALookupAndNamesUnresolved() throws Exception {
    assertThat(read("{\"address\":\"10.1.2.3:80\"}").address())
        .isEqualTo(new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 1, 2, 3}), 80));
    InetSocketAddress v6 = read("{\"address\":\"[::1]:8080\"}").address();
    assertThat(v6.isUnresolved()).isFalse();
    assertThat(v6.getAddress().isLoopbackAddress()).isTrue();
    assertThat(ServiceInstance.of(v6).hostAndPort()).isEqualTo("[0:0:0:0:0:0:0:1]:8080");
    InetSocketAddress named = read("{\"address\":\"inventory.example:9000\"}").address();
    assertThat(named.isUnresolved()).isTrue();
    assertThat(named.getHostString()).isEqualTo("inventory.example");
    assertThat(named.getPort()).isEqualTo(9000);
    // 999.1.1.1 is no literal: a name, left unresolved rather than looked up
    assertThat(read("{\"address\":\"999.1.1.1:80\"}").address().isUnresolved()).isTrue();
  }

  @Test
  void absentOrNullFieldsTakeTheDefaultsAndUnknownFieldsAreIgnored() {
    ServiceInstance instance = read(" {\"address\" : \"127.0.0.1:5\", \"version\":null, \"zone\":null,"
        + " \"weight\":null, \"metadata\":null, \"future\":{\"nested\":[1,2.5e3,true,false,null,\"x\"]}}\n");
    assertThat(instance).isEqualTo(ServiceInstance.of(new InetSocketAddress("127.0.0.1", 5)));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "",
      "not json",
      "[]",
      "\"address\"",
      "{}",
      "{\"address\":\"127.0.0.1:1\",}",
      "{\"address\":\"127.0.0.1:1\"} x",
      "{\"address\":\"127.0.0.1:1\"}{}",
      "/* c */ {\"address\":\"127.0.0.1:1\"}",
      "{'address':'127.0.0.1:1'}",
      "{\"address\":\"127.0.0.1:1\",\"address\":\"127.0.0.1:2\"}",
      "{\"address\":127}",
      "{\"address\":\"127.0.0.1\"}",
      "{\"address\":\"127.0.0.1:\"}",
      "{\"address\":\":80\"}",
      "{\"address\":\"127.0.0.1:65536\"}",
      "{\"address\":\"127.0.0.1:+80\"}",
      "{\"address\":\"::1:80\"}",
      "{\"address\":\"[not-v6]:80\"}",
      "{\"address\":\"a b:80\"}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":-1}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":10001}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":1.5}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":1e2}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":\"100\"}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":0100}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":99999999999999999999}",
      "{\"address\":\"127.0.0.1:1\",\"version\":1}",
      "{\"address\":\"127.0.0.1:1\",\"metadata\":[]}",
      "{\"address\":\"127.0.0.1:1\",\"metadata\":{\"k\":1}}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"tab\there\"}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"\\x41\"}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"\\u00g1\"}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"\\u０１２３\"}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"unterminated}",
      "{\"address\":\"127.0.0.1:1\",\"x\":tru}",
      "{\"address\":\"127.0.0.1:1\",\"x\":-}",
      "{\"address\":\"127.0.0.1:1\",\"x\":1.}",
      "{\"address\":\"127.0.0.1:1\",\"x\":[1,]}",
      "{\"address\":\"127.0.0.1:1\",\"x\":[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}",
      "{\"address\":\"127.0.0.1:1\" \"weight\":1}",
  })
  void refusesWhatIsNotStrictlyAnInstance(String json) {
    assertThatThrownBy(() -> read(json)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesMalformedUtf8() {
    byte[] data = "{\"address\":\"127.0.0.1:1\",\"zone\":\"xx\"}".getBytes(StandardCharsets.UTF_8);
    data[data.length - 4] = (byte) 0xC3; // a lead byte followed by an ASCII byte
    assertThatThrownBy(() -> InstanceJson.read(data)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not UTF-8");
  }

  @Test
  void refusesMoreMetadataThanAnInstanceMayCarry() {
    StringBuilder json = new StringBuilder("{\"address\":\"127.0.0.1:1\",\"metadata\":{");
    for (int i = 0; i <= ServiceInstance.MAX_METADATA; i++) {
      json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
    }
    assertThatThrownBy(() -> read(json.append("}}").toString())).isInstanceOf(IllegalArgumentException.class);
  }
}
