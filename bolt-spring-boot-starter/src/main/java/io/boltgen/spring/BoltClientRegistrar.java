package io.boltgen.spring;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.NettyVersion;
import io.boltgen.runtime.service.GeneratedService;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one bean per configured service ({@code boltgen.client.services[name].target}, read by
 * {@link ClientEntries}), typed as the service interface and named after the service, found through the
 * generated-service index: no class-path scan, and no bean for a service without a target. A bean is made when
 * it is first injected; its target's placeholders are resolved then.
 */
class BoltClientRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware,
    BeanClassLoaderAware {

  /** Set on the definition of every client bean, so that exports never mistake a client for an implementation. */
  static final String CLIENT_ATTRIBUTE = "boltgen.client";

  private static final Logger log = LoggerFactory.getLogger(BoltClientRegistrar.class);

  private Environment environment;
  private BeanFactory beanFactory;
  private ClassLoader classLoader;

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beanFactory = beanFactory;
  }

  @Override
  public void setBeanClassLoader(ClassLoader classLoader) {
    this.classLoader = classLoader;
  }

  @Override
  public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
    // as the context starts, before any client or server is made: an older Netty that Spring Boot's dependency
    // management chose fails here, with the fix (UnsupportedNettyFailureAnalyzer), not later in a call
    NettyVersion.requireSupported();
    Map<String, GeneratedService<?>> generated = GeneratedServices.byName(classLoader);
    for (ClientEntries.Client client : ClientEntries.resolve(Binder.get(environment), generated)) {
      if (client.target() == null) {
        log.info("{}[{}] has no target: no client bean", ClientEntries.PREFIX, client.name());
        continue;
      }
      registry.registerBeanDefinition(client.name(), definition(client));
    }
  }

  private RootBeanDefinition definition(ClientEntries.Client client) {
    return definition(client.service(), client);
  }

  private <T> RootBeanDefinition definition(GeneratedService<T> service, ClientEntries.Client client) {
    RootBeanDefinition definition = new RootBeanDefinition(service.serviceInterface(), () -> {
      String resolved = environment.resolveRequiredPlaceholders(client.target());
      // in the frame format the service's peers expect (SOFARPC's: V1), else the client's
      BoltChannel channel = beanFactory.getBean(BoltClient.class).channel(resolved,
          service.descriptor().wireProtocol());
      boolean configured = client.serviceOptions() != CallOptions.DEFAULT || !client.methodOptions().isEmpty();
      return service.newClient(configured
          ? new ConfiguredChannel(channel, client.serviceOptions(), client.methodOptions()) : channel);
    });
    definition.setAttribute(CLIENT_ATTRIBUTE, true);
    // made when first injected, so that a target may name a port known only once a server listens
    // (127.0.0.1:${local.boltgen.server.port})
    definition.setLazyInit(true);
    definition.setDescription("boltgen client of " + service.descriptor().name() + " at " + client.target());
    return definition;
  }
}
