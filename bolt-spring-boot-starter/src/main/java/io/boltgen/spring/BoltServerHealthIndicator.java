package io.boltgen.spring;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** UP while the auto-configured server listens (with its port, exports and open connections); DOWN otherwise. */
public final class BoltServerHealthIndicator implements HealthIndicator {

  private final BoltServerLifecycle lifecycle;

  BoltServerHealthIndicator(BoltServerLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  @Override
  public Health health() {
    if (!lifecycle.isRunning()) {
      return Health.down().withDetail("listening", false).withDetail("services", lifecycle.services()).build();
    }
    return Health.up()
        .withDetail("listening", true)
        .withDetail("port", lifecycle.server().port())
        .withDetail("services", lifecycle.services())
        .withDetail("connections", lifecycle.server().connections().size())
        .build();
  }
}
