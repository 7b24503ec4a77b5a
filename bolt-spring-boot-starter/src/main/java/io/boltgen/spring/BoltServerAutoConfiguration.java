package io.boltgen.spring;

import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.ClientInterceptor;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.cluster.Registry;
import org.springframework.beans.factory.ObjectProvider;
import io.boltgen.runtime.ServiceDefinition;
import java.util.ArrayList;
import java.util.Map;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * A {@link BoltServer} on {@code boltgen.server.port}, exporting the beans annotated {@link BoltExport} and
 * the services listed in {@code boltgen.server.services}, started and stopped by a {@link BoltServerLifecycle}.
 * No port, no server; a server the application defines itself is left alone (not started or stopped here).
 * Every {@link ServerInterceptor} and {@link ClientInterceptor} bean is added to it, in their order. With
 * {@code spring.threads.virtual.enabled=true} on Java 21+ (Spring's own rule), its handlers run on virtual
 * threads ({@code BoltServer.Builder.virtualThreads}), within the same bounds as its pool.
 */
@AutoConfiguration(after = BoltClientAutoConfiguration.class)
@ConditionalOnClass(BoltServer.class)
@ConditionalOnProperty(prefix = "boltgen.server", name = "port")
@EnableConfigurationProperties(BoltServerProperties.class)
public class BoltServerAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingBean(BoltServer.class)
  static class ServerConfiguration {

    @Bean
    BoltServerLifecycle boltServerLifecycle(BoltServerProperties properties, ConfigurableListableBeanFactory beans,
        ConfigurableEnvironment environment, ObjectProvider<ServerInterceptor> serverInterceptors,
        ObjectProvider<ClientInterceptor> clientInterceptors, ObjectProvider<Registry> registry) {
      Map<String, ServiceDefinition> exports = BoltExports.find(beans, properties.getServices(),
          GeneratedServices.byName(beans.getBeanClassLoader()));
      BoltServer.Builder builder = BoltServer.builder()
          .bind(properties.getHost(), properties.getPort())
          .shutdownTimeout(properties.getShutdownTimeout())
          .idleTimeout(properties.getIdleTimeout());
      if (Threading.VIRTUAL.isActive(environment)) {
        builder.virtualThreads();
      }
      exports.values().forEach(builder::service);
      serverInterceptors.orderedStream().forEach(builder::serverInterceptor);
      clientInterceptors.orderedStream().forEach(builder::clientInterceptor);
      registry.ifUnique(builder::registry); // registers the exports once listening, deregisters first on close
      return new BoltServerLifecycle(builder.build(), new ArrayList<>(exports.keySet()), environment);
    }

    @Bean
    BoltServer boltServer(BoltServerLifecycle lifecycle) {
      return lifecycle.server();
    }
  }
}
