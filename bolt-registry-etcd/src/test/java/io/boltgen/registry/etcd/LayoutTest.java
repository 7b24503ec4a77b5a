package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.json.InstanceRecord;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keys exactly as docs/registry-etcd.md describes them, and what this module checks around the values'
 * shared codec (InstanceRecordJsonTest in bolt-runtime covers the codec itself): the size bound and the key.
 */
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
  void aValueIsReadWithTheSharedCodecAndItsKey() {
    ServiceInstance instance = ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200)).withWeight(250)
        .withZone("zone-b").withMetadata(Map.of("rack", "r7"));
    assertThat(Layout.read("10.0.0.7:12200", InstanceRecord.write(instance))).isEqualTo(instance);
    assertThatThrownBy(() -> Layout.read("10.0.0.7:1", utf8("{\"address\":\"10.0.0.7:1\",\"weight\":-1}")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weight");
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.8:1", "10.0.0.7:2", "h.example:1", "10.0.0.7", "", "[::1]:1"})
  void aValueUnderAnotherAddresssKeyIsRefused(String segment) {
    assertThatThrownBy(() -> Layout.read(segment, utf8("{\"address\":\"10.0.0.7:1\"}")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not the key's last segment");
  }

  @Test
  void theKeyAndTheValueMayBothSpellAnIpv6AddressShortOrLong() {
    ServiceInstance read = Layout.read("[::1]:9", utf8("{\"address\":\"[::1]:9\"}"));
    assertThat(read.address().getAddress().isLoopbackAddress()).isTrue();
    assertThat(read.address().getPort()).isEqualTo(9);
    assertThat(Layout.read("[0:0:0:0:0:0:0:1]:9", utf8("{\"address\":\"[::1]:9\"}"))).isEqualTo(read);
  }

  @Test
  void aValueOver64KibIsRefusedUnread() {
    byte[] huge = utf8("{\"address\":\"a:1\",\"zone\":\"" + "z".repeat(Layout.MAX_VALUE_BYTES) + "\"}");
    assertThatThrownBy(() -> Layout.read("a:1", huge)).hasMessageContaining("bytes");
    byte[] justFits = utf8("{\"address\":\"a:1\",\"zone\":\"" + "z".repeat(Layout.MAX_VALUE_BYTES - 27) + "\"}");
    assertThat(justFits).hasSize(Layout.MAX_VALUE_BYTES);
    assertThat(Layout.read("a:1", justFits).zone()).hasSize(Layout.MAX_VALUE_BYTES - 27);
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
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"a\\u000ab:1\""); // quoted, the newline escaped
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
