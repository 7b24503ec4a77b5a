package io.boltgen.spring;

import io.boltgen.micrometer.BoltObservations;
import io.boltgen.runtime.ClientInterceptor;
import io.boltgen.runtime.ServerInterceptor;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Metrics and tracing for every call, when {@code io.boltgen:bolt-micrometer} is on the class path and the
 * application has an {@link ObservationRegistry} (Spring Boot's Actuator makes one): the two interceptors of
 * {@link BoltObservations}, as beans, which the client and server auto-configurations add. Off with
 * {@code boltgen.observations.enabled=false}.
 */
@AutoConfiguration(
    before = {BoltClientAutoConfiguration.class, BoltServerAutoConfiguration.class},
    afterName = {
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"})
@ConditionalOnClass({BoltObservations.class, ObservationRegistry.class})
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnProperty(prefix = "boltgen.observations", name = "enabled", havingValue = "true", matchIfMissing = true)
public class BoltObservationAutoConfiguration {

  @Bean
  ClientInterceptor boltObservationClientInterceptor(ObservationRegistry registry) {
    return BoltObservations.clientInterceptor(registry);
  }

  @Bean
  ServerInterceptor boltObservationServerInterceptor(ObservationRegistry registry) {
    return BoltObservations.serverInterceptor(registry);
  }
}
