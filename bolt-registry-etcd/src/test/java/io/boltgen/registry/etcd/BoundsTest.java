package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.testing.EtcdProcess;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The documented bounds on what a watch reads: 10,000 instances per service, 16 MiB per reply. */
class BoundsTest {

  private static EtcdProcess etcd;

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdProcess.start();
  }

  @AfterAll
  static void stopEtcd() {
    if (etcd != null) {
      etcd.close();
    }
  }

  @Test
  void aWatchReadsAtMostTenThousandInstances() {
    String keys = "/boltgen/services/bounds.Many/";
    int total = EtcdWatch.MAX_INSTANCES + 1;
    for (int first = 1; first <= total; first += 128) { // etcd allows 128 operations per transaction
      StringBuilder txn = new StringBuilder("{\"success\":[");
      for (int port = first; port < Math.min(first + 128, total + 1); port++) {
        String address = "127.0.0.1:" + port;
        txn.append(port == first ? "" : ",").append("{\"request_put\":{\"key\":\"")
            .append(EtcdProcess.b64(keys + address)).append("\",\"value\":\"")
            .append(EtcdProcess.b64("{\"address\":\"" + address + "\"}")).append("\"}}");
      }
      assertThat(etcd.post("/v3/kv/txn", txn.append("]}").toString()).statusCode()).isEqualTo(200);
    }
    try (EtcdRegistry registry = EtcdRegistry.connect(etcd.endpoint())) {
      Recorder seen = new Recorder();
      NameResolver.Watch watch = registry.watch("bounds.Many", seen);
      await().atMost(Duration.ofSeconds(10)).until(() -> !seen.updates.isEmpty());
      assertThat(seen.latest()).hasSize(EtcdWatch.MAX_INSTANCES);
      assertThat(seen.errors).isEmpty();
      watch.close();
    }
  }

  @Test
  void aRangeReplyOverSixteenMebibytesIsRefusedAndReported() {
    String keys = "/boltgen/services/bounds.Huge/";
    byte[] value = new byte[1_000_000]; // etcd takes requests up to 1.5 MiB
    Arrays.fill(value, (byte) 'x');
    for (int i = 0; i < 13; i++) { // 13 MB, 17.3 MB in base64
      etcd.put(keys + "127.0.0.1:" + (30000 + i), value);
    }
    try (EtcdRegistry registry = EtcdRegistry.connect(etcd.endpoint())) {
      Recorder seen = new Recorder();
      NameResolver.Watch watch = registry.watch("bounds.Huge", seen);
      await().atMost(Duration.ofSeconds(10)).until(() -> !seen.errors.isEmpty());
      assertThat(seen.errors.get(0)).hasMessageContaining("larger than " + EtcdHttp.MAX_REPLY_BYTES + " bytes");
      assertThat(seen.updates).isEmpty();
      watch.close();
    }
  }
}
