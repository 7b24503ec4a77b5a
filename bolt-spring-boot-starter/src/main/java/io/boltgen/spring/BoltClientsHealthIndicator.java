package io.boltgen.spring;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.Connection;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.core.env.Environment;

/**
 * The targets of the configured client beans: UP when every target has an active connection, or can be
 * connected to within the connect timeout (the check connects, as the first call would), and every cluster
 * target ({@code scheme:///service}) has an instance its resolver lists; DOWN, naming the failure, when any
 * has not. With no configured target it is UP and leaves the (lazy) client unmade.
 */
public final class BoltClientsHealthIndicator implements HealthIndicator {

  private final ObjectProvider<BoltClient> client;
  private final BoltClientProperties properties;
  private final Environment environment;

  BoltClientsHealthIndicator(ObjectProvider<BoltClient> client, BoltClientProperties properties,
      Environment environment) {
    this.client = client;
    this.properties = properties;
    this.environment = environment;
  }

  @Override
  public Health health() {
    Map<String, Object> targets = new LinkedHashMap<>();
    boolean up = true;
    for (Map.Entry<String, BoltClientProperties.Service> entry : properties.getServices().entrySet()) {
      String target = entry.getValue().getTarget();
      if (target == null || target.isBlank()) {
        continue;
      }
      Map<String, Object> detail = check(client.getObject(), target);
      up &= detail.get("error") == null;
      targets.put(entry.getKey(), detail);
    }
    return (up ? Health.up() : Health.down()).withDetail("services", targets).build();
  }

  private Map<String, Object> check(BoltClient boltClient, String target) {
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("target", target);
    String resolved = environment.resolveRequiredPlaceholders(target);
    if (resolved.contains("://")) {
      return checkCluster(boltClient, resolved, detail);
    }
    InetSocketAddress address;
    try {
      address = (InetSocketAddress) boltClient.channel(resolved).remoteAddress();
    } catch (IllegalArgumentException e) {
      detail.put("error", e.getMessage());
      return detail;
    }
    if (active(boltClient, address) == 0) {
      Duration wait = properties.getConnectTimeout().plusMillis(100);
      try {
        boltClient.connect(address).get(wait.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        detail.put("error", String.valueOf(e.getCause().getMessage()));
      } catch (TimeoutException e) {
        detail.put("error", "not connected within " + wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        detail.put("error", "interrupted");
      }
    }
    detail.put("connections", active(boltClient, address));
    return detail;
  }

  /** A cluster target is up while its resolver lists at least one instance. */
  private static Map<String, Object> checkCluster(BoltClient boltClient, String target, Map<String, Object> detail) {
    try {
      int known = boltClient.instances(target).size();
      detail.put("instances", known);
      if (known == 0) {
        detail.put("error", "no instance known: the resolver lists none (yet)");
      }
    } catch (IllegalArgumentException e) {
      detail.put("error", e.getMessage());
    }
    return detail;
  }

  private static long active(BoltClient client, InetSocketAddress address) {
    return client.connections(address).stream().filter(Connection::isActive).count();
  }
}
