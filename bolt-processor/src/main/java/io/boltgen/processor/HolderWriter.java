package io.boltgen.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.boltgen.processor.Model.MappedException;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.Param;
import io.boltgen.processor.Model.Service;
import io.boltgen.processor.Model.Style;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XxxBolt}, the public entry point of a service: its constants, one {@code MethodDescriptor}
 * per method (the command-code table), the request records, the client factories and {@code bind}.
 */
final class HolderWriter {

  private final Service service;
  private final Names.Generated names;
  private final JsonSupport json;
  private final SofaRpcModel sofa;

  /**
   * {@code sofa}: the service's SOFARPC dialect, or {@code null} for boltgen's own; {@code json}: whether its JSON
   * codecs are generated (bolt-json is on the class path), so that its descriptors carry them.
   */
  HolderWriter(Service service, SofaRpcModel sofa, boolean json) {
    this.service = service;
    this.sofa = sofa;
    this.names = Names.Generated.of(service.iface());
    this.json = json ? new JsonSupport(service) : null;
  }

  /** The descriptor constant of {@code m}: {@code METHOD_} and its wire name in upper snake case. */
  static String descriptorName(Method m) {
    return "METHOD_" + Names.upperSnake(m.wireMethodName());
  }

  /**
   * The method id constant of {@code m}, {@code METHODID_} and its wire name in upper snake case: the key
   * of the skeleton's {@code switch}, the method's position in the service (0, 1, 2…).
   */
  static String methodIdName(Method m) {
    return "METHODID_" + descriptorName(m).substring("METHOD_".length());
  }

  /** The codecs' marshaller constant of {@code m}'s request or response: {@code GET_REQUEST}. */
  static String marshallerName(Method m, boolean request) {
    return descriptorName(m).substring("METHOD_".length()) + (request ? "_REQUEST" : "_RESPONSE");
  }

  JavaFile write() {
    TypeSpec.Builder type = TypeSpec.classBuilder(names.holder())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addAnnotation(Writers.generated());
    Writers.suppressDeprecation(type, service);
    type.addJavadoc("Bolt RPC entry point of {@link $T}: service {@code $L}, version {@code $L}.\n",
        service.iface(), service.serviceName(), service.version());
    if (service.javadoc() != null) {
      type.addJavadoc("\n<p>$L\n", service.javadoc());
    }
    type.addJavadoc("\n<p>Clients: {@link #newClient(BoltChannel)}. Servers: {@link #bind}. The {@code .proto}"
        + " description is the resource {@code $L}.\n", Names.protoFile(service.iface()));
    type.addField(FieldSpec.builder(String.class, "SERVICE_NAME", Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The service name on the wire.\n").initializer("$S", service.serviceName()).build());
    type.addField(FieldSpec.builder(String.class, "SERVICE_VERSION", Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The service version on the wire.\n").initializer("$S", service.version()).build());
    for (int i = 0; i < service.methods().size(); i++) {
      Method m = service.methods().get(i);
      type.addField(FieldSpec.builder(int.class, methodIdName(m), Modifier.STATIC, Modifier.FINAL)
          .addJavadoc("The method id of {@link $T#$L}: the key of the skeleton's switch, never on the wire.\n",
              service.iface(), m.javaName())
          .initializer("$L", i)
          .build());
    }
    for (Method m : service.methods()) {
      type.addField(descriptor(m));
    }
    type.addField(FieldSpec.builder(Names.SERVICE_DESCRIPTOR, "DESCRIPTOR", Modifier.PRIVATE, Modifier.STATIC,
            Modifier.FINAL)
        .initializer(sofa != null
            ? CodeBlock.builder()
                .add("$T.of(SERVICE_NAME, SERVICE_VERSION, $T.of($>$>$L))$<$<\n$>$>", Names.SERVICE_DESCRIPTOR,
                    List.class,
                    service.methods().stream().map(m -> "\n" + descriptorName(m)).collect(Collectors.joining(",")))
                .add(".withRegistryName($S)\n", sofa.uniqueName())
                .add(".withWireProtocol($T.WIRE_PROTOCOL)\n", Names.SOFA_RPC)
                .add(".withRegistryMetadata($T.of($T.SERIALIZATION, $S))$<$<", Map.class, Names.SOFA_RPC,
                    sofa.serializer() == SofaRpcModel.Serializer.PROTOBUF ? "protobuf" : "hessian2")
                .build()
            : CodeBlock.of("$T.of(SERVICE_NAME, SERVICE_VERSION, $T.of($>$>$L))$<$<\n$>$>.withOpenApi($T.class, $S)\n"
                + ".withProtoDescriptors($T.class, $S)$<$<",
                Names.SERVICE_DESCRIPTOR, List.class,
                service.methods().stream().map(m -> "\n" + descriptorName(m)).collect(Collectors.joining(",")),
                names.holder(), OpenApiWriter.fileName(service.iface()), names.holder(),
                Names.descriptorSetFile(service.iface())))
        .build());
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    type.addMethod(MethodSpec.methodBuilder("descriptor")
        .addJavadoc("The service's descriptor: its name, version and methods.\n")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Names.SERVICE_DESCRIPTOR)
        .addStatement("return DESCRIPTOR")
        .build());
    type.addMethod(MethodSpec.methodBuilder("newClient")
        .addJavadoc("A client stub sending every call over {@code channel}, with default call options.\n")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(names.stub())
        .addParameter(Names.BOLT_CHANNEL, "channel")
        .addStatement("return $T.create(channel)", names.stub())
        .build());
    type.addMethod(sofa == null
        ? MethodSpec.methodBuilder("newClient")
            .addJavadoc("A client stub talking to {@code hostAndPort} through {@code client}'s connections.\n")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(names.stub())
            .addParameter(Names.BOLT_CLIENT, "client")
            .addParameter(String.class, "hostAndPort")
            .addStatement("return $T.create(client.channel(hostAndPort))", names.stub())
            .build()
        : MethodSpec.methodBuilder("newClient")
            .addJavadoc("A client stub talking to {@code hostAndPort} through {@code client}'s connections that send"
                + " SOFARPC's frames ({@link $T#WIRE_PROTOCOL}); for another format, pass\n"
                + "{@code client.channel(hostAndPort, protocol)} to {@link #newClient($T)}.\n", Names.SOFA_RPC,
                Names.BOLT_CHANNEL)
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(names.stub())
            .addParameter(Names.BOLT_CLIENT, "client")
            .addParameter(String.class, "hostAndPort")
            .addStatement("return $T.create(client.channel(hostAndPort, DESCRIPTOR.wireProtocol()))", names.stub())
            .build());
    type.addMethod(MethodSpec.methodBuilder("bind")
        .addJavadoc("A definition serving this service with {@code implementation}, to register with a server"
            + " (or with a client, for duplex calls).\n")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Names.SERVICE_DEFINITION)
        .addParameter(service.iface(), "implementation")
        .addStatement("return $T.of(DESCRIPTOR, new $T(implementation))", Names.SERVICE_DEFINITION, names.skeleton())
        .build());
    boolean needsCause = false;
    for (Method m : service.methods()) {
      if (!m.exceptions().isEmpty()) {
        type.addMethod(errorMapper(m));
        needsCause = true;
      }
    }
    if (needsCause) {
      type.addMethod(MethodSpec.methodBuilder("withCause")
          .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
          .returns(Throwable.class)
          .addParameter(Throwable.class, "mapped")
          .addParameter(Names.BOLT_EXCEPTION, "error")
          .beginControlFlow("try")
          .addStatement("mapped.initCause(error)")
          .nextControlFlow("catch ($T ignored)", IllegalStateException.class)
          .addComment("the exception's constructor chose its own cause")
          .endControlFlow()
          .addStatement("return mapped")
          .build());
    }
    for (Method m : service.methods()) {
      type.addType(requestRecord(m));
    }
    return Writers.file(service, type.build());
  }

  private FieldSpec descriptor(Method m) {
    ClassName request = (ClassName) m.request().javaType();
    String codecRequest = marshallerName(m, true);
    String codecResponse = marshallerName(m, false);
    ClassName codecs = sofa != null ? names.sofaRpc() : names.codecs();
    CodeBlock.Builder init = CodeBlock.builder()
        .add("$T\n", Names.METHOD_DESCRIPTOR)
        .indent().indent()
        .add(".newBuilder($T.$L, $T.$L)\n", codecs, codecRequest, codecs, codecResponse);
    if (sofa == null && json != null && json.supports(m)) {
      init.add(".extension($T.class, $T.of($T.$L, $T.$L))\n", Names.JSON_FORMS, Names.JSON_FORMS, names.json(),
          codecRequest, names.json(), codecResponse);
    }
    init.add(".serviceName(SERVICE_NAME)\n")
        .add(".serviceVersion(SERVICE_VERSION)\n")
        .add(".methodName($S)\n", m.wireMethodName());
    if (sofa != null) {
      init.add(".wireName($T.REQUEST_CLASS)\n", Names.SOFA_RPC)
          .add(".responseClassName($T.RESPONSE_CLASS)\n", Names.SOFA_RPC)
          .add(".requestHeaders($T.requestHeaders($S, $S, $S, $S, $S))\n", Names.SOFA_RPC, sofa.uniqueName(),
              m.wireMethodName(), sofa.targetApp(), SofaRpcWriter.invokeType(m.style()), sofa.app())
          .add(".routingHeaders($T.ROUTING_HEADERS)\n", Names.SOFA_RPC);
    } else {
      init.add(".protoService($S)\n", service.protoPackage() + "." + service.protoServiceName())
          .add(".responseClassName($S)\n", service.protoPackage() + "." + m.response().protoName())
          .add(".alias($S)\n", request.reflectionName());
    }
    init.add(".methodCode($L)\n", methodIdName(m))
        .add(".type($T.$L)\n", Names.METHOD_TYPE, switch (m.style()) {
          case ONEWAY -> "ONEWAY";
          case STREAM -> "SERVER_STREAMING";
          case CLIENT_STREAM -> "CLIENT_STREAMING";
          case BIDI_STREAM -> "BIDI_STREAMING";
          default -> "REQUEST_RESPONSE";
        })
        .add(".timeoutMillis($LL)\n", m.timeoutMillis());
    if (m.idempotent()) {
      init.add(".idempotent(true)\n"); // false is the builder's default: other methods say nothing
    }
    if (!m.exceptions().isEmpty()) {
      init.add(".errorMapper($T::map$LError)\n", names.holder(), Names.capitalize(m.javaName()));
    }
    init.add(".build()").unindent().unindent();
    return FieldSpec.builder(ParameterizedTypeName.get(Names.METHOD_DESCRIPTOR, request, m.resultType()),
            descriptorName(m), Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("{@link $T#$L}: $L, $L$L.\n", service.iface(), m.javaName(), sofa != null
            ? "SOFARPC service {@code " + sofa.uniqueName() + "}, method {@code " + m.wireMethodName() + "}"
            : "className {@code " + m.wireName(service.serviceName(), service.version()) + "}", style(m.style()),
            m.idempotent() ? ", idempotent" : "")
        .initializer(init.build())
        .build();
  }

  /** The call style as the docs name it: sync, future, callback, oneway, stream, client stream, bidi stream. */
  static String style(Style style) {
    return style.name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }

  private MethodSpec errorMapper(Method m) {
    MethodSpec.Builder b = MethodSpec.methodBuilder("map" + Names.capitalize(m.javaName()) + "Error")
        .addJavadoc("Rebuilds the declared exceptions of {@link $T#$L} from a {@code SERVER_EXCEPTION}.\n",
            service.iface(), m.javaName())
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Throwable.class)
        .addParameter(Names.BOLT_EXCEPTION, "error")
        .beginControlFlow("if (error.status() != $T.SERVER_EXCEPTION || error.remoteClassName() == null)",
            Names.RESPONSE_STATUS)
        .addStatement("return error")
        .endControlFlow()
        .addCode("return switch (error.remoteClassName()) {\n$>");
    boolean whole = sofa != null && sofa.serializer() == SofaRpcModel.Serializer.HESSIAN2;
    for (MappedException ex : m.exceptions()) {
      if (whole) { // SOFARPC's Hessian2 carries the exception with its fields: the codec rebuilt it
        b.addCode("case $S -> withCause(error.remoteException() instanceof $T rebuilt ? rebuilt\n$>$>: new $T("
            + "error.remoteMessage()), error);$<$<\n", sofa.remoteName(ex.className()), ex.className(), ex.className());
      } else {
        b.addCode("case $S -> withCause(new $T(error.remoteMessage()), error);\n",
            sofa != null ? sofa.remoteName(ex.className()) : ex.binaryName(), ex.className());
      }
    }
    b.addCode("default -> error;\n");
    b.addCode("$<};\n");
    return b.build();
  }

  private TypeSpec requestRecord(Method m) {
    ClassName request = (ClassName) m.request().javaType();
    MethodSpec.Builder ctor = MethodSpec.constructorBuilder();
    for (Param p : m.params()) {
      // a stream of requests carries one of the publisher's items in each record
      TypeName component = m.style().streamsRequests() ? Model.streamed(p.javaType()) : p.javaType();
      ctor.addParameter(ParameterSpec.builder(component, p.name()).build());
    }
    TypeSpec.Builder record = TypeSpec.recordBuilder(request.simpleName())
        .addModifiers(Modifier.PUBLIC)
        .addJavadoc("$L{@link $T#$L}: message {@code $L.$L}.\n", Model.requestNoun(m), service.iface(), m.javaName(),
            service.protoPackage(), m.request().protoName());
    if (!m.params().isEmpty()) {
      record.addJavadoc("\n");
    }
    for (Param p : m.params()) {
      record.addJavadoc(m.style().streamsRequests() ? "@param $L one request of {@code $L}, field $L\n"
          : "@param $L the argument {@code $L}, field $L\n", p.name(), p.name(), m.params().indexOf(p) + 1);
    }
    if (m.params().stream().anyMatch(p -> p.javaType() instanceof ArrayTypeName)) {
      // an argument record only carries the arguments from the stub to the codec; it is never compared or hashed
      record.addAnnotation(AnnotationSpec.builder(SuppressWarnings.class)
          .addMember("value", "$S", "ArrayRecordComponent").build());
    }
    return record.recordConstructor(ctor.build()).build();
  }
}
