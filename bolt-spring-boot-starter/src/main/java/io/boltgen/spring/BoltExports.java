package io.boltgen.spring;

import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.service.GeneratedService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * The services a server exports: every generated service interface of a bean annotated {@link BoltExport},
 * and each service named in {@code boltgen.server.services}, served by the one bean implementing it.
 * Nothing else: a bean that merely implements a service interface is not exported.
 */
final class BoltExports {

  private BoltExports() {}

  /** The definitions to serve, by service name, in a stable order; fails on ambiguity or on a bad name. */
  static Map<String, ServiceDefinition> find(ConfigurableListableBeanFactory beans, List<String> serviceNames,
      Map<String, GeneratedService<?>> generated) {
    Map<String, ServiceDefinition> exports = new LinkedHashMap<>();
    Map<String, String> exportedBy = new LinkedHashMap<>();
    for (String beanName : beans.getBeanNamesForAnnotation(BoltExport.class)) {
      Object bean = beans.getBean(beanName);
      List<GeneratedService<?>> implemented = new ArrayList<>();
      for (GeneratedService<?> service : generated.values()) {
        if (service.serviceInterface().isInstance(bean)) {
          implemented.add(service);
        }
      }
      if (implemented.isEmpty()) {
        throw new IllegalStateException("bean '" + beanName + "' is @BoltExport but implements none of the"
            + " generated services " + generated.keySet());
      }
      for (GeneratedService<?> service : implemented) {
        add(exports, exportedBy, service, bean, beanName);
      }
    }
    for (String name : serviceNames) {
      GeneratedService<?> service = generated.get(name);
      if (service == null) {
        throw new IllegalStateException("boltgen.server.services names '" + name
            + "', which is no generated service on the class path " + generated.keySet());
      }
      if (exportedBy.containsKey(name)) {
        continue; // also annotated: the same bean, or add() below would have found two
      }
      List<String> candidates = Arrays.stream(beans.getBeanNamesForType(service.serviceInterface()))
          .filter(candidate -> !isClient(beans, candidate))
          .toList();
      if (candidates.size() != 1) {
        throw new IllegalStateException("boltgen.server.services names '" + name + "': expected one bean"
            + " implementing " + service.serviceInterface().getName() + ", found " + candidates);
      }
      add(exports, exportedBy, service, beans.getBean(candidates.get(0)), candidates.get(0));
    }
    return exports;
  }

  private static boolean isClient(ConfigurableListableBeanFactory beans, String beanName) {
    return beans.containsBeanDefinition(beanName)
        && beans.getBeanDefinition(beanName).getAttribute(BoltClientRegistrar.CLIENT_ATTRIBUTE) != null;
  }

  private static void add(Map<String, ServiceDefinition> exports, Map<String, String> exportedBy,
      GeneratedService<?> service, Object bean, String beanName) {
    String name = service.descriptor().name();
    String previous = exportedBy.putIfAbsent(name, beanName);
    if (previous != null) {
      throw new IllegalStateException("service " + name + " is exported by two beans: '" + previous + "' and '"
          + beanName + "'");
    }
    exports.put(name, bind(service, bean));
  }

  private static <T> ServiceDefinition bind(GeneratedService<T> service, Object bean) {
    return service.bind(service.serviceInterface().cast(bean));
  }
}
