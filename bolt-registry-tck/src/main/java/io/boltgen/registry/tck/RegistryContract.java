package io.boltgen.registry.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Registry} must do, whatever stores it. A registry module's test extends this class and
 * says how to open a registry on its test server; every registry the test opens is closed after it. Nothing
 * here listens on the registered addresses: a registry stores instances, it does not check them.
 *
 * <p>Changes must reach a watcher within {@link #CHANGE_BOUND}.
 */
public abstract class RegistryContract {

  /** How soon a watcher sees an instance added or removed. */
  public static final Duration CHANGE_BOUND = Duration.ofSeconds(1);

  private final List<AutoCloseable> opened = new ArrayList<>();
  private int nextService;

  /** A new registry on the test's server, as another process would open it (its own connection or session). */
  protected abstract Registry openRegistry() throws Exception;

  /**
   * Whether the registry stores every field of an instance as it was registered. A registry that writes a
   * format of another system (SOFARPC's provider URLs) keeps only what that format holds: the address, the
   * weight, and metadata entries the format can hold (here, {@code rack} and {@code tls}); it may add metadata.
   */
  protected boolean keepsEveryField() {
    return true;
  }

  /** A registry the test closes when it ends. */
  protected final Registry registry() throws Exception {
    return track(openRegistry());
  }

  /** Closes {@code resource} when the test ends (in reverse order). */
  protected final <T extends AutoCloseable> T track(T resource) {
    opened.add(resource);
    return resource;
  }

  /** A service name no other test of this run used. */
  protected final String uniqueService() {
    return "tck.Service" + nextService++ + "-" + System.nanoTime() + ":1.0";
  }

  @AfterEach
  final void closeWhatTheTestOpened() throws Exception {
    Exception first = null;
    for (int i = opened.size() - 1; i >= 0; i--) {
      try {
        opened.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    opened.clear();
    if (first != null) {
      throw first;
    }
  }

  /** An instance on loopback at {@code port}. */
  @SuppressWarnings("AddressSelection") // a literal IPv4 address: nothing is resolved, and it reads back as written
  protected static ServiceInstance instance(int port) {
    return ServiceInstance.of(new InetSocketAddress("127.0.0.1", port));
  }

  @Test
  void aWatcherSeesEveryRegisteredInstanceWithItsFields() throws Exception {
    Registry servers = registry();
    Registry clients = registry();
    String service = uniqueService();
    ServiceInstance rich = instance(20001).withWeight(250).withVersion("1.4.2").withZone("zone-b")
        .withMetadata(Map.of("rack", "r7", "tls", "false", "quote\"s", "a=b,c\nd"));
    track(servers.register(service, rich));
    track(servers.register(service, instance(20002)));
    track(servers.register(service, instance(20003).withWeight(0)));

    Recorder seen = watch(clients, service);

    seen.awaitPorts(20001, 20002, 20003);
    ServiceInstance found = seen.latest().stream().filter(i -> i.address().getPort() == 20001).findFirst().get();
    assertThat(found.address().getHostString()).isEqualTo("127.0.0.1");
    assertThat(found.weight()).isEqualTo(250);
    if (keepsEveryField()) {
      assertThat(found.version()).isEqualTo("1.4.2");
      assertThat(found.zone()).isEqualTo("zone-b");
      assertThat(found.metadata()).isEqualTo(rich.metadata());
    } else {
      assertThat(found.metadata()).containsEntry("rack", "r7").containsEntry("tls", "false");
    }
    assertThat(seen.latest().stream().filter(i -> i.address().getPort() == 20003).findFirst().get().weight())
        .isZero();
  }

  @Test
  void anInstanceAddedOrRemovedIsSeenWithinTheBound() throws Exception {
    Registry servers = registry();
    Registry clients = registry();
    String service = uniqueService();
    track(servers.register(service, instance(20011)));
    Recorder seen = watch(clients, service);
    seen.awaitPorts(20011);

    Registration second = servers.register(service, instance(20012));
    seen.awaitPortsWithin(CHANGE_BOUND, 20011, 20012);

    second.close();
    seen.awaitPortsWithin(CHANGE_BOUND, 20011);
  }

  @Test
  void aWatchOfAnUnknownServiceStartsEmptyAndFillsLater() throws Exception {
    Registry servers = registry();
    Registry clients = registry();
    String service = uniqueService();
    Recorder seen = watch(clients, service);
    await().atMost(Duration.ofSeconds(5)).until(() -> !seen.updates.isEmpty());
    assertThat(seen.latest()).isEmpty();

    track(servers.register(service, instance(20021)));
    seen.awaitPortsWithin(CHANGE_BOUND, 20021);
  }

  @Test
  void servicesDoNotSeeEachOther() throws Exception {
    Registry servers = registry();
    String one = uniqueService();
    String two = uniqueService();
    track(servers.register(one, instance(20031)));
    track(servers.register(two, instance(20032)));
    Recorder seenOne = watch(servers, one);
    seenOne.awaitPorts(20031);
    Recorder seenTwo = watch(servers, two);
    seenTwo.awaitPorts(20032);
  }

  @Test
  void closingTheRegistryDeregistersWhatItRegistered() throws Exception {
    Registry servers = openRegistry();
    Registry clients = registry();
    String service = uniqueService();
    servers.register(service, instance(20041));
    servers.register(service, instance(20042));
    Recorder seen = watch(clients, service);
    seen.awaitPorts(20041, 20042);

    servers.close();
    seen.awaitPortsWithin(CHANGE_BOUND, new int[0]);
    servers.close(); // idempotent
  }

  @Test
  void aClosedWatchHearsNothingMore() throws Exception {
    Registry servers = registry();
    Registry clients = registry();
    String service = uniqueService();
    track(servers.register(service, instance(20051)));
    Recorder seen = new Recorder();
    NameResolver.Watch watch = clients.watch(service, seen);
    seen.awaitPorts(20051);
    watch.close();
    watch.close(); // idempotent
    int updates = seen.updates.size();

    Registration later = servers.register(service, instance(20052));
    // a second watch sees the change, so the first one had every chance to hear it too
    Recorder probe = watch(clients, service);
    probe.awaitPorts(20051, 20052);
    assertThat(seen.updates).hasSize(updates);
    later.close();
  }

  @Test
  void closingARegistrationTwiceIsHarmless() throws Exception {
    Registry servers = registry();
    String service = uniqueService();
    Registration registration = servers.register(service, instance(20061));
    assertThat(registration.instance().address().getPort()).isEqualTo(20061);
    registration.close();
    registration.close();
    Recorder seen = watch(servers, service);
    await().atMost(Duration.ofSeconds(5)).until(() -> !seen.updates.isEmpty());
    assertThat(seen.latest()).isEmpty();
  }

  @Test
  void registeringTheSameAddressAgainReplacesItsFields() throws Exception {
    Registry servers = registry();
    String service = uniqueService();
    track(servers.register(service, instance(20071).withWeight(10)));
    Recorder seen = watch(servers, service);
    seen.awaitPorts(20071);
    track(servers.register(service, instance(20071).withWeight(20)));
    await().atMost(CHANGE_BOUND.multipliedBy(2)).untilAsserted(() ->
        assertThat(seen.latest()).singleElement().extracting(ServiceInstance::weight).isEqualTo(20));
  }

  @Test
  void aServiceNameThatCannotBeStoredIsRefusedClearly() throws Exception {
    Registry servers = registry();
    assertThatThrownBy(() -> servers.register("", instance(20081)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> servers.register("a/b", instance(20082)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a/b");
    assertThatThrownBy(() -> servers.watch("a/b", instances -> { }))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Watches {@code service} until the test ends. */
  protected final Recorder watch(NameResolver resolver, String service) {
    Recorder recorder = new Recorder();
    track(resolver.watch(service, recorder));
    return recorder;
  }

  /** Records every set a watch hears, checking that calls never overlap. */
  protected static final class Recorder implements NameResolver.Listener {
    private final List<List<ServiceInstance>> updates = new CopyOnWriteArrayList<>();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    @GuardedBy("this")
    private boolean inside;

    @Override
    public void onInstances(List<ServiceInstance> instances) {
      synchronized (this) {
        assertThat(inside).as("listener calls overlap").isFalse();
        inside = true;
      }
      try {
        updates.add(List.copyOf(instances));
      } finally {
        synchronized (this) {
          inside = false;
        }
      }
    }

    @Override
    public void onError(Throwable error) {
      errors.add(error);
    }

    /** The last set heard, empty before any. */
    public List<ServiceInstance> latest() {
      return updates.isEmpty() ? List.of() : updates.get(updates.size() - 1);
    }

    /** The errors heard. */
    public List<Throwable> errors() {
      return errors;
    }

    /** Waits (up to 10 s: a first resolution includes connecting) until the last set is exactly these ports. */
    public void awaitPorts(int... ports) {
      awaitPortsWithin(Duration.ofSeconds(10), ports);
    }

    /** Waits up to {@code bound} until the last set is exactly these ports. */
    public void awaitPortsWithin(Duration bound, int... ports) {
      Set<Integer> expected = new java.util.TreeSet<>();
      for (int p : ports) {
        expected.add(p);
      }
      await().atMost(bound).pollInterval(Duration.ofMillis(10)).untilAsserted(() ->
          assertThat(latest().stream().map(i -> i.address().getPort()).collect(Collectors.toSet()))
              .isEqualTo(expected));
    }
  }
}
