package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.WildcardTypeName;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.Service;
import io.boltgen.processor.Model.Style;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XxxBoltSofaRpc} for a service in SOFARPC's dialect: one request and one response marshaller per
 * method in SOFARPC's serializer and, for Hessian2, a {@code HessianType} per record and enum that writes it as
 * the SOFARPC side's class, field by field and without reflection. A pure function of the model.
 */
final class SofaRpcWriter {

  private final Service service;
  private final SofaRpcModel sofa;
  private final Names.Generated names;
  private final SofaRpcTypes types;

  SofaRpcWriter(Service service, SofaRpcModel sofa) {
    this.service = service;
    this.sofa = sofa;
    this.names = Names.Generated.of(service.iface());
    this.types = new SofaRpcTypes(sofa, names.sofaRpc());
  }

  JavaFile write() {
    TypeSpec.Builder type = TypeSpec.classBuilder(names.sofaRpc())
        .addJavadoc("SOFARPC's $L bodies of {@link $T}'s methods, for SOFARPC service {@code $L}.\n",
            sofa.serializer() == SofaRpcModel.Serializer.PROTOBUF ? "protobuf" : "Hessian2", service.iface(),
            sofa.uniqueName())
        .addAnnotation(Writers.generated())
        .addModifiers(Modifier.FINAL);
    Writers.suppressDeprecation(type, service);
    if (sofa.serializer() == SofaRpcModel.Serializer.HESSIAN2) {
      for (Model.Enumeration e : service.enums()) {
        type.addField(types.typeConstant(e.className()));
        type.addType(types.enumType(e));
      }
      for (Message message : service.messages()) {
        if (message.kind() == Model.MessageKind.NESTED) {
          continue; // a collection inside a collection: Hessian2 writes the collection itself
        }
        type.addField(types.typeConstant((ClassName) message.javaType()));
        type.addType(types.recordType(message));
      }
      for (SofaRpcExceptions.ExceptionForm form : sofa.exceptions()) {
        type.addField(types.typeConstant(form.className()));
        type.addType(types.exceptionType(form));
      }
      type.addField(declaredExceptions());
    }
    for (Method m : service.methods()) {
      type.addField(sofa.serializer() == SofaRpcModel.Serializer.PROTOBUF ? protobufRequest(m) : hessianRequest(m));
      type.addField(sofa.serializer() == SofaRpcModel.Serializer.PROTOBUF ? protobufResponse(m) : hessianResponse(m));
    }
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    if (sofa.serializer() == SofaRpcModel.Serializer.PROTOBUF) {
      type.addMethod(remoteName());
    }
    return Writers.file(service, type.build());
  }

  /** The SOFARPC invoke type of a call style: {@code sync}, {@code future}, {@code callback} or {@code oneway}. */
  static String invokeType(Style style) {
    return style.name().toLowerCase(Locale.ROOT);
  }

  private FieldSpec protobufRequest(Method m) {
    ClassName request = (ClassName) m.request().javaType();
    Field arg = m.request().fields().get(0);
    int defaultTag = defaultTag(arg.type());
    CodeBlock init = CodeBlock.of("$T.request($L,\n$>$>$T::$L,\n$T::new,\n$L)$<$<", Names.SOFA_RPC_PROTOBUF,
        protoMarshaller(arg.type()), request, arg.name(), request, defaultTag);
    return FieldSpec.builder(ParameterizedTypeName.get(Names.MARSHALLER, request),
            HolderWriter.marshallerName(m, true), Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The request of {@link $T#$L}: its argument's message$L.\n", service.iface(), m.javaName(),
            whenDefault(defaultTag))
        .initializer(init)
        .build();
  }

  private FieldSpec protobufResponse(Method m) {
    int defaultTag = m.style() == Style.ONEWAY ? 0 : defaultTag(m.response().fields().get(0).type());
    CodeBlock init = m.style() == Style.ONEWAY
        ? CodeBlock.of("$T.response($T.$L, $T::remoteName, 0)", Names.SOFA_RPC_PROTOBUF, names.codecs(),
            HolderWriter.marshallerName(m, false), names.sofaRpc())
        : CodeBlock.of("$T.response($L,\n$>$>$T::remoteName,\n$L)$<$<", Names.SOFA_RPC_PROTOBUF,
            protoMarshaller(m.response().fields().get(0).type()), names.sofaRpc(), defaultTag);
    return FieldSpec.builder(ParameterizedTypeName.get(Names.FAILURE_MARSHALLER, m.resultType()),
            HolderWriter.marshallerName(m, false), Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The answer of {@link $T#$L}: its result's message$L, or its failure.\n", service.iface(),
            m.javaName(), m.style() == Style.ONEWAY ? "" : whenDefault(defaultTag))
        .initializer(init)
        .build();
  }

  /**
   * The tag of the first field of the message {@code type} that, written at its default value, parses to the
   * default message on any peer: a plain number (no presence), or a packed list, empty. 0 when the message has
   * none: an all-default message is then written as SOFARPC's filler field.
   */
  private int defaultTag(Model.Type type) {
    if (type instanceof Model.ProtoMessageType p) {
      return p.defaultTag();
    }
    Message message = recordMessage(type);
    return message.fields().stream().sorted(java.util.Comparator.comparingInt(Field::number))
        .filter(f -> (f.type() instanceof Model.ScalarType s && !s.boxed())
            || (f.type() instanceof Model.RepeatedType r && r.packed()))
        .map(f -> WireKind.tag(f.number(), f.type() instanceof Model.ScalarType s
            ? new ScalarKind(s).wireType() : WireKind.LENGTH_DELIMITED))
        .findFirst().orElse(0);
  }

  /** The message of the record {@code type}. */
  private Message recordMessage(Model.Type type) {
    return service.messages().stream().filter(x -> x.javaType().equals(type.javaType())).findFirst().orElseThrow();
  }

  /** How an all-default message of {@code defaultTag} travels, for the javadoc. */
  private static String whenDefault(int defaultTag) {
    return defaultTag == 0 ? " (all-default: SOFARPC's filler field)"
        : " (all-default: field " + (defaultTag >>> 3) + " at its default, tag " + defaultTag + ")";
  }

  /**
   * The marshaller of a whole message: protobuf-java's own for a message class (the provider's), the generated
   * codec of a record's message.
   */
  private CodeBlock protoMarshaller(Model.Type type) {
    if (type instanceof Model.ProtoMessageType p) {
      return CodeBlock.of("$T.of($T.parser())", Names.MESSAGE_MARSHALLER, p.className());
    }
    Message message = recordMessage(type);
    return CodeBlock.of("$T.of($S, $T::size$L, $T::write$L, $T::read$L)", Names.PROTO_MARSHALLER,
        service.protoPackage() + "." + message.protoName(), names.codecs(), message.protoName(), names.codecs(),
        message.protoName(), names.codecs(), message.protoName());
  }

  private FieldSpec hessianRequest(Method m) {
    ClassName request = (ClassName) m.request().javaType();
    List<Field> args = m.request().fields();
    CodeBlock.Builder write = CodeBlock.builder();
    CodeBlock.Builder read = CodeBlock.builder();
    for (int i = 0; i < args.size(); i++) {
      Field f = args.get(i);
      write.add("$L;\n", types.write(f.type(), "out", CodeBlock.of("arguments.$L()", f.name()), 0));
      read.add(i == 0 ? "$L" : ",\n$L", types.read(f.type(), "in", 0, "argument " + f.name() + " of " + m.javaName()
          + "()"));
    }
    String sigs = m.params().stream()
        .map(p -> '"' + SofaRpcReader.argSig(p.javaType(), sofa.remoteNames()) + '"')
        .collect(Collectors.joining(", "));
    CodeBlock init = CodeBlock.builder()
        .add("$T.request($S, $S, $S, $S, $S,\n", Names.SOFA_RPC_HESSIAN, sofa.uniqueName(), m.wireMethodName(),
            sofa.targetApp(), invokeType(m.style()), sofa.app())
        .indent().indent()
        .add("$T.of($L),\n", List.class, sigs)
        .add("(out, arguments) -> {\n$>$L$<}", write.build())
        .add(",\nin -> new $T($>$L$<))", request, args.isEmpty() ? CodeBlock.of("") : CodeBlock.of("\n$L", read.build()))
        .unindent().unindent()
        .build();
    return FieldSpec.builder(ParameterizedTypeName.get(Names.MARSHALLER, request),
            HolderWriter.marshallerName(m, true), Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The request of {@link $T#$L}: SOFARPC's {@code SofaRequest}, then each argument.\n",
            service.iface(), m.javaName())
        .initializer(init)
        .build();
  }

  private FieldSpec hessianResponse(Method m) {
    CodeBlock writer;
    CodeBlock reader;
    String resultClass;
    if (m.voidResult()) {
      writer = CodeBlock.of("(out, result) -> out.writeNull()");
      reader = CodeBlock.of("$T::readNothing", Names.SOFA_RPC_HESSIAN);
      resultClass = null;
    } else {
      Field result = m.response().fields().get(0);
      writer = CodeBlock.of("(out, result) -> $L", types.write(result.type(), "out", CodeBlock.of("result"), 0));
      reader = CodeBlock.of("in -> $L", types.read(result.type(), "in", 0, "the result of " + m.javaName() + "()"));
      resultClass = result.type() instanceof Model.MessageType msg ? sofa.remoteName(msg.className())
          : result.type() instanceof Model.EnumType en ? sofa.remoteName(en.className()) : null;
    }
    CodeBlock init = CodeBlock.builder()
        .add("$T.response(\n", Names.SOFA_RPC_HESSIAN)
        .indent().indent()
        .add("$L,\n$L,\n", writer, reader)
        .add(resultClass == null ? CodeBlock.of("null,\n") : CodeBlock.of("$S,\n", resultClass))
        .add("EXCEPTIONS)")
        .unindent().unindent()
        .build();
    return FieldSpec.builder(ParameterizedTypeName.get(Names.FAILURE_MARSHALLER, m.resultType()),
            HolderWriter.marshallerName(m, false), Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The answer of {@link $T#$L}: SOFARPC's {@code SofaResponse} carrying the result or the failure.\n",
            service.iface(), m.javaName())
        .initializer(init)
        .build();
  }

  /**
   * {@code EXCEPTIONS}: the declared exceptions of the service with their Hessian forms, a subclass before its
   * superclasses (so that a failure is written as its own class, not its superclass).
   */
  private FieldSpec declaredExceptions() {
    CodeBlock.Builder list = CodeBlock.builder().add("$T.of(", List.class).indent().indent();
    List<SofaRpcExceptions.ExceptionForm> forms = sofa.exceptions();
    for (int i = 0; i < forms.size(); i++) {
      ClassName ex = forms.get(i).className();
      list.add(i == 0 ? "\n" : ",\n").add("new $T<>($T.class, $L)", Names.SOFA_RPC_DECLARED_EXCEPTION, ex,
          types.constant(ex));
    }
    list.unindent().unindent().add(")");
    return FieldSpec.builder(ParameterizedTypeName.get(ClassName.get(List.class),
            ParameterizedTypeName.get(Names.SOFA_RPC_DECLARED_EXCEPTION, WildcardTypeName.subtypeOf(Object.class))),
            "EXCEPTIONS", Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The exceptions the methods declare, written and read with their fields, a subclass first.\n")
        .initializer(list.build())
        .build();
  }

  /** {@code remoteName(Throwable)}: the SOFARPC class name of a declared exception, else {@code null}. */
  private MethodSpec remoteName() {
    MethodSpec.Builder b = MethodSpec.methodBuilder("remoteName")
        .addJavadoc("The class name the SOFARPC side knows {@code failure} by when it is an exception a method"
            + " declares; {@code null} for any other failure.\n")
        .addModifiers(Modifier.STATIC)
        .returns(String.class)
        .addParameter(Throwable.class, "failure");
    for (SofaRpcExceptions.ExceptionForm ex : sofa.exceptions()) { // a subclass first: its own name
      b.beginControlFlow("if (failure instanceof $T)", ex.className())
          .addStatement("return $S", sofa.remoteName(ex.className()))
          .endControlFlow();
    }
    return b.addStatement("return null").build();
  }
}
