package io.boltgen.processor;

import com.palantir.javapoet.TypeName;
import java.util.List;
import java.util.Map;

/**
 * A service's SOFARPC dialect ({@code @SofaRpcService}): the SOFARPC interface, version, uniqueId, serializer
 * and application names, and the class name the SOFARPC side knows each record, enum and declared exception by.
 *
 * @param remoteNames per Java type of the service (records, enums, declared exceptions): its SOFARPC class name
 * @param exceptions the exceptions the methods declare, each once, a subclass before its superclasses (so that the
 *     first {@code instanceof} that matches a failure is its own class's), with the fields a Hessian2 service
 *     carries (none for protobuf)
 */
record SofaRpcModel(String interfaceName, String version, String uniqueId, Serializer serializer, String targetApp,
    String app, Map<TypeName, String> remoteNames, List<SofaRpcExceptions.ExceptionForm> exceptions) {

  /** SOFARPC's serializers boltgen speaks. */
  enum Serializer {
    HESSIAN2,
    PROTOBUF
  }

  /** SOFARPC's unique name of the service: {@code interface:version[:uniqueId]}. */
  String uniqueName() {
    String base = interfaceName + ':' + version;
    return uniqueId.isEmpty() ? base : base + ':' + uniqueId;
  }

  /** The SOFARPC class name of {@code type} (a record, an enum or a declared exception). */
  String remoteName(TypeName type) {
    String name = remoteNames.get(type);
    if (name == null) {
      throw new IllegalArgumentException("no SOFARPC name for " + type);
    }
    return name;
  }
}
