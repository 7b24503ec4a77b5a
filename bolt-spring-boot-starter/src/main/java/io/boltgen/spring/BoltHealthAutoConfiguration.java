package io.boltgen.spring;

import io.boltgen.runtime.BoltClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Health contributors {@code boltServer} and {@code boltClients}, when Spring Boot's health support is on
 * the class path; {@code management.health.bolt.enabled=false} turns both off.
 */
@AutoConfiguration(after = {BoltClientAutoConfiguration.class, BoltServerAutoConfiguration.class})
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnEnabledHealthIndicator("bolt")
public class BoltHealthAutoConfiguration {

  @Bean
  @ConditionalOnBean(BoltServerLifecycle.class)
  @ConditionalOnMissingBean(name = "boltServerHealthIndicator")
  BoltServerHealthIndicator boltServerHealthIndicator(BoltServerLifecycle lifecycle) {
    return new BoltServerHealthIndicator(lifecycle);
  }

  @Bean
  @ConditionalOnBean(BoltClient.class)
  @ConditionalOnMissingBean(name = "boltClientsHealthIndicator")
  BoltClientsHealthIndicator boltClientsHealthIndicator(ObjectProvider<BoltClient> client,
      BoltClientProperties properties, Environment environment) {
    return new BoltClientsHealthIndicator(client, properties, environment);
  }
}
