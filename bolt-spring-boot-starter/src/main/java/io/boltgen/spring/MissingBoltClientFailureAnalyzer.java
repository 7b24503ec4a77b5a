package io.boltgen.spring;

import io.boltgen.runtime.service.GeneratedService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.UnsatisfiedDependencyException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Reports a missing bean whose type is a boltgen service interface: the client bean the application injects
 * has no target. Instead of Spring's "consider defining a bean", it names the property to set, in both
 * spellings (a file's brackets, the environment's named entry), and the services that are configured. Ordered
 * before Spring Boot's own analysis of a missing bean, which would otherwise answer first.
 */
final class MissingBoltClientFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException>
    implements Ordered {

  private final Environment environment;

  MissingBoltClientFailureAnalyzer(Environment environment) {
    this.environment = environment;
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
    Class<?> type = cause.getResolvableType() != null ? cause.getResolvableType().resolve() : cause.getBeanType();
    if (type == null || !type.isInterface()) {
      return null;
    }
    GeneratedService<?> service = null;
    for (GeneratedService<?> s : GeneratedServices.byName(type.getClassLoader()).values()) {
      if (s.serviceInterface() == type) {
        service = s;
      }
    }
    if (service == null) {
      return null; // not a boltgen service: Spring Boot's own analysis applies
    }
    String name = service.descriptor().name();
    String requiredBy = requiredBy(rootFailure);
    StringBuilder description = new StringBuilder()
        .append(requiredBy != null ? "Bean '" + requiredBy + "' needs" : "The application needs").append(" a ")
        .append(type.getName()).append(", the client of boltgen service ").append(name).append(", and there is")
        .append(" none: ").append(ClientEntries.PREFIX).append(" gives ").append(name).append(" no target.");
    List<String> configured = configured();
    description.append(configured.isEmpty() ? " No service is configured there."
        : " Configured there: " + String.join(", ", configured) + ".");
    String alias = ClientEntries.alias(name);
    String action = "Set the target of " + name + ", in a properties file (in brackets, as the name holds dots): "
        + ClientEntries.PREFIX + "[" + name + "].target=host:port; or in the environment: "
        + ClientEntries.environmentVariable(alias, "SERVICE") + "=" + name + " and "
        + ClientEntries.environmentVariable(alias, "TARGET") + "=host:port. A target may also be a cluster, "
        + "such as etcd:///" + name + ":" + service.descriptor().version() + ".";
    return new FailureAnalysis(description.toString(), action, cause);
  }

  /** The bean whose dependency was missing, if Spring said. */
  private static String requiredBy(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof UnsatisfiedDependencyException unsatisfied && unsatisfied.getBeanName() != null) {
        return unsatisfied.getBeanName();
      }
    }
    return null;
  }

  /** The configured entries, each with its service and whether it has a target. */
  private List<String> configured() {
    List<String> entries = new ArrayList<>();
    if (environment == null) {
      return entries;
    }
    Map<String, BoltClientProperties.Service> services = Binder.get(environment)
        .bind(ClientEntries.PREFIX, org.springframework.boot.context.properties.bind.Bindable.mapOf(String.class,
            BoltClientProperties.Service.class)).orElse(Map.of());
    services.forEach((key, entry) -> {
      String service = entry.getService() != null && !entry.getService().isBlank() ? entry.getService().strip() : key;
      entries.add("[" + key + "]" + (service.equals(key) ? "" : " (service " + service + ")")
          + (entry.getTarget() == null || entry.getTarget().isBlank() ? " without a target" : " -> " + entry.getTarget()));
    });
    return entries;
  }
}
