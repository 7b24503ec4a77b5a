package io.boltgen.runtime;

import java.net.URL;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A service's name, version and methods. Immutable. Wire names, and method codes other than 0, are unique within it;
 * methods that share one wire name (a dialect whose requests all carry one className) are told apart by their
 * {@link MethodDescriptor#routingHeaders() routing headers} instead.
 */
public final class ServiceDescriptor {

  private final String name;
  private final String version;
  private final List<MethodDescriptor<?, ?>> methods;
  private final Resource openApi;
  private final Resource protoDescriptors;
  private final String registryName;
  private final WireProtocol wireProtocol;
  private final Map<String, String> registryMetadata;

  private ServiceDescriptor(String name, String version, List<MethodDescriptor<?, ?>> methods) {
    this(name, version, methods, null, null, null, null, Map.of());
  }

  /** A class-path resource, read through its owner's class loader. */
  private record Resource(Class<?> owner, String path) {
    Resource {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(path, "resource");
    }

    URL url() {
      ClassLoader loader = owner.getClassLoader();
      return loader != null ? loader.getResource(path) : ClassLoader.getSystemResource(path);
    }
  }

  private ServiceDescriptor(String name, String version, List<MethodDescriptor<?, ?>> methods,
      Resource openApi, Resource protoDescriptors, String registryName, WireProtocol wireProtocol,
      Map<String, String> registryMetadata) {
    this.registryName = registryName;
    this.wireProtocol = wireProtocol;
    this.registryMetadata = Map.copyOf(registryMetadata);
    this.openApi = openApi;
    this.protoDescriptors = protoDescriptors;
    this.name = Objects.requireNonNull(name, "name");
    this.version = Objects.requireNonNull(version, "version");
    this.methods = List.copyOf(methods);
    Map<String, MethodDescriptor<?, ?>> byWireName = new HashMap<>();
    Map<Integer, MethodDescriptor<?, ?>> byCode = new HashMap<>();
    for (MethodDescriptor<?, ?> method : this.methods) {
      MethodDescriptor<?, ?> sameName = byWireName.put(method.dispatchKey(), method);
      if (sameName != null) {
        throw new IllegalArgumentException("two methods with wire name " + method.dispatchKey());
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

  /**
   * This descriptor, with the OpenAPI document the processor generated for the service: the class-path
   * resource {@code resource} (such as {@code META-INF/boltgen/com.example.Inventory.openapi.json}), read
   * through {@code owner}'s class loader when a server that serves HTTP is asked for {@code /openapi.json}.
   */
  public ServiceDescriptor withOpenApi(Class<?> owner, String resource) {
    return new ServiceDescriptor(name, version, methods, new Resource(owner, resource), protoDescriptors,
        registryName, wireProtocol, registryMetadata);
  }

  /**
   * This descriptor, with the binary descriptors of the service's emitted {@code .proto} that the processor
   * generated: the class-path resource {@code resource} (such as
   * {@code META-INF/boltgen/com.example.Inventory.protoset}), a {@code google.protobuf.FileDescriptorSet} holding
   * that file after the files it imports, read through {@code owner}'s class loader by a server that answers gRPC
   * server reflection.
   */
  public ServiceDescriptor withProtoDescriptors(Class<?> owner, String resource) {
    return new ServiceDescriptor(name, version, methods, openApi, new Resource(owner, resource), registryName,
        wireProtocol, registryMetadata);
  }

  /**
   * A descriptor of the same service (name, version and OpenAPI document) with other methods, such as a
   * gateway's forwarding ones.
   */
  public ServiceDescriptor withMethods(List<MethodDescriptor<?, ?>> methods) {
    return new ServiceDescriptor(name, version, methods, openApi, protoDescriptors, registryName, wireProtocol,
        registryMetadata);
  }

  /**
   * A copy registered in a registry as {@code registryName} instead of {@code name:version}: SOFARPC services
   * are known there by SOFARPC's unique name, {@code interface:version[:uniqueId]}.
   */
  public ServiceDescriptor withRegistryName(String registryName) {
    if (registryName == null || registryName.isEmpty()) {
      throw new IllegalArgumentException("registryName must not be empty");
    }
    return new ServiceDescriptor(name, version, methods, openApi, protoDescriptors, registryName, wireProtocol,
        registryMetadata);
  }

  /**
   * A copy whose clients send {@code protocol}'s frames, whatever their client's own format: the format the
   * service's peers expect (SOFARPC's consumers send V1). Clients made for it by target (generated
   * {@code newClient(client, target)}, {@link BoltClient#stub}, injection) use it.
   */
  public ServiceDescriptor withWireProtocol(WireProtocol protocol) {
    return new ServiceDescriptor(name, version, methods, openApi, protoDescriptors, registryName,
        Objects.requireNonNull(protocol, "protocol"), registryMetadata);
  }

  /**
   * A copy whose registrations carry {@code metadata} over the server's own ({@code BoltServer.Builder.instance}):
   * what a registry says about this service alone, such as the serialization SOFARPC's consumers pick a
   * provider's codec by.
   */
  public ServiceDescriptor withRegistryMetadata(Map<String, String> metadata) {
    return new ServiceDescriptor(name, version, methods, openApi, protoDescriptors, registryName, wireProtocol,
        Objects.requireNonNull(metadata, "metadata"));
  }

  /** The metadata this service's registrations carry over the server's, empty unless set. */
  public Map<String, String> registryMetadata() {
    return registryMetadata;
  }

  /** The frame format the service's clients send, or {@code null} for their client's own. */
  public WireProtocol wireProtocol() {
    return wireProtocol;
  }

  /** The name a server registers the service by in a registry: {@code name:version} unless set otherwise. */
  public String registryName() {
    return registryName != null ? registryName : name + ':' + version;
  }

  /** The service's OpenAPI document, or {@code null} when it has none (a hand-built service). */
  public URL openApiDocument() {
    return openApi == null ? null : openApi.url();
  }

  /**
   * The binary descriptors of the service's {@code .proto} ({@link #withProtoDescriptors}), or {@code null} when it
   * has none (a hand-built service).
   */
  public URL protoDescriptors() {
    return protoDescriptors == null ? null : protoDescriptors.url();
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
