package io.boltgen.runtime.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds generated services through {@link ServiceLoader} for {@link GeneratedService#of} and
 * {@link GeneratedService#all}: the processor lists every generated {@link GeneratedService} in
 * {@code META-INF/services/io.boltgen.runtime.service.GeneratedService}.
 *
 * <p>Thread-safe: the registry per class loader is a concurrent map filled once.
 */
final class ServiceLookup {

  private static final Map<ClassLoader, Map<Class<?>, GeneratedService<?>>> BY_LOADER = new ConcurrentHashMap<>();

  private ServiceLookup() {}

  @SuppressWarnings("unchecked") // entries are keyed by their own serviceInterface()
  static <T> GeneratedService<T> of(Class<T> serviceInterface) {
    ClassLoader loader = serviceInterface.getClassLoader();
    Map<Class<?>, GeneratedService<?>> services = BY_LOADER.computeIfAbsent(loader, ServiceLookup::load);
    GeneratedService<?> service = services.get(serviceInterface);
    if (service == null) {
      throw new IllegalArgumentException("no generated boltgen service for " + serviceInterface.getName()
          + ": is it annotated @BoltService, and is io.boltgen:bolt-processor declared under the compiler's"
          + " annotationProcessorPaths (JDK 23+ ignores processors found only on the class path)?");
    }
    return (GeneratedService<T>) service;
  }

  static List<GeneratedService<?>> all(ClassLoader loader) {
    return new ArrayList<>(BY_LOADER.computeIfAbsent(loader, ServiceLookup::load).values());
  }

  @SuppressWarnings("rawtypes") // ServiceLoader cannot name a parameterized service type
  private static Map<Class<?>, GeneratedService<?>> load(ClassLoader loader) {
    Map<Class<?>, GeneratedService<?>> services = new ConcurrentHashMap<>();
    for (GeneratedService service : ServiceLoader.load(GeneratedService.class, loader)) {
      services.put(service.serviceInterface(), service);
    }
    return services;
  }
}
