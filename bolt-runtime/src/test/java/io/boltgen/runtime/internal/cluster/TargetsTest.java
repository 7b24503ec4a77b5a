package io.boltgen.runtime.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A channel's target: {@code host:port} by HostAndPort's rules (HostAndPortTest has them all), its host name
 * looked up when the channel is made; {@code scheme:///service}; and a {@code static:///} list, the one place
 * where spaces may stand, around its commas.
 */
class TargetsTest {

  @Test
  void oneAddressLooksItsHostNameUpAndTakesLiteralsAsTheyAre() {
    InetSocketAddress named = Targets.address("localhost:12200");
    assertThat(named.isUnresolved()).isFalse();
    assertThat(named.getAddress().isLoopbackAddress()).isTrue();
    assertThat(Targets.address("[::1]:1").getAddress().isLoopbackAddress()).isTrue();
    assertThat(Targets.address("127.0.0.1:65535")).isEqualTo(new InetSocketAddress("127.0.0.1", 65_535));
  }

  @Test
  void oneAddressFollowsTheOneRuleSet() {
    for (String refused : List.of("127.0.0.1", "127.0.0.1:0", "::1:80", "127.1:80", " 127.0.0.1:80", "h:80 ")) {
      assertThatThrownBy(() -> Targets.address(refused)).as(refused).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("\"" + refused + "\" ");
    }
  }

  @Test
  void clusterTargetsNameASchemeAndAService() {
    assertThat(Targets.isCluster("etcd:///demo.Inventory:1.0")).isTrue();
    assertThat(Targets.isCluster("10.0.0.7:12200")).isFalse();
    assertThat(Targets.cluster("etcd:///demo.Inventory:1.0"))
        .isEqualTo(new Targets.Cluster("etcd", "demo.Inventory:1.0"));
    assertThatThrownBy(() -> Targets.cluster("mem://host/x")).hasMessageContaining("three slashes");
    assertThatThrownBy(() -> Targets.cluster("b@d:///x")).hasMessageContaining("bad scheme");
  }

  @Test
  void aStaticListTakesSpacesAroundItsCommasOnly() {
    List<ServiceInstance> heard = new ArrayList<>();
    new StaticResolver().watch("127.0.0.1:1, [::1]:2 ,127.0.0.1:3", heard::addAll);
    assertThat(heard).extracting(ServiceInstance::hostAndPort)
        .containsExactly("127.0.0.1:1", "[0:0:0:0:0:0:0:1]:2", "127.0.0.1:3");
    assertThatThrownBy(() -> new StaticResolver().watch("127.0.0.1:1,,127.0.0.1:2", null))
        .hasMessageContaining("empty address");
    assertThatThrownBy(() -> new StaticResolver().watch("127.0.0.1: 1", null))
        .hasMessageContaining("\"127.0.0.1: 1\" has no port");
  }
}
