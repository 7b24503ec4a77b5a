package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeSpec;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.Service;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/** Writes {@code XxxBoltSkeleton}: the server side, a {@code switch} on the holder's method ids. */
final class SkeletonWriter {

  private final Service service;
  private final Names.Generated names;

  SkeletonWriter(Service service) {
    this.service = service;
    this.names = Names.Generated.of(service.iface());
  }

  JavaFile write() {
    TypeSpec.Builder type = TypeSpec.classBuilder(names.skeleton())
        .addModifiers(Modifier.FINAL)
        .addSuperinterface(Names.SERVICE_INVOKER)
        .addAnnotation(Writers.generated())
        .addJavadoc("Server skeleton of {@link $T}: runs each request's method on the implementation,"
            + " dispatching on the method id of its descriptor.\n", service.iface());
    Writers.suppressDeprecation(type, service);
    type.addField(service.iface(), "implementation", Modifier.PRIVATE, Modifier.FINAL);
    type.addMethod(MethodSpec.constructorBuilder()
        .addParameter(service.iface(), "implementation")
        .addStatement("this.implementation = $T.requireNonNull(implementation, $S)", Objects.class, "implementation")
        .build());
    MethodSpec.Builder invoke = MethodSpec.methodBuilder("invoke")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(int.class, "methodId")
        .addParameter(Object.class, "request")
        .addParameter(Names.SERVER_CALL, "call")
        .addException(Exception.class)
        .beginControlFlow("switch (methodId)");
    for (Method m : service.methods()) {
      ClassName request = (ClassName) m.request().javaType();
      invoke.addCode("case $T.$L: {\n$>", names.holder(), HolderWriter.methodIdName(m));
      invoke.addComment("$L", m.wireName(service.serviceName(), service.version()));
      Object args = m.params().stream().map(p -> "args." + p.name() + "()").collect(Collectors.joining(", "));
      if (m.style().streamsRequests()) {
        // the caller's requests, each request record's one component as the implementation takes it
        invoke.addStatement("$T<?> requests = ($T<?>) request", Names.FLOW_PUBLISHER_CLASS, Names.FLOW_PUBLISHER_CLASS);
        args = CodeBlock.of("$T.map(requests, args -> (($T) args).$L())", Names.PUBLISHERS, request,
            m.params().get(0).name());
      } else if (!m.params().isEmpty()) {
        invoke.addStatement("$T args = ($T) request", request, request);
      }
      switch (m.style()) {
        case SYNC:
          if (m.voidResult()) {
            invoke.addStatement("implementation.$L($L)", m.javaName(), args);
            invoke.addStatement("call.respond(null)");
          } else {
            invoke.addStatement("call.respond(implementation.$L($L))", m.javaName(), args);
          }
          break;
        case FUTURE:
        case CLIENT_STREAM:
          invoke.addStatement("call.respondWith(implementation.$L($L))", m.javaName(), args);
          break;
        case CALLBACK:
          invoke.addStatement("implementation.$L($L)", m.javaName(),
              m.params().isEmpty() ? "call.asCallback()" : args + ", call.asCallback()");
          break;
        case STREAM:
        case BIDI_STREAM:
          invoke.addStatement("call.respondStream(implementation.$L($L))", m.javaName(), args);
          break;
        case ONEWAY:
        default:
          invoke.addStatement("implementation.$L($L)", m.javaName(), args);
          break;
      }
      invoke.addStatement("return");
      invoke.addCode("$<}\n");
    }
    invoke.addCode("default:\n$>");
    invoke.addStatement("throw new $T($S + methodId)", IllegalArgumentException.class,
        "no method of " + service.serviceName() + ":" + service.version() + " has method id ");
    invoke.addCode("$<");
    invoke.endControlFlow();
    type.addMethod(invoke.build());
    return Writers.file(service, type.build());
  }

}
