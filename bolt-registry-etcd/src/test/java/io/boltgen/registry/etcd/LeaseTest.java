package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.EtcdProcess;
import io.boltgen.testing.ReadyProcess;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The lease: it expires when keep-alives stop, and a lost lease is replaced with every instance put again. */
class LeaseTest {

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

  private EtcdRegistry registry(Duration ttl) {
    EtcdRegistry registry = EtcdRegistry.builder().endpoints(etcd.endpoint()).leaseTtl(ttl).build();
    opened.add(registry);
    return registry;
  }

  private Recorder watch(EtcdRegistry registry, String service) {
    Recorder recorder = new Recorder();
    opened.add(registry.watch(service, recorder));
    return recorder;
  }

  private static ServiceInstance instance(int port) {
    return ServiceInstance.of(new InetSocketAddress("127.0.0.1", port));
  }

  @Test
  void aLeaseRevokedBehindTheRegistrysBackIsReplacedAndItsInstancesPutAgain() {
    String service = "lease.Revoked-" + System.nanoTime();
    EtcdRegistry servers = registry(Duration.ofSeconds(2));
    servers.register(service, instance(20001));
    servers.register(service, instance(20002));
    Recorder seen = watch(registry(Duration.ofSeconds(2)), service);
    seen.awaitPorts(Duration.ofSeconds(5), 20001, 20002);
    long old = servers.lease();

    etcd.post("/v3/lease/revoke", "{\"ID\":\"" + old + "\"}");

    seen.awaitPorts(Duration.ofSeconds(1));
    // the next keep-alive (every TTL/3) finds the lease gone
    seen.awaitPorts(Duration.ofSeconds(3), 20001, 20002);
    assertThat(servers.lease()).isNotEqualTo(old).isNotZero();
  }

  @Test
  void aRegistrationOntoALeaseLostSinceTheLastKeepAliveReplacesItForAll() {
    String service = "lease.LostBeforePut-" + System.nanoTime();
    EtcdRegistry servers = registry(Duration.ofSeconds(10)); // next keep-alive in 3.3 s
    servers.register(service, instance(20005));
    Recorder seen = watch(registry(Duration.ofSeconds(10)), service);
    seen.awaitPorts(Duration.ofSeconds(5), 20005);
    long old = servers.lease();
    etcd.post("/v3/lease/revoke", "{\"ID\":\"" + old + "\"}");
    seen.awaitPorts(Duration.ofSeconds(1));

    servers.register(service, instance(20006)); // etcd: lease not found; a new one carries both

    seen.awaitPorts(Duration.ofSeconds(1), 20005, 20006);
    assertThat(servers.lease()).isNotEqualTo(old);
  }

  @Test
  void closingTheRegistryRevokesItsLease() {
    EtcdRegistry servers = registry(Duration.ofSeconds(10));
    servers.register("lease.Closed-" + System.nanoTime(), instance(20011));
    long lease = servers.lease();
    assertThat(timeToLive(lease)).isPositive();
    servers.close();
    assertThat(timeToLive(lease)).isEqualTo(-1);
  }

  @Test
  void aRegistrationReplacedByALaterOneOfTheSameAddressLeavesItsKeyAlone() {
    String service = "lease.Replaced-" + System.nanoTime();
    EtcdRegistry servers = registry(Duration.ofSeconds(10));
    Registration first = servers.register(service, instance(20021).withWeight(10));
    servers.register(service, instance(20021).withWeight(20));
    Recorder seen = watch(servers, service);
    seen.awaitPorts(Duration.ofSeconds(5), 20021);

    first.close();
    servers.register(service, instance(20022)); // seen after anything the close could have caused
    seen.awaitPorts(Duration.ofSeconds(1), 20021, 20022);
    assertThat(seen.latest()).filteredOn(i -> i.address().getPort() == 20021).singleElement()
        .extracting(ServiceInstance::weight).isEqualTo(20);
  }

  @Test
  void aRegistrationDoesNotDeleteTheKeyAnotherRegistryTookOver() {
    String service = "lease.TakenOver-" + System.nanoTime();
    Registration old = registry(Duration.ofSeconds(10)).register(service, instance(20031).withVersion("old"));
    EtcdRegistry other = registry(Duration.ofSeconds(10));
    other.register(service, instance(20031).withVersion("new"));
    Recorder seen = watch(other, service);
    seen.awaitPorts(Duration.ofSeconds(5), 20031);

    old.close();
    other.register(service, instance(20032));
    seen.awaitPorts(Duration.ofSeconds(1), 20031, 20032);
    assertThat(seen.latest()).filteredOn(i -> i.address().getPort() == 20031).singleElement()
        .extracting(ServiceInstance::version).isEqualTo("new");
  }

  @Test
  void theLeaseExpiresWhileTheRegisteringProcessIsFrozenAndIsReplacedWhenItRunsAgain() throws Exception {
    String service = "lease.Frozen-" + System.nanoTime();
    Recorder seen = watch(registry(Duration.ofSeconds(2)), service);
    try (ReadyProcess child = ReadyProcess.start(ReadyProcess.java(RegisteringMain.class.getName(),
        etcd.endpoint(), service, "20041", "2"))) {
      seen.awaitPorts(Duration.ofSeconds(1), 20041);

      child.signal("STOP");
      // no keep-alive while frozen: the 2 s lease expires (etcd checks expiry every 500 ms)
      seen.awaitPorts(Duration.ofSeconds(5));

      child.signal("CONT");
      // its next keep-alive finds the lease gone, grants another and registers again
      seen.awaitPorts(Duration.ofSeconds(5), 20041);

      assertThat(child.stop()).as("closes its registry on SIGTERM and exits").isTrue();
      seen.awaitPorts(Duration.ofSeconds(1));
      String log = child.log();
      assertThat(log.lines().filter(l -> l.contains("is gone")))
          .as("one line about the lost lease in:\n%s", log).hasSize(1);
      assertThat(log).doesNotContain("Exception");
      assertThat(seen.errors).isEmpty();
    }
  }

  private static long timeToLive(long lease) {
    String reply = etcd.post("/v3/lease/timetolive", "{\"ID\":\"" + lease + "\"}").body();
    return EtcdJson.int64(EtcdJson.parseObject(reply), "TTL");
  }
}
