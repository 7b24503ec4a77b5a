package io.boltgen.spring;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.service.GeneratedService;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one bean per configured service ({@code boltgen.client.services[name].target}), typed as the
 * service interface and named after the service, found through the generated-service index: no class-path
 * scan, and no bean for a service without a target. A bean is made when it is first injected; its target's
 * placeholders are resolved then.
 */
class BoltClientRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware,
    BeanClassLoaderAware {

  /** Set on the definition of every client bean, so that exports never mistake a client for an implementation. */
  static final String CLIENT_ATTRIBUTE = "boltgen.client";

  private static final String PREFIX = "boltgen.client.services";

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
    Binder binder = Binder.get(environment);
    // every key, even one that binds to nothing (a dotted name without brackets becomes its first segment)
    Map<String, Object> keys = binder.bind(PREFIX, Bindable.mapOf(String.class, Object.class)).orElse(Map.of());
    if (keys.isEmpty()) {
      return;
    }
    Map<String, GeneratedService<?>> generated = GeneratedServices.byName(classLoader);
    for (String name : keys.keySet()) {
      if (!generated.containsKey(name)) {
        throw new IllegalStateException(PREFIX + " has an entry '" + name
            + "', which is no generated service on the class path " + generated.keySet()
            + ". A service name holds dots: write it in brackets, " + PREFIX + "[demo.Inventory].target");
      }
    }
    Map<String, BoltClientProperties.Service> configured =
        binder.bind(PREFIX, Bindable.mapOf(String.class, BoltClientProperties.Service.class)).orElse(Map.of());
    configured.forEach((name, service) -> {
      if (service.getTarget() == null || service.getTarget().isBlank()) {
        log.info("{}[{}] has no target: no client bean", PREFIX, name);
        return;
      }
      registry.registerBeanDefinition(name, definition(generated.get(name), service.getTarget(), service.getTimeout()));
    });
  }

  private <T> RootBeanDefinition definition(GeneratedService<T> service, String target, Duration timeout) {
    RootBeanDefinition definition = new RootBeanDefinition(service.serviceInterface(), () -> {
      String resolved = environment.resolveRequiredPlaceholders(target);
      BoltChannel channel = beanFactory.getBean(BoltClient.class).channel(resolved);
      return service.newClient(timeout == null ? channel : new TimeoutChannel(channel, timeout));
    });
    definition.setAttribute(CLIENT_ATTRIBUTE, Boolean.TRUE);
    // made when first injected, so that a target may name a port known only once a server listens
    // (127.0.0.1:${local.boltgen.server.port})
    definition.setLazyInit(true);
    definition.setDescription("boltgen client of " + service.descriptor().name() + " at " + target);
    return definition;
  }
}
