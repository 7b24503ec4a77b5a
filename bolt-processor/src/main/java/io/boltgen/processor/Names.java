package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Generated names: deterministic functions of the interface and the model. */
final class Names {

  static final String PROCESSOR = "io.boltgen.processor.BoltProcessor";

  static final String RUNTIME = "io.boltgen.runtime";
  /** The package of the SOFARPC dialect's runtime, module bolt-sofarpc. */
  static final String SOFARPC = "io.boltgen.sofarpc";
  /** The package of the Hessian reader and writer that SOFARPC's Hessian2 bodies use, module bolt-hessian. */
  static final String HESSIAN = "io.boltgen.hessian";
  static final ClassName BOLT_CHANNEL = ClassName.get(RUNTIME, "BoltChannel");
  static final ClassName BOLT_CLIENT = ClassName.get(RUNTIME, "BoltClient");
  static final ClassName BOLT_EXCEPTION = ClassName.get(RUNTIME, "BoltException");
  static final ClassName CALL_OPTIONS = ClassName.get(RUNTIME, "CallOptions");
  static final ClassName RESPONSE_STATUS = ClassName.get(RUNTIME, "ResponseStatus");
  static final ClassName MARSHALLER = ClassName.get(RUNTIME + ".codec", "Marshaller");
  static final ClassName METHOD_DESCRIPTOR = ClassName.get(RUNTIME, "MethodDescriptor");
  static final ClassName METHOD_TYPE = ClassName.get(RUNTIME, "MethodType");
  static final ClassName SERVICE_DESCRIPTOR = ClassName.get(RUNTIME, "ServiceDescriptor");
  static final ClassName SERVICE_DEFINITION = ClassName.get(RUNTIME, "ServiceDefinition");
  static final ClassName SERVICE_INVOKER = ClassName.get(RUNTIME, "ServiceInvoker");
  static final ClassName SERVER_CALL = ClassName.get(RUNTIME, "ServerCall");
  static final ClassName PUBLISHERS = ClassName.get(RUNTIME, "Publishers");
  static final ClassName FLOW_PUBLISHER_CLASS = ClassName.get("java.util.concurrent", "Flow", "Publisher");
  static final ClassName GENERATED_SERVICE = ClassName.get(RUNTIME + ".service", "GeneratedService");
  static final ClassName PROTO_MARSHALLER = ClassName.get(RUNTIME + ".codec.protobuf", "ProtoMarshaller");
  static final ClassName MESSAGE_MARSHALLER = ClassName.get(RUNTIME + ".codec.protobuf", "MessageMarshaller");
  static final ClassName PROTO_ENCODER = ClassName.get(RUNTIME + ".codec.protobuf", "ProtoEncoder");
  static final ClassName PROTO_DECODER = ClassName.get(RUNTIME + ".codec.protobuf", "ProtoDecoder");
  static final ClassName PROTO_SIZES = ClassName.get(RUNTIME + ".codec.protobuf", "ProtoSizes");
  static final ClassName FAILURE_MARSHALLER = ClassName.get(RUNTIME + ".codec", "FailureMarshaller");
  static final ClassName ARRAY_VALUES = ClassName.get(RUNTIME + ".codec", "ArrayValues");
  static final ClassName SOFA_RPC = ClassName.get(SOFARPC, "SofaRpc");
  static final ClassName SOFA_RPC_PROTOBUF = ClassName.get(SOFARPC, "SofaRpcProtobuf");
  static final ClassName SOFA_RPC_HESSIAN = ClassName.get(SOFARPC, "SofaRpcHessian");
  static final ClassName SOFA_RPC_DECLARED_EXCEPTION = SOFA_RPC_HESSIAN.nestedClass("DeclaredException");
  static final ClassName SOFA_RPC_JDK_TYPES = ClassName.get(SOFARPC, "SofaRpcJdkTypes");
  static final ClassName HESSIAN_CLASS = ClassName.get(HESSIAN, "HessianClass");
  static final ClassName HESSIAN_TYPE = ClassName.get(HESSIAN, "HessianType");
  static final ClassName HESSIAN_WRITER = ClassName.get(HESSIAN, "HessianWriter");
  static final ClassName HESSIAN_READER = ClassName.get(HESSIAN, "HessianReader");
  /** The package of the JSON runtime, module bolt-json. */
  static final String JSON = "io.boltgen.json";
  static final ClassName JSON_FORMS = ClassName.get(JSON, "JsonForms");
  static final ClassName JSON_MARSHALLER = ClassName.get(JSON, "JsonMarshaller");
  static final ClassName JSON_READER = ClassName.get(JSON, "JsonReader");
  static final ClassName JSON_VALUES = ClassName.get(JSON, "JsonValues");
  static final ClassName JSON_WRITER = ClassName.get(JSON, "JsonWriter");
  static final ClassName JSON_FIELDS = ClassName.get(JSON, "JsonFields");
  static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");

  static final String INJECT = "jakarta.inject";
  static final ClassName INJECT_PROVIDER = ClassName.get(INJECT, "Provider");
  static final ClassName INJECT_INJECT = ClassName.get(INJECT, "Inject");
  static final ClassName INJECT_NAMED = ClassName.get(INJECT, "Named");

  static final String ANNOTATIONS = "io.boltgen.annotation";
  static final String BOLT_SERVICE = ANNOTATIONS + ".BoltService";
  static final String BOLT_METHOD = ANNOTATIONS + ".BoltMethod";
  static final String ONEWAY = ANNOTATIONS + ".Oneway";
  static final String IDEMPOTENT = ANNOTATIONS + ".Idempotent";
  static final String BOLT_FIELD = ANNOTATIONS + ".BoltField";
  static final String BOLT_ENUM_VALUE = ANNOTATIONS + ".BoltEnumValue";
  static final String BOLT_MESSAGE = ANNOTATIONS + ".BoltMessage";
  static final String BOLT_SCALAR = ANNOTATIONS + ".BoltScalar";
  static final String BOLT_CALLBACK = ANNOTATIONS + ".BoltCallback";
  static final String FLOW_PUBLISHER = "java.util.concurrent.Flow.Publisher";
  static final String SOFA_RPC_SERVICE = ANNOTATIONS + ".SofaRpcService";
  static final String SOFA_RPC_CLASS = ANNOTATIONS + ".SofaRpcClass";

  /**
   * The annotations the processor claims, so that javac's {@code -Xlint:processing} does not warn that no
   * processor claimed them: its own, and {@code @Generated}, which marks the code it generates (the next
   * round compiles that code) and is meant for tools, not processors.
   */
  static final Set<String> CLAIMED =
      Set.of(BOLT_SERVICE, BOLT_METHOD, ONEWAY, IDEMPOTENT, BOLT_FIELD, BOLT_MESSAGE, BOLT_ENUM_VALUE, BOLT_SCALAR,
          SOFA_RPC_SERVICE, SOFA_RPC_CLASS, GENERATED.canonicalName());

  static final String SERVICES_FILE = "META-INF/services/io.boltgen.runtime.service.GeneratedService";

  /** Members of the generated stub: an RPC method must not be named like one of them. */
  static final Set<String> STUB_MEMBERS = Set.of("create", "withTimeout", "withOptions", "options");

  /** Methods of {@code Object}: an RPC method must not be named like one of them. */
  static final Set<String> OBJECT_METHODS =
      Set.of("equals", "hashCode", "toString", "getClass", "notify", "notifyAll", "wait", "clone", "finalize");

  private Names() {}

  /**
   * The classes generated for one interface. {@code clientProvider}, the {@code jakarta.inject.Provider} of
   * client stubs, is generated only when jakarta.inject is on the class path, but its name is reserved
   * always: adding jakarta.inject to a build must not turn a user's class into a name clash.
   */
  record Generated(ClassName holder, ClassName stub, ClassName skeleton, ClassName codecs, ClassName json,
      ClassName provider, ClassName clientProvider, ClassName sofaRpc) {
    static Generated of(ClassName iface) {
      String flat = String.join("_", iface.simpleNames());
      String pkg = iface.packageName();
      return new Generated(ClassName.get(pkg, flat + "Bolt"), ClassName.get(pkg, flat + "BoltStub"),
          ClassName.get(pkg, flat + "BoltSkeleton"), ClassName.get(pkg, flat + "BoltCodecs"),
          ClassName.get(pkg, flat + "BoltJson"), ClassName.get(pkg, flat + "BoltProvider"),
          ClassName.get(pkg, flat + "BoltClientProvider"), ClassName.get(pkg, flat + "BoltSofaRpc"));
    }

    /** Every generated class name, the client provider's included. */
    List<ClassName> all() {
      return List.of(holder, stub, skeleton, codecs, json, provider, clientProvider, sofaRpc);
    }
  }

  /** The resource path of the {@code .proto} of {@code iface}. */
  static String protoFile(ClassName iface) {
    return "META-INF/boltgen/" + iface.canonicalName() + ".proto";
  }

  /**
   * The resource path of the binary descriptors of that {@code .proto} (a {@code FileDescriptorSet}, as
   * {@code protoc --include_imports --descriptor_set_out} writes it).
   */
  static String descriptorSetFile(ClassName iface) {
    return "META-INF/boltgen/" + iface.canonicalName() + ".protoset";
  }

  /** {@code demo.Inventory} → proto package {@code demo.inventory}. */
  static String protoPackage(String serviceName) {
    StringBuilder out = new StringBuilder();
    for (String segment : serviceName.split("\\.")) {
      if (out.length() > 0) {
        out.append('.');
      }
      out.append(identifier(segment).toLowerCase(Locale.ROOT));
    }
    return out.toString();
  }

  /** {@code demo.Inventory} → proto service {@code Inventory}. */
  static String protoService(String serviceName) {
    return identifier(serviceName.substring(serviceName.lastIndexOf('.') + 1));
  }

  private static String identifier(String s) {
    String id = s.replace('-', '_');
    return id.isEmpty() || Character.isDigit(id.charAt(0)) ? "_" + id : id;
  }

  /**
   * The JSON name of the {@code .proto} field {@code fieldName}, by protoc's rule: underscores dropped, the letter
   * after each one capitalized ({@code hold_millis} → {@code holdMillis}).
   */
  static String jsonName(String fieldName) {
    StringBuilder out = new StringBuilder(fieldName.length());
    boolean capitalizeNext = false;
    for (int i = 0; i < fieldName.length(); i++) {
      char c = fieldName.charAt(i);
      if (c == '_') {
        capitalizeNext = true;
      } else if (capitalizeNext) {
        out.append(c >= 'a' && c <= 'z' ? (char) (c - 'a' + 'A') : c);
        capitalizeNext = false;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** {@code get} → {@code Get}. */
  static String capitalize(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** {@code reserveAll} → {@code RESERVE_ALL}; {@code Outer_Color} → {@code OUTER_COLOR}. */
  static String upperSnake(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isUpperCase(c) && i > 0) {
        char p = s.charAt(i - 1);
        boolean nextLower = i + 1 < s.length() && Character.isLowerCase(s.charAt(i + 1));
        if (Character.isLowerCase(p) || Character.isDigit(p) || (Character.isUpperCase(p) && nextLower)) {
          out.append('_');
        }
      }
      out.append(Character.toUpperCase(c));
    }
    return out.toString().replace("__", "_");
  }

  /** {@code name}, or {@code name_} (repeatedly) while it is in {@code taken}. */
  static String unique(String name, Set<String> taken) {
    String n = name;
    while (taken.contains(n)) {
      n = n + "_";
    }
    return n;
  }
}
