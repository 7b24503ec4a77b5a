package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Keys and values exactly as docs/registry-etcd.md describes them, both ways. */
class LayoutTest {

  private final Layout layout = new Layout("/boltgen/services");

  @Test
  void keysArePrefixServiceAddress() {
    ServiceInstance v4 = ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200));
    assertThat(layout.key("demo.Inventory:1.0", v4)).isEqualTo("/boltgen/services/demo.Inventory:1.0/10.0.0.7:12200");
    ServiceInstance v6 = ServiceInstance.of(new InetSocketAddress("::1", 12200));
    assertThat(layout.key("s", v6)).isEqualTo("/boltgen/services/s/[0:0:0:0:0:0:0:1]:12200");
    ServiceInstance named = ServiceInstance.of(InetSocketAddress.createUnresolved("inventory-3.internal", 12200));
    assertThat(layout.key("s", named)).isEqualTo("/boltgen/services/s/inventory-3.internal:12200");
  }

  @Test
  void theValueIsTheDocumentedJson() {
    ServiceInstance instance = ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200)).withWeight(250)
        .withVersion("1.4.2").withZone("zone-b").withMetadata(Map.of("tls", "false", "rack", "r7"));
    assertThat(Layout.value(instance)).isEqualTo("{\"address\":\"10.0.0.7:12200\",\"weight\":250,"
        + "\"version\":\"1.4.2\",\"zone\":\"zone-b\",\"metadata\":{\"rack\":\"r7\",\"tls\":\"false\"}}");
  }

  @Test
  void aValueReadsBackAsTheSameInstance() {
    ServiceInstance instance = ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200)).withWeight(0)
        .withVersion("v\"2\"").withZone("é").withMetadata(Map.of("quote\"s", "a=b,c\nd", "", ""));
    ServiceInstance read = Layout.parseValue("10.0.0.7:12200", utf8(Layout.value(instance)));
    assertThat(read).isEqualTo(instance);
    assertThat(read.address().isUnresolved()).isFalse();
  }

  @Test
  void missingOptionalFieldsTakeTheirDefaultsAndUnknownOnesAreIgnored() {
    ServiceInstance read = Layout.parseValue("h.example:1", utf8("{\"address\":\"h.example:1\",\"future\":[1]}"));
    assertThat(read.weight()).isEqualTo(ServiceInstance.DEFAULT_WEIGHT);
    assertThat(read.version()).isEmpty();
    assertThat(read.zone()).isEmpty();
    assertThat(read.metadata()).isEmpty();
    assertThat(read.address().isUnresolved()).as("host names are resolved when connecting").isTrue();
    assertThat(read.address().getHostString()).isEqualTo("h.example");
  }

  @Test
  void ipv6AddressesAreBracketed() {
    ServiceInstance read = Layout.parseValue("[::1]:9", utf8("{\"address\":\"[::1]:9\"}"));
    assertThat(read.address().getAddress().isLoopbackAddress()).isTrue();
    assertThat(read.address().getPort()).isEqualTo(9);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "not json", "[]", "{}", "{\"address\":7}", "{\"address\":\"10.0.0.8:1\"}", "{\"address\":\"10.0.0.7:1\",\"weight\":-1}",
      "{\"address\":\"10.0.0.7:1\",\"weight\":10001}", "{\"address\":\"10.0.0.7:1\",\"weight\":1.5}",
      "{\"address\":\"10.0.0.7:1\",\"weight\":\"100\"}", "{\"address\":\"10.0.0.7:1\",\"zone\":3}",
      "{\"address\":\"10.0.0.7:1\",\"metadata\":[]}", "{\"address\":\"10.0.0.7:1\",\"metadata\":{\"a\":1}}"})
  void garbledValuesAreRefusedWithAReason(String value) {
    assertThatThrownBy(() -> Layout.parseValue("10.0.0.7:1", utf8(value))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("null");
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.7", "10.0.0.7:", ":80", "10.0.0.7:x", "10.0.0.7:0", "10.0.0.7:65536", "::1:80",
      "[::1:80", "[10.0.0.1]:80", "999.1.1.1:80"})
  void badAddressesAreRefused(String address) {
    assertThatThrownBy(() -> Layout.parseAddress(address)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(address);
  }

  @Test
  void tooManyMetadataEntriesOrTooBigAValueIsRefused() {
    StringBuilder many = new StringBuilder("{\"address\":\"a:1\",\"metadata\":{");
    for (int i = 0; i <= ServiceInstance.MAX_METADATA; i++) {
      many.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
    }
    assertThatThrownBy(() -> Layout.parseValue("a:1", utf8(many + "}}"))).hasMessageContaining("metadata");
    byte[] huge = utf8("{\"address\":\"a:1\",\"zone\":\"" + "z".repeat(Layout.MAX_VALUE_BYTES) + "\"}");
    assertThatThrownBy(() -> Layout.parseValue("a:1", huge)).hasMessageContaining("bytes");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a/b", "/", "tab\there", "nl\n", "del\u007f", "c1\u0085"})
  void unstorableServiceNamesAreRefusedByName(String name) {
    assertThatThrownBy(() -> Layout.checkService(name)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("service name");
    if (name.equals("a/b")) {
      assertThatThrownBy(() -> Layout.checkService(name)).hasMessageContaining("a/b");
    }
  }

  @Test
  void anAddressThatCannotBeAKeySegmentIsRefused() {
    Layout.checkAddress(ServiceInstance.of(InetSocketAddress.createUnresolved("inventory-3.internal", 1)));
    assertThatThrownBy(() -> Layout.checkAddress(ServiceInstance.of(InetSocketAddress.createUnresolved("a/b", 1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a/b:1");
    assertThatThrownBy(() -> Layout.checkAddress(ServiceInstance.of(InetSocketAddress.createUnresolved("a\nb", 1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a\\nb:1");
  }

  @Test
  void serviceNamesUpTo512CharactersPass() {
    assertThat(Layout.checkService("x".repeat(512))).hasSize(512);
    assertThat(Layout.checkService("demo.Inventory:1.0 é")).isNotNull();
    assertThatThrownBy(() -> Layout.checkService("x".repeat(513))).hasMessageContaining("512");
  }

  @Test
  void aPrefixRangeEndsAfterItsLastByte() {
    assertThat(new String(Base64.getDecoder().decode(Layout.prefixEnd("/boltgen/services/s/")), StandardCharsets.UTF_8))
        .isEqualTo("/boltgen/services/s0");
    assertThat(Base64.getDecoder().decode(Layout.prefixEnd("a\u00ff"))).containsExactly('a', 0xc3, 0xc0);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
