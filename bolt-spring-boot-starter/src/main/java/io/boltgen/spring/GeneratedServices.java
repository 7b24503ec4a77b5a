package io.boltgen.spring;

import io.boltgen.runtime.service.GeneratedService;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The generated services of a class loader, by Bolt service name, read from the index the processor writes
 * ({@code META-INF/services/io.boltgen.runtime.service.GeneratedService}): no class-path scan.
 */
final class GeneratedServices {

  private GeneratedServices() {}

  @SuppressWarnings("rawtypes") // ServiceLoader cannot name a parameterized service type
  static Map<String, GeneratedService<?>> byName(ClassLoader loader) {
    Map<String, GeneratedService<?>> services = new TreeMap<>();
    for (GeneratedService service : ServiceLoader.load(GeneratedService.class, loader)) {
      services.put(service.descriptor().name(), service);
    }
    return services;
  }
}
