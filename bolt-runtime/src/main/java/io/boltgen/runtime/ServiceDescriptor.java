package io.boltgen.runtime;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A service's name, version and methods. Immutable. Wire names, and method codes other than 0, are unique within it.
 */
public final class ServiceDescriptor {

  private final String name;
  private final String version;
  private final List<MethodDescriptor<?, ?>> methods;

  private ServiceDescriptor(String name, String version, List<MethodDescriptor<?, ?>> methods) {
    this.name = Objects.requireNonNull(name, "name");
    this.version = Objects.requireNonNull(version, "version");
    this.methods = List.copyOf(methods);
    Map<String, MethodDescriptor<?, ?>> byWireName = new HashMap<>();
    Map<Integer, MethodDescriptor<?, ?>> byCode = new HashMap<>();
    for (MethodDescriptor<?, ?> method : this.methods) {
      MethodDescriptor<?, ?> sameName = byWireName.put(method.wireName(), method);
      if (sameName != null) {
        throw new IllegalArgumentException("two methods with wire name " + method.wireName());
      }
      MethodDescriptor<?, ?> sameCode = method.methodCode() == 0 ? null : byCode.put(method.methodCode(), method);
      if (sameCode != null) {
        throw new IllegalArgumentException("methods " + sameCode.wireName() + " and " + method.wireName()
            + " share method code " + method.methodCode());
      }
    }
  }

  /** A descriptor of service {@code name} at {@code version} with these methods. */
  public static ServiceDescriptor of(String name, String version, List<MethodDescriptor<?, ?>> methods) {
    return new ServiceDescriptor(name, version, methods);
  }

  /** The service name. */
  public String name() {
    return name;
  }

  /** The service version. */
  public String version() {
    return version;
  }

  /** The methods, in declaration order. */
  public List<MethodDescriptor<?, ?>> methods() {
    return methods;
  }

  @Override
  public String toString() {
    return name + ':' + version + methods;
  }
}
