package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.EtcdProcess;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Watch replies a real etcd gives only by chance, played by a scripted gateway. */
class ScriptedEtcdTest {

  private static final String SERVICE = "scripted.Service";

  @Test
  void aWatchCancelledForCompactionReadsTheSetAgainWithoutAnError() {
    try (FakeEtcd etcd = new FakeEtcd()
        .range(SERVICE, 5, "127.0.0.1:1")
        .watch(FakeEtcd.CREATED,
            "{\"result\":{\"header\":{\"revision\":\"9\"},\"canceled\":true,\"compact_revision\":\"8\"}}")
        .range(SERVICE, 9, "127.0.0.1:1", "127.0.0.1:2");
        EtcdRegistry registry = EtcdRegistry.connect(etcd.endpoint())) {
      Recorder seen = new Recorder();
      NameResolver.Watch watch = registry.watch(SERVICE, seen);
      seen.awaitPorts(Duration.ofSeconds(2), 1, 2);
      assertThat(seen.errors).isEmpty();
      assertThat(etcd.requests("/v3/kv/range")).isEqualTo(2);
      watch.close();
    }
  }

  @Test
  void anErrorLineOrGarbageMidStreamIsReportedOnceAndTheWatchStartsOver() {
    try (FakeEtcd etcd = new FakeEtcd()
        .range(SERVICE, 5, "127.0.0.1:1")
        .watch(FakeEtcd.CREATED, "{\"error\":{\"grpc_code\":14,\"http_code\":503,\"message\":\"transport is closing\","
            + "\"http_status\":\"Service Unavailable\"}}")
        .range(SERVICE, 6, "127.0.0.1:2")
        .watch("{\"result\":{\"header\":{\"revision\":\"6\"},\"created\":true,\"events\":[", "garbage")
        .range(SERVICE, 7, "127.0.0.1:3");
        EtcdRegistry registry = EtcdRegistry.connect(etcd.endpoint())) {
      Recorder seen = new Recorder();
      NameResolver.Watch watch = registry.watch(SERVICE, seen);
      seen.awaitPorts(Duration.ofSeconds(5), 3);
      assertThat(seen.errors).hasSize(1);
      assertThat(seen.errors.get(0)).hasMessageContaining("transport is closing");
      watch.close();
    }
  }

  @Test
  void anEventBatchAppliesInOrderAndDeletesHaveAType() {
    String put = "{\"kv\":" + FakeEtcd.kv(SERVICE, "127.0.0.1:2") + "}";
    String delete = "{\"type\":\"DELETE\",\"kv\":{\"key\":\""
        + EtcdProcess.b64("/boltgen/services/" + SERVICE + "/127.0.0.1:1") + "\"}}";
    try (FakeEtcd etcd = new FakeEtcd()
        .range(SERVICE, 5, "127.0.0.1:1")
        .watch(FakeEtcd.CREATED, "{\"result\":{\"header\":{\"revision\":\"7\"},\"events\":[" + put + "," + delete
            + "]}}");
        EtcdRegistry registry = EtcdRegistry.connect(etcd.endpoint())) {
      Recorder seen = new Recorder();
      NameResolver.Watch watch = registry.watch(SERVICE, seen);
      seen.awaitPorts(Duration.ofSeconds(2), 2);
      // one set per batch: {1} from the range, then {2}; never {1, 2}
      assertThat(seen.updates).hasSize(2);
      watch.close();
    }
  }

  @Test
  void aPutThatAnsweredTooLateIsUndoneByTheKeepAliveThread() {
    try (FakeEtcd etcd = new FakeEtcd()
        .answer("/v3/lease/grant", "{\"ID\":\"7\",\"TTL\":\"2\"}", 0)
        .answer("/v3/lease/keepalive", "{\"result\":{\"ID\":\"7\",\"TTL\":\"2\"}}", 0)
        .answer("/v3/kv/put", "{}", 800)
        .answer("/v3/kv/txn", "{\"succeeded\":true}", 0);
        EtcdRegistry registry = EtcdRegistry.builder().endpoints(etcd.endpoint()).leaseTtl(Duration.ofSeconds(2))
            .requestTimeout(Duration.ofMillis(300)).build()) {
      assertThatThrownBy(() -> registry.register(SERVICE, ServiceInstance.of(new InetSocketAddress("127.0.0.1", 1))))
          .isInstanceOf(UncheckedIOException.class).hasMessageContaining("no answer in time");
      // etcd may have applied the put: the next keep-alive deletes the key if it is on this registry's lease
      await().atMost(Duration.ofSeconds(3)).until(() -> !etcd.bodies("/v3/kv/txn").isEmpty());
      assertThat(etcd.bodies("/v3/kv/txn").get(0))
          .contains("\"target\":\"LEASE\"", "\"lease\":\"7\"", "request_delete_range",
              EtcdProcess.b64("/boltgen/services/" + SERVICE + "/127.0.0.1:1"));
    }
  }

  @Test
  void aMemberAnsweringFiveHundredsIsLeftForTheNext() {
    try (FakeEtcd broken = new FakeEtcd().failingWith(503);
        FakeEtcd healthy = new FakeEtcd().range(SERVICE, 5, "127.0.0.1:1");
        EtcdRegistry registry = EtcdRegistry.builder().endpoints(broken.endpoint(), healthy.endpoint()).build()) {
      Recorder seen = new Recorder();
      NameResolver.Watch watch = registry.watch(SERVICE, seen);
      seen.awaitPorts(Duration.ofSeconds(2), 1);
      await().atMost(Duration.ofSeconds(2)).until(() -> healthy.requests("/v3/watch") == 1);
      assertThat(broken.requests("/v3/kv/range")).isEqualTo(1);
      assertThat(broken.requests("/v3/watch")).isZero();
      assertThat(seen.errors).isEmpty();
      watch.close();
    }
  }
}
