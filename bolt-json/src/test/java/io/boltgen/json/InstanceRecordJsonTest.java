package io.boltgen.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stored form of an instance, exactly as {@link InstanceRecord}'s javadoc and docs/cluster.md describe it:
 * the bytes written, the round trip, the address forms, and everything the strict reader refuses.
 */
class InstanceRecordJsonTest {

  private static String text(ServiceInstance instance) {
    return new String(InstanceRecord.write(instance), StandardCharsets.UTF_8);
  }

  private static ServiceInstance read(String json) {
    return InstanceRecord.read(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void writesTheFieldsInTheirOrderWithMetadataSorted() {
    ServiceInstance instance = ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200))
        .withWeight(250).withVersion("1.4.2").withZone("zone-b").withMetadata(Map.of("tls", "false", "rack", "r7"));
    assertThat(text(instance)).isEqualTo("{\"address\":\"10.0.0.7:12200\",\"weight\":250,\"version\":\"1.4.2\","
        + "\"zone\":\"zone-b\",\"metadata\":{\"rack\":\"r7\",\"tls\":\"false\"}}");
    assertThat(text(ServiceInstance.of(InetSocketAddress.createUnresolved("inventory-3.internal", 1))))
        .isEqualTo("{\"address\":\"inventory-3.internal:1\",\"weight\":100,\"version\":\"\",\"zone\":\"\","
            + "\"metadata\":{}}");
  }

  @Test
  void escapesWhatJsonRequiresAndReadsItBack() {
    String nasty = "quote\" back\\ nl\n cr\r tab\t bs\b ff\f nul\u0000 del\u007f ls\u2028 é 😀 lone\ud800 end";
    String nastyKey = nasty.replace("\ud800", ""); // a key is Unicode text: JSON readers refuse a lone half in a name
    ServiceInstance instance = ServiceInstance.of(new InetSocketAddress("127.0.0.1", 1)).withWeight(0)
        .withVersion(nasty).withZone("é").withMetadata(Map.of(nastyKey, nasty, "a=b,c\nd", "\"{}[]:,", "", ""));
    String json = text(instance);
    assertThat(json).doesNotContainPattern("[\\x00-\\x1f\\x7f\\u2028]")
        .contains("\\\"", "\\\\", "\\n", "\\r", "\\t", "\\b", "\\f", "\\u0000", "\\u007f", "\\u2028", "\\ud800")
        .contains("é", "😀");
    ServiceInstance back = InstanceRecord.read(InstanceRecord.write(instance));
    assertThat(back).isEqualTo(instance);
    assertThat(back.address().isUnresolved()).isFalse();
    assertThat(InstanceRecord.write(back)).isEqualTo(InstanceRecord.write(instance));
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
    assertThat(named.isUnresolved()).as("host names are resolved when connecting").isTrue();
    assertThat(named.getHostString()).isEqualTo("inventory.example");
    assertThat(named.getPort()).isEqualTo(9000);
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.7:12200", "[0:0:0:0:0:0:0:1]:1", "inventory-3.internal:65535", "h:1", "a_b:80"})
  void readsTheAddressesItWrites(String hostAndPort) {
    assertThat(read("{\"address\":\"" + hostAndPort + "\"}").hostAndPort()).isEqualTo(hostAndPort);
  }

  @Test
  void absentOrNullFieldsTakeTheDefaultsAndUnknownFieldsAreIgnored() {
    ServiceInstance instance = read(" {\"address\" : \"127.0.0.1:5\", \"version\":null, \"zone\":null,"
        + " \"weight\":null, \"metadata\":null, \"future\":{\"nested\":[1,2.5e3,true,false,null,\"x\"]}}\n");
    assertThat(instance).isEqualTo(ServiceInstance.of(new InetSocketAddress("127.0.0.1", 5)));
    assertThat(read("{\"address\":\"h.example:1\",\"future\":[1]}"))
        .isEqualTo(ServiceInstance.of(InetSocketAddress.createUnresolved("h.example", 1)));
  }

  @Test
  void nestingIsReadUpToSixteenLevels() {
    String deepest = "{\"address\":\"127.0.0.1:1\",\"x\":" + "[".repeat(15) + "]".repeat(15) + "}";
    assertThat(read(deepest).address().getPort()).isEqualTo(1);
    String deeper = "{\"address\":\"127.0.0.1:1\",\"x\":" + "[".repeat(16) + "]".repeat(16) + "}";
    assertThatThrownBy(() -> read(deeper)).hasMessageStartingWith("malformed JSON at offset ")
        .hasMessageContaining("nesting depth (17) exceeds the maximum allowed (16)");
    String hostile = "{\"address\":\"127.0.0.1:1\",\"x\":" + "[".repeat(100_000);
    assertThatThrownBy(() -> read(hostile)).hasMessageContaining("nesting depth (17) exceeds the maximum allowed (16)");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "",
      "not json",
      "[]",
      "\"address\"",
      "{}",
      "\ufeff{\"address\":\"127.0.0.1:1\"}",
      "{\"address\":\"127.0.0.1:1\",}",
      "{\"address\":\"127.0.0.1:1\"} x",
      "{\"address\":\"127.0.0.1:1\"}{}",
      "/* c */ {\"address\":\"127.0.0.1:1\"}",
      "{'address':'127.0.0.1:1'}",
      "{\"address\":\"127.0.0.1:1\",\"address\":\"127.0.0.1:2\"}",
      "{\"address\":null}",
      "{\"address\":127}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":-1}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":10001}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":1.5}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":1e2}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":\"100\"}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":0100}",
      "{\"address\":\"127.0.0.1:1\",\"weight\":99999999999999999999}",
      "{\"address\":\"127.0.0.1:1\",\"version\":1}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":3}",
      "{\"address\":\"127.0.0.1:1\",\"metadata\":[]}",
      "{\"address\":\"127.0.0.1:1\",\"metadata\":{\"k\":1}}",
      "{\"address\":\"127.0.0.1:1\",\"metadata\":{\"k\":null}}",
      "{\"address\":\"127.0.0.1:1\",\"metadata\":{\"k\":\"v\",\"k\":\"w\"}}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"tab\there\"}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"\\x41\"}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"\\u00g1\"}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"\\u０１２３\"}",
      "{\"address\":\"127.0.0.1:1\",\"zone\":\"unterminated}",
      "{\"address\":\"127.0.0.1:1\",\"x\":tru}",
      "{\"address\":\"127.0.0.1:1\",\"x\":-}",
      "{\"address\":\"127.0.0.1:1\",\"x\":1.}",
      "{\"address\":\"127.0.0.1:1\",\"x\":[1,]}",
      "{\"address\":\"127.0.0.1:1\" \"weight\":1}",
  })
  void refusesWhatIsNotStrictlyAnInstance(String json) {
    // every refusal says where the JSON breaks the rules, or which field is wrong
    assertThatThrownBy(() -> read(json)).isInstanceOf(IllegalArgumentException.class).hasMessageMatching("(?s)"
        + "malformed JSON at offset \\d+: .+|not a JSON object|no \"address\""
        + "|\"(address|weight|version|zone|metadata)\".+");
  }

  @ParameterizedTest
  @MethodSource("io.boltgen.runtime.support.HostAndPortTest#notHostAndPort")
  void refusesAddressesThatAreNotHostAndPortNamingTheField(String address) {
    assertThatThrownBy(() -> read("{\"address\":" + quoted(address) + "}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("\"address\": ");
  }

  @Test
  void saysWhatIsWrong() {
    assertThatThrownBy(() -> read("{\"address\":\"10.0.0.7\"}"))
        .hasMessage("\"address\": \"10.0.0.7\" is not host:port");
    assertThatThrownBy(() -> read("{\"zone\":\"a\"}")).hasMessage("no \"address\"");
    assertThatThrownBy(() -> read("{\"address\":\"a:1\",\"weight\":1.5}"))
        .hasMessage("\"weight\" must be an integer 0..10000");
    assertThatThrownBy(() -> read("{\"address\":\"a:1\",\"metadata\":{\"k\":2}}"))
        .hasMessage("\"metadata\" value of \"k\" must be a string");
    assertThatThrownBy(() -> read("{\"address\":\"a:1\",}"))
        .hasMessageStartingWith("malformed JSON at offset 17: ").hasMessageContaining("'}'");
  }

  @Test
  void refusesMalformedUtf8() {
    byte[] data = "{\"address\":\"127.0.0.1:1\",\"zone\":\"xx\"}".getBytes(StandardCharsets.UTF_8);
    data[data.length - 4] = (byte) 0xC3; // a lead byte followed by an ASCII byte
    assertThatThrownBy(() -> InstanceRecord.read(data)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not UTF-8");
  }

  @Test
  void refusesMoreMetadataThanAnInstanceMayCarry() {
    StringBuilder json = new StringBuilder("{\"address\":\"127.0.0.1:1\",\"metadata\":{");
    for (int i = 0; i <= ServiceInstance.MAX_METADATA; i++) {
      json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
    }
    assertThatThrownBy(() -> read(json.append("}}").toString())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("\"metadata\" has 65 entries, more than 64");
  }

  private static String quoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t").replace("\n", "\\n") + "\"";
  }
}
