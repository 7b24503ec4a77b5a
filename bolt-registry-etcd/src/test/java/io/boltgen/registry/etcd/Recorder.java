package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/** Records what a watch hears, failing on overlapping calls. */
final class Recorder implements NameResolver.Listener {

  final List<List<ServiceInstance>> updates = new CopyOnWriteArrayList<>();
  final List<Throwable> errors = new CopyOnWriteArrayList<>();
  private final AtomicBoolean inside = new AtomicBoolean();
  volatile boolean overlapped;

  @Override
  public void onInstances(List<ServiceInstance> instances) {
    enter();
    updates.add(List.copyOf(instances));
    inside.set(false);
  }

  @Override
  public void onError(Throwable error) {
    enter();
    errors.add(error);
    inside.set(false);
  }

  private void enter() {
    if (!inside.compareAndSet(false, true)) {
      overlapped = true;
    }
  }

  List<ServiceInstance> latest() {
    return updates.isEmpty() ? List.of() : updates.get(updates.size() - 1);
  }

  Set<Integer> ports() {
    return latest().stream().map(i -> i.address().getPort()).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Waits up to {@code bound} until the last set heard is exactly these ports. */
  void awaitPorts(Duration bound, Integer... ports) {
    await().atMost(bound).pollInterval(Duration.ofMillis(10))
        .untilAsserted(() -> assertThat(ports()).containsExactlyInAnyOrder(ports));
    assertThat(overlapped).as("listener calls overlapped").isFalse();
  }
}
