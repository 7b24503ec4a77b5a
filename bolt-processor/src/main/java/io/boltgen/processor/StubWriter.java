package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.Param;
import io.boltgen.processor.Model.Service;
import java.time.Duration;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/** Writes {@code XxxBoltStub}: the immutable client stub, one call style per method from its signature. */
final class StubWriter {

  private final Service service;
  private final Names.Generated names;

  StubWriter(Service service) {
    this.service = service;
    this.names = Names.Generated.of(service.iface());
  }

  JavaFile write() {
    ClassName stub = names.stub();
    TypeSpec.Builder type = TypeSpec.classBuilder(stub)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(service.iface())
        .addAnnotation(Writers.generated())
        .addJavadoc("Client stub of {@link $T}: sends each call over a {@link $T}.\n\n", service.iface(),
            Names.BOLT_CHANNEL)
        .addJavadoc("<p>Immutable and thread-safe: {@link #withTimeout} and {@link #withOptions} return copies,"
            + " so one stub can be shared and specialised per call site.\n");
    Writers.suppressDeprecation(type, service);
    type.addField(Names.BOLT_CHANNEL, "channel", Modifier.PRIVATE, Modifier.FINAL);
    type.addField(Names.CALL_OPTIONS, "options", Modifier.PRIVATE, Modifier.FINAL);
    type.addMethod(MethodSpec.constructorBuilder()
        .addModifiers(Modifier.PRIVATE)
        .addParameter(Names.BOLT_CHANNEL, "channel")
        .addParameter(Names.CALL_OPTIONS, "options")
        .addStatement("this.channel = channel")
        .addStatement("this.options = options")
        .build());
    type.addMethod(MethodSpec.methodBuilder("create")
        .addJavadoc("A stub sending calls over {@code channel} with {@link $T#DEFAULT} options.\n", Names.CALL_OPTIONS)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(stub)
        .addParameter(Names.BOLT_CHANNEL, "channel")
        .addStatement("return new $T($T.requireNonNull(channel, $S), $T.DEFAULT)", stub, Objects.class, "channel",
            Names.CALL_OPTIONS)
        .build());
    type.addMethod(MethodSpec.methodBuilder("withTimeout")
        .addJavadoc("A copy whose calls time out after {@code timeout} instead of the method's default.\n")
        .addModifiers(Modifier.PUBLIC)
        .returns(stub)
        .addParameter(Duration.class, "timeout")
        .addStatement("return new $T(channel, options.withTimeout(timeout))", stub)
        .build());
    type.addMethod(MethodSpec.methodBuilder("withOptions")
        .addJavadoc("A copy whose calls use {@code options}.\n")
        .addModifiers(Modifier.PUBLIC)
        .returns(stub)
        .addParameter(Names.CALL_OPTIONS, "options")
        .addStatement("return new $T(channel, $T.requireNonNull(options, $S))", stub, Objects.class, "options")
        .build());
    type.addMethod(MethodSpec.methodBuilder("options")
        .addJavadoc("The options every call of this stub uses.\n")
        .addModifiers(Modifier.PUBLIC)
        .returns(Names.CALL_OPTIONS)
        .addStatement("return options")
        .build());
    for (Method m : service.methods()) {
      type.addMethod(method(m));
    }
    type.addMethod(MethodSpec.methodBuilder("toString")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(String.class)
        .addStatement("return $S + channel.remoteAddress() + $S + options + '}'", stub.simpleName() + "{", ", ")
        .build());
    return Writers.file(service, type.build());
  }

  private MethodSpec method(Method m) {
    MethodSpec.Builder b = MethodSpec.methodBuilder(m.javaName())
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(m.returnType());
    if (m.javadoc() != null) {
      b.addJavadoc("$L\n", m.javadoc());
    }
    if (m.deprecated()) {
      b.addAnnotation(Deprecated.class);
    }
    for (Param p : m.params()) {
      b.addParameter(ParameterSpec.builder(p.javaType(), p.name()).build());
    }
    if (m.callbackName() != null) {
      b.addParameter(ParameterizedTypeName.get(ClassName.get(Names.ANNOTATIONS, "BoltCallback"), m.resultType()),
          m.callbackName());
    }
    for (TypeName t : m.thrownTypes()) {
      b.addException(t);
    }
    String descriptor = HolderWriter.descriptorName(m);
    String args = m.params().stream().map(Param::name).collect(Collectors.joining(", "));
    // each of a stream's items goes out in a request record of its own
    CodeBlock request = m.style().streamsRequests()
        ? CodeBlock.of("$T.map($L, $T::new)", Names.PUBLISHERS, args, m.request().javaType())
        : CodeBlock.of("new $T($L)", m.request().javaType(), args);
    switch (m.style()) {
      case ONEWAY:
        b.addStatement("this.channel.invokeOneway($T.$L, $L, this.options)", names.holder(), descriptor, request);
        break;
      case CALLBACK:
        b.addStatement("this.channel.invokeCallback($T.$L, $L, this.options, $L)", names.holder(), descriptor, request,
            m.callbackName());
        break;
      case FUTURE:
        b.addStatement("return this.channel.invokeFuture($T.$L, $L, this.options)", names.holder(), descriptor,
            request);
        break;
      case STREAM:
        b.addStatement("return this.channel.invokeStream($T.$L, $L, this.options)", names.holder(), descriptor,
            request);
        break;
      case CLIENT_STREAM:
        b.addStatement("return this.channel.invokeClientStream($T.$L, $L, this.options)", names.holder(), descriptor,
            request);
        break;
      case BIDI_STREAM:
        b.addStatement("return this.channel.invokeBidiStream($T.$L, $L, this.options)", names.holder(), descriptor,
            request);
        break;
      case SYNC:
      default:
        // a declared exception, checked or not, leaves invokeSync as itself (the runtime maps it once)
        b.addStatement(m.voidResult() ? "this.channel.invokeSync($T.$L, $L, this.options)"
            : "return this.channel.invokeSync($T.$L, $L, this.options)", names.holder(), descriptor, request);
        break;
    }
    return b.build();
  }

}
