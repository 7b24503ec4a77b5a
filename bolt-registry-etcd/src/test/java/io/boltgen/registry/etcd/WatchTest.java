package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.EtcdProcess;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Watches: garbled values are skipped, quiet streams last, failing listeners do not stop them. */
class WatchTest {

  private static final String PREFIX = "/boltgen/services/";
  private static EtcdProcess etcd;
  private final List<AutoCloseable> opened = new CopyOnWriteArrayList<>();

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

  @AfterEach
  void closeOpened() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  private EtcdRegistry registry(Duration requestTimeout) {
    EtcdRegistry registry = EtcdRegistry.builder().endpoints(etcd.endpoint()).requestTimeout(requestTimeout).build();
    opened.add(registry);
    return registry;
  }

  private static ServiceInstance instance(int port) {
    return ServiceInstance.of(new InetSocketAddress("127.0.0.1", port));
  }

  @Test
  void garbledValuesAreSkippedAndTheWatchGoesOn() {
    String service = "watch.Garbled-" + System.nanoTime();
    String keys = PREFIX + service + "/";
    etcd.put(keys + "127.0.0.1:20001", "{\"address\":\"127.0.0.1:20001\",\"weight\":7}"); // as another tool writes it
    etcd.put(keys + "127.0.0.1:20002", "not json");
    etcd.put(keys + "127.0.0.1:20003", "{\"address\":\"127.0.0.1:29999\"}");
    etcd.put(keys + "127.0.0.1:20004", new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
    etcd.put(keys + "deeper/127.0.0.1:20005", "{\"address\":\"127.0.0.1:20005\"}");
    etcd.put(keys + "127.0.0.1:20006", "{\"address\":\"127.0.0.1:20006\",\"weight\":100000}");
    etcd.put(PREFIX + service + "x/127.0.0.1:20007", "{\"address\":\"127.0.0.1:20007\"}"); // another service

    EtcdRegistry clients = registry(Duration.ofSeconds(2));
    Recorder seen = new Recorder();
    opened.add(clients.watch(service, seen));
    seen.awaitPorts(Duration.ofSeconds(5), 20001);
    assertThat(seen.latest().get(0).weight()).isEqualTo(7);

    // garbage arriving through the watch: dropped, and a good value turned bad leaves the set
    etcd.put(keys + "127.0.0.1:20008", "{\"address\":");
    registry(Duration.ofSeconds(2)).register(service, instance(20009));
    seen.awaitPorts(Duration.ofSeconds(1), 20001, 20009);
    etcd.put(keys + "127.0.0.1:20001", "[]");
    seen.awaitPorts(Duration.ofSeconds(1), 20009);
    etcd.put(keys + "127.0.0.1:20001", "{\"address\":\"127.0.0.1:20001\"}");
    seen.awaitPorts(Duration.ofSeconds(1), 20001, 20009);
    assertThat(seen.errors).isEmpty();
  }

  @Test
  void aQuietWatchOutlivesTheRequestTimeout() {
    String service = "watch.Quiet-" + System.nanoTime();
    Recorder seen = new Recorder();
    opened.add(registry(Duration.ofMillis(200)).watch(service, seen));
    await().atMost(Duration.ofSeconds(5)).until(() -> !seen.updates.isEmpty());
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(seen.errors::isEmpty);
    registry(Duration.ofSeconds(2)).register(service, instance(20011));
    seen.awaitPorts(Duration.ofSeconds(1), 20011);
    assertThat(seen.errors).isEmpty();
  }

  @Test
  void aListenerThatThrowsKeepsHearingChanges() {
    String service = "watch.Throwing-" + System.nanoTime();
    AtomicInteger calls = new AtomicInteger();
    Recorder seen = new Recorder();
    opened.add(registry(Duration.ofSeconds(2)).watch(service, instances -> {
      calls.incrementAndGet();
      seen.onInstances(instances);
      throw new IllegalStateException("listener bug");
    }));
    await().atMost(Duration.ofSeconds(5)).until(() -> calls.get() == 1);
    EtcdRegistry servers = registry(Duration.ofSeconds(2));
    servers.register(service, instance(20021));
    seen.awaitPorts(Duration.ofSeconds(1), 20021);
    servers.register(service, instance(20022));
    seen.awaitPorts(Duration.ofSeconds(1), 20021, 20022);
  }

  @Test
  void manyWatchesOfOneRegistryHearInOrder() {
    EtcdRegistry clients = registry(Duration.ofSeconds(2));
    EtcdRegistry servers = registry(Duration.ofSeconds(2));
    String service = "watch.Many-" + System.nanoTime();
    List<Recorder> recorders = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 20; i++) {
      Recorder r = new Recorder();
      recorders.add(r);
      opened.add(clients.watch(service, r));
    }
    for (int port = 20031; port < 20041; port++) {
      servers.register(service, instance(port));
    }
    for (Recorder r : recorders) {
      r.awaitPorts(Duration.ofSeconds(2), 20031, 20032, 20033, 20034, 20035, 20036, 20037, 20038, 20039, 20040);
      // every set heard is a superset of the one before: changes arrive in order
      for (int i = 1; i < r.updates.size(); i++) {
        assertThat(r.updates.get(i)).containsAll(r.updates.get(i - 1));
      }
    }
  }

  @Test
  void closedWatchesAndRegistriesLeaveNoWatcherInEtcd() {
    long before = etcd.metric("etcd_debugging_mvcc_watcher_total");
    EtcdRegistry clients = EtcdRegistry.connect(etcd.endpoint());
    List<NameResolver.Watch> watches = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 10; i++) {
      watches.add(clients.watch("watch.Closed-" + i, instances -> { }));
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> etcd.metric("etcd_debugging_mvcc_watcher_total") == before + 10);
    for (int i = 0; i < 5; i++) {
      watches.get(i).close();
    }
    await().atMost(Duration.ofSeconds(2)).until(() -> etcd.metric("etcd_debugging_mvcc_watcher_total") == before + 5);
    clients.close();
    await().atMost(Duration.ofSeconds(2)).until(() -> etcd.metric("etcd_debugging_mvcc_watcher_total") == before);
  }

  @Test
  void aWatchRecoversAfterEtcdRestartsOnTheSamePortsAndData() {
    String service = "watch.Restarted-" + System.nanoTime();
    EtcdRegistry servers = registry(Duration.ofSeconds(2));
    servers.register(service, instance(20051));
    Recorder seen = new Recorder();
    NameResolver.Watch watch = registry(Duration.ofMillis(500)).watch(service, seen);
    opened.add(watch);
    seen.awaitPorts(Duration.ofSeconds(5), 20051);

    etcd.stop();
    await().atMost(Duration.ofSeconds(2)).until(() -> seen.errors.size() == 1);
    etcd.restart();
    etcd.awaitHealthy();

    // the lease outlived the outage (10 s TTL): the instance is still there; a new one is seen within the bound
    servers.register(service, instance(20052));
    seen.awaitPorts(Duration.ofSeconds(3), 20051, 20052);
    assertThat(seen.errors).as("one error for the whole outage").hasSize(1);
    servers.register(service, instance(20053));
    seen.awaitPorts(Duration.ofSeconds(1), 20051, 20052, 20053);
  }
}
