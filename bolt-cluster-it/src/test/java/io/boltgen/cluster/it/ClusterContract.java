package io.boltgen.cluster.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.cluster.ServiceInstance;
import io.boltgen.testing.Closer;
import io.boltgen.testing.ReadyProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a cluster does with a real registry and instances in processes of their own, whichever registry:
 * calls spread by each policy, instances seen joining and leaving within a second, a {@code kill -9} that
 * fails only the non-idempotent calls in flight on the killed instance, a rolling restart that fails no
 * call, a frozen instance that is dropped and comes back.
 */
abstract class ClusterContract {

  static final String SERVICE = "it.Counter:1.0";
  /** How long a lease or session lives without keep-alives, in the tests that wait for it to expire. */
  static final long SHORT_TTL_MILLIS = 2_000;
  static final long TTL_MILLIS = 10_000;

  final Closer closer = new Closer();

  /** The URI {@link ClusterNode} registers with: {@code etcd://…} or {@code zookeeper://…}. */
  abstract String registryUri();

  /** A registry for the test's client (the test closes it). */
  abstract Registry clientRegistry();

  /** The shortest lease or session this registry's server grants, in milliseconds. */
  long shortTtlMillis() {
    return SHORT_TTL_MILLIS;
  }

  String target(Registry registry) {
    return registry.scheme() + ":///" + SERVICE;
  }

  ReadyProcess node(long ttlMillis, int weight) throws Exception {
    return closer.track(NodeProcess.start(registryUri(), ttlMillis, weight));
  }

  BoltClient client(Registry registry) {
    return closer.track(BoltClient.builder().nameResolver(registry).build());
  }

  @AfterEach
  void closeAll() throws Exception {
    closer.close();
  }

  static Set<Integer> ports(List<ServiceInstance> instances) {
    return instances.stream().map(i -> i.address().getPort()).collect(Collectors.toSet());
  }

  static Set<Integer> ports(ReadyProcess... nodes) {
    return java.util.Arrays.stream(nodes).map(ReadyProcess::port).collect(Collectors.toSet());
  }

  void awaitInstances(BoltClient client, String target, Duration bound, ReadyProcess... nodes) {
    Set<Integer> expected = ports(nodes);
    await().atMost(bound).pollInterval(Duration.ofMillis(10))
        .until(() -> ports(client.instances(target)).equals(expected));
  }

  private static Map<Integer, Integer> spread(Counter counter, int calls) {
    Map<Integer, Integer> byPort = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      byPort.merge(counter.port(), 1, Integer::sum);
    }
    return byPort;
  }

  @Test
  void callsSpreadOverThreeInstancesByEveryPolicy() throws Exception {
    ReadyProcess light = node(TTL_MILLIS, 100);
    ReadyProcess middle = node(TTL_MILLIS, 200);
    ReadyProcess heavy = node(TTL_MILLIS, 700);
    Registry registry = closer.track(clientRegistry());
    BoltClient client = client(registry);
    String target = target(registry);
    awaitInstances(client, target, Duration.ofSeconds(10), light, middle, heavy);
    assertThat(client.instances(target)).extracting(ServiceInstance::version).containsOnly("1.0");

    Counter roundRobin = CounterBolt.newClient(client.channel(target, BalancingPolicy.ROUND_ROBIN));
    assertThat(spread(roundRobin, 300).values()).containsOnly(100);

    int calls = 3000; // each share within 0.04 of its weight's: over 4.5 standard deviations
    for (BalancingPolicy policy : List.of(BalancingPolicy.WEIGHTED_RANDOM, BalancingPolicy.LEAST_PENDING)) {
      Map<Integer, Integer> byPort = spread(CounterBolt.newClient(client.channel(target, policy)), calls);
      assertThat(byPort.getOrDefault(light.port(), 0) / (double) calls).as(policy + " to weight 100")
          .isCloseTo(0.1, within(0.04));
      assertThat(byPort.getOrDefault(middle.port(), 0) / (double) calls).as(policy + " to weight 200")
          .isCloseTo(0.2, within(0.04));
      assertThat(byPort.getOrDefault(heavy.port(), 0) / (double) calls).as(policy + " to weight 700")
          .isCloseTo(0.7, within(0.04));
    }
  }

  @Test
  void anInstanceAddedOrRemovedIsSeenWithinASecond() throws Exception {
    ReadyProcess first = node(TTL_MILLIS, 100);
    ReadyProcess second = node(TTL_MILLIS, 100);
    Registry registry = closer.track(clientRegistry());
    BoltClient client = client(registry);
    String target = target(registry);
    awaitInstances(client, target, Duration.ofSeconds(10), first, second);

    ReadyProcess third = node(TTL_MILLIS, 100); // returns once it printed READY, after it registered
    awaitInstances(client, target, Duration.ofSeconds(1), first, second, third);

    long signalled = System.nanoTime();
    Thread stopper = new Thread(() -> {
      try {
        first.stop();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    stopper.start(); // a graceful stop deregisters first, then waits for this client to move away
    awaitInstances(client, target, Duration.ofSeconds(1), second, third);
    assertThat(Duration.ofNanos(System.nanoTime() - signalled)).isLessThan(Duration.ofSeconds(1));
    stopper.join(30_000);
  }

  @Test
  void killingAnInstanceFailsOnlyNonIdempotentCallsInFlightOnIt() throws Exception {
    ReadyProcess victim = node(shortTtlMillis(), 100);
    ReadyProcess b = node(TTL_MILLIS, 100);
    ReadyProcess c = node(TTL_MILLIS, 100);
    Registry registry = closer.track(clientRegistry());
    BoltClient client = client(registry);
    String target = target(registry);
    awaitInstances(client, target, Duration.ofSeconds(10), victim, b, c);
    int callers = 6;
    Load load = closer.track(new Load(CounterBolt.newClient(client.channel(target)), callers));
    load.awaitMore(600);

    victim.kill();
    load.awaitMore(1500);
    // its registration leaves once its lease or session expires
    awaitInstances(client, target, Duration.ofMillis(shortTtlMillis() + 5_000), b, c);
    load.awaitMore(300);
    load.close();

    assertThat(load.failuresOf("read")).as("idempotent calls are sent again").isEmpty();
    assertThat(load.failuresOf("add")).as("calls in flight on the killed instance, at most one per caller")
        .hasSizeLessThanOrEqualTo(callers)
        .allSatisfy(f -> assertThat(f.status()).isEqualTo(ResponseStatus.CONNECTION_CLOSED));
  }

  @Test
  void aRollingRestartWithGracefulShutdownFailsNoCall() throws Exception {
    ReadyProcess[] nodes = {node(TTL_MILLIS, 100), node(TTL_MILLIS, 100), node(TTL_MILLIS, 100)};
    Registry registry = closer.track(clientRegistry());
    BoltClient client = client(registry);
    String target = target(registry);
    awaitInstances(client, target, Duration.ofSeconds(10), nodes);
    Load load = closer.track(new Load(CounterBolt.newClient(client.channel(target)), 6));
    load.awaitMore(500);
    for (int i = 0; i < nodes.length; i++) {
      ReadyProcess old = nodes[i];
      nodes[i] = node(TTL_MILLIS, 100);
      load.awaitMore(300);
      assertThat(old.stop()).as("the old instance exits after draining").isTrue();
      load.awaitMore(300);
    }
    awaitInstances(client, target, Duration.ofSeconds(1), nodes);
    load.close();
    assertThat(load.failures).isEmpty();
    assertThat(load.ok.get()).isGreaterThanOrEqualTo(2300);
  }

  @Test
  void aFrozenInstanceIsDroppedWhenItsRegistrationExpiresAndComesBackWhenItResumes() throws Exception {
    ReadyProcess frozen = node(shortTtlMillis(), 100);
    ReadyProcess other = node(TTL_MILLIS, 100);
    Registry registry = closer.track(clientRegistry());
    BoltClient client = client(registry);
    String target = target(registry);
    awaitInstances(client, target, Duration.ofSeconds(10), frozen, other);

    frozen.signal("STOP");
    awaitInstances(client, target, Duration.ofMillis(shortTtlMillis() * 2 + 3_000), other);
    Counter counter = CounterBolt.newClient(client.channel(target));
    for (int i = 0; i < 20; i++) {
      assertThat(counter.port()).isEqualTo(other.port());
    }

    frozen.signal("CONT");
    awaitInstances(client, target, Duration.ofSeconds(15), frozen, other);
    Counter roundRobin = CounterBolt.newClient(client.channel(target, BalancingPolicy.ROUND_ROBIN));
    await().atMost(Duration.ofSeconds(10)).until(() -> roundRobin.port() == frozen.port());
  }
}
