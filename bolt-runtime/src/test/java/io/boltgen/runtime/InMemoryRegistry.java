package io.boltgen.runtime;

import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A registry kept in this JVM's memory: the cluster tests' stand-in for a registry process, with the same
 * contract (a full set per change, calls in order and never overlapping). {@link #hold()} makes watches wait
 * for their first answer until {@link #release()}.
 */
final class InMemoryRegistry implements Registry {

  private final String scheme;
  private final Map<String, Map<InetSocketAddress, ServiceInstance>> services = new LinkedHashMap<>();
  private final List<WatchEntry> watches = new CopyOnWriteArrayList<>();
  private boolean held;

  InMemoryRegistry(String scheme) {
    this.scheme = scheme;
  }

  private record WatchEntry(String service, Listener listener) {}

  @Override
  public String scheme() {
    return scheme;
  }

  /** Replaces the set of {@code service}. */
  synchronized void set(String service, List<ServiceInstance> instances) {
    Map<InetSocketAddress, ServiceInstance> set = new LinkedHashMap<>();
    for (ServiceInstance i : instances) {
      set.put(i.address(), i);
    }
    services.put(service, set);
    notifyWatchers(service);
  }

  /** Watches started from now on do not hear their first set until {@link #release()}. */
  synchronized void hold() {
    held = true;
  }

  synchronized void release() {
    held = false;
    for (String service : new ArrayList<>(services.keySet())) {
      notifyWatchers(service);
    }
    for (WatchEntry w : watches) {
      if (!services.containsKey(w.service())) {
        w.listener().onInstances(List.of());
      }
    }
  }

  @Override
  public synchronized Watch watch(String service, Listener listener) {
    WatchEntry entry = new WatchEntry(service, listener);
    watches.add(entry);
    if (!held) {
      listener.onInstances(current(service));
    }
    return () -> watches.remove(entry);
  }

  @Override
  public synchronized Registration register(String service, ServiceInstance instance) {
    services.computeIfAbsent(service, s -> new LinkedHashMap<>()).put(instance.address(), instance);
    notifyWatchers(service);
    return new Registration() {
      @Override
      public ServiceInstance instance() {
        return instance;
      }

      @Override
      public void close() {
        synchronized (InMemoryRegistry.this) {
          Map<InetSocketAddress, ServiceInstance> set = services.get(service);
          if (set != null && set.remove(instance.address()) != null) {
            notifyWatchers(service);
          }
        }
      }
    };
  }

  /** What is registered under {@code service} now. */
  synchronized List<ServiceInstance> current(String service) {
    return List.copyOf(services.getOrDefault(service, Map.of()).values());
  }

  private void notifyWatchers(String service) {
    if (held) {
      return;
    }
    List<ServiceInstance> now = current(service);
    for (WatchEntry w : watches) {
      if (w.service().equals(service)) {
        w.listener().onInstances(now);
      }
    }
  }

  @Override
  public void close() {}
}
