package io.boltgen.runtime.internal.cluster;

import io.boltgen.runtime.cluster.NameResolver;
import io.boltgen.runtime.cluster.ServiceInstance;
import java.util.ArrayList;
import java.util.List;

/**
 * The resolver of {@code static:///host:port,host:port}: the "service" is the list of addresses itself,
 * which never changes. Needs nothing running.
 */
public final class StaticResolver implements NameResolver {

  public static final String SCHEME = "static";

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public Watch watch(String service, Listener listener) {
    List<ServiceInstance> instances = new ArrayList<>();
    for (String part : service.split(",", -1)) {
      String hostAndPort = part.trim();
      if (hostAndPort.isEmpty()) {
        throw new IllegalArgumentException("empty address in static:///" + service);
      }
      instances.add(ServiceInstance.of(Targets.address(hostAndPort)));
    }
    listener.onInstances(List.copyOf(instances));
    return () -> { };
  }
}
