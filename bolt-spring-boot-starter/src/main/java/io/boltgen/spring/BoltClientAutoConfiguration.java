package io.boltgen.spring;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.ClientInterceptor;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.cluster.NameResolver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.env.Environment;

/**
 * The {@link BoltClient} (unless the application defines one) and a client bean per configured service.
 * The client is lazy: an application that calls nothing starts no client threads. It is closed when the
 * context is destroyed, after every lifecycle (the server) has stopped. Every {@link ClientInterceptor} and
 * {@link ServerInterceptor} bean is added to it, in their order (the metrics ones of
 * {@link BoltObservationAutoConfiguration} among them). With {@code spring.threads.virtual.enabled=true} on
 * Java 21+ (Spring's own rule), its callbacks run on virtual threads ({@code BoltClient.Builder.virtualThreads}).
 */
@AutoConfiguration
@ConditionalOnClass(BoltClient.class)
@EnableConfigurationProperties(BoltClientProperties.class)
@Import(BoltClientRegistrar.class)
public class BoltClientAutoConfiguration {

  @Bean
  @Lazy
  @ConditionalOnMissingBean
  BoltClient boltClient(BoltClientProperties properties, ObjectProvider<ClientInterceptor> clientInterceptors,
      ObjectProvider<ServerInterceptor> serverInterceptors, ObjectProvider<NameResolver> resolvers,
      Environment environment) {
    BoltClient.Builder builder = BoltClient.builder()
        .protocol(properties.getProtocol())
        .connectTimeout(properties.getConnectTimeout())
        .connectionsPerAddress(properties.getConnectionsPerAddress())
        .shutdownTimeout(properties.getShutdownTimeout());
    if (Threading.VIRTUAL.isActive(environment)) {
      builder.virtualThreads();
    }
    clientInterceptors.orderedStream().forEach(builder::clientInterceptor);
    serverInterceptors.orderedStream().forEach(builder::serverInterceptor);
    resolvers.orderedStream().forEach(builder::nameResolver); // registries too: targets scheme:///service
    return builder.build();
  }
}
