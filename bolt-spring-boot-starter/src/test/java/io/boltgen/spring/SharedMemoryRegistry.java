package io.boltgen.spring;

import io.boltgen.runtime.cluster.Registration;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A registry in this JVM's memory (scheme {@code mem}): a complete implementation of the SPI, for the
 * starter's tests of what it wires, with no registry process. Every change reaches every watcher at once.
 */
final class SharedMemoryRegistry implements Registry {

  private final Map<String, List<ServiceInstance>> services = new LinkedHashMap<>();
  private final List<Map.Entry<String, Listener>> watchers = new ArrayList<>();

  @Override
  public String scheme() {
    return "mem";
  }

  @Override
  public synchronized Registration register(String service, ServiceInstance instance) {
    services.computeIfAbsent(service, s -> new ArrayList<>()).add(instance);
    publish(service);
    return new Registration() {
      @Override
      public ServiceInstance instance() {
        return instance;
      }

      @Override
      public void close() {
        synchronized (SharedMemoryRegistry.this) {
          if (services.getOrDefault(service, new ArrayList<>()).remove(instance)) {
            publish(service);
          }
        }
      }
    };
  }

  /** What is registered under {@code service} now. */
  synchronized List<ServiceInstance> instances(String service) {
    return List.copyOf(services.getOrDefault(service, List.of()));
  }

  @Override
  public synchronized Watch watch(String service, Listener listener) {
    Map.Entry<String, Listener> entry = Map.entry(service, listener);
    watchers.add(entry);
    listener.onInstances(instances(service));
    return () -> {
      synchronized (SharedMemoryRegistry.this) {
        watchers.remove(entry);
      }
    };
  }

  private void publish(String service) {
    List<ServiceInstance> now = instances(service);
    for (Map.Entry<String, Listener> w : List.copyOf(watchers)) {
      if (w.getKey().equals(service)) {
        w.getValue().onInstances(now);
      }
    }
  }

  @Override
  public void close() {}
}
