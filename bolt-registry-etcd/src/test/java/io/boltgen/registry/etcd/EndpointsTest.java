package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The ways endpoints and prefixes are given, and what the builder accepts. */
class EndpointsTest {

  @Test
  void urlsAreNormalisedToSchemeHostPort() {
    assertThat(Endpoints.parse(List.of("http://127.0.0.1:2379", " https://etcd.example/ ", "10.0.0.2:23790",
        "http://[::1]:2379", "etcd-3")))
        .containsExactly(URI.create("http://127.0.0.1:2379"), URI.create("https://etcd.example:2379"),
            URI.create("http://10.0.0.2:23790"), URI.create("http://[::1]:2379"), URI.create("http://etcd-3:2379"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ftp://h:1", "http://h:1/v3", "http://h:1?x=1", "http://u@h:1", "http://", "http://h:1#f"})
  void otherUrlsAreRefused(String url) {
    assertThatThrownBy(() -> Endpoints.parse(List.of(url))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(url);
  }

  @Test
  void theEtcdUriListsMembersAndMaySayThePrefix() {
    assertThat(Endpoints.parseEtcdUri("etcd://127.0.0.1:2379")).isEqualTo(
        new Endpoints.Parsed(List.of("http://127.0.0.1:2379"), null));
    assertThat(Endpoints.parseEtcdUri("etcd://a:1,b:2,[::1]:3/")).isEqualTo(
        new Endpoints.Parsed(List.of("http://a:1", "http://b:2", "http://[::1]:3"), null));
    assertThat(Endpoints.parseEtcdUri("ETCD://a:1/prod/services/")).isEqualTo(
        new Endpoints.Parsed(List.of("http://a:1"), "/prod/services"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://a:1", "etcd:///svc", "etcd://", "etcd://,", "etcd://http://a:1", "etcd://a:1?x"})
  void otherUrisAreRefused(String uri) {
    assertThatThrownBy(() -> Endpoints.parseEtcdUri(uri)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void prefixesStartWithASlashAndLoseTrailingOnes() {
    assertThat(Endpoints.checkPrefix("/a/b//")).isEqualTo("/a/b");
    assertThatThrownBy(() -> Endpoints.checkPrefix("a/b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Endpoints.checkPrefix("/")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Endpoints.checkPrefix("/a\n")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBuilderChecksWhatItIsGiven() {
    assertThatThrownBy(() -> EtcdRegistry.builder().build()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("endpoint");
    assertThatThrownBy(() -> EtcdRegistry.builder().endpoints()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EtcdRegistry.builder().leaseTtl(Duration.ofMillis(999)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EtcdRegistry.builder().requestTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EtcdRegistry.connect(" , ")).isInstanceOf(IllegalArgumentException.class);
    try (EtcdRegistry registry = EtcdRegistry.fromUri("etcd://127.0.0.1:1,127.0.0.1:2/x")) {
      assertThat(registry.scheme()).isEqualTo("etcd");
      assertThat(registry).hasToString("EtcdRegistry[http://127.0.0.1:1, http://127.0.0.1:2]/x");
    }
  }
}
