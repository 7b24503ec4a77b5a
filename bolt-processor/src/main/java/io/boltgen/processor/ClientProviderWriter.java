package io.boltgen.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import io.boltgen.processor.Model.Service;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XxxBoltClientProvider}: a {@code jakarta.inject.Provider} of client stubs, for dependency
 * injection containers (Guice, Dagger, CDI, Spring). Its {@code @Inject} constructor takes the
 * {@code BoltChannel} qualified {@code @Named(XxxBolt.SERVICE_NAME)}, so that every service's channel is
 * bound on its own. Written only when jakarta.inject is on the class path.
 */
final class ClientProviderWriter {

  private final Service service;
  private final Names.Generated names;

  ClientProviderWriter(Service service) {
    this.service = service;
    this.names = Names.Generated.of(service.iface());
  }

  JavaFile write() {
    AnnotationSpec named = AnnotationSpec.builder(Names.INJECT_NAMED)
        .addMember("value", "$T.SERVICE_NAME", names.holder())
        .build();
    TypeSpec.Builder type = TypeSpec.classBuilder(names.clientProvider())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(ParameterizedTypeName.get(Names.INJECT_PROVIDER, service.iface()))
        .addAnnotation(Writers.generated())
        .addJavadoc("Provides {@link $T} clients to a dependency injection container (jakarta.inject): every"
            + " {@link #get()}\nreturns {@code $T.newClient(channel)}, a new stub over the channel bound as\n"
            + "{@code @Named($S)} (the service name, {@link $T#SERVICE_NAME}).\n",
            service.iface(), names.holder(), service.serviceName(), names.holder())
        .addJavadoc("""

            <p>Guice: {@code bind($T.class).toProvider($T.class)}, and a {@link $T} bound with
            {@code @Named($S)}.
            """, service.iface(), names.clientProvider(), Names.BOLT_CHANNEL,
            service.serviceName());
    Writers.suppressDeprecation(type, service);
    type.addField(FieldSpec.builder(Names.BOLT_CHANNEL, "channel", Modifier.PRIVATE, Modifier.FINAL).build());
    type.addMethod(MethodSpec.constructorBuilder()
        .addJavadoc("Called by the container.\n\n@param channel the channel to the servers of {@code $L}\n",
            service.serviceName())
        .addAnnotation(Names.INJECT_INJECT)
        .addModifiers(Modifier.PUBLIC)
        .addParameter(ParameterSpec.builder(Names.BOLT_CHANNEL, "channel").addAnnotation(named).build())
        .addStatement("this.channel = channel")
        .build());
    type.addMethod(MethodSpec.methodBuilder("get")
        .addJavadoc("A client stub sending every call over the injected channel, with default call options.\n")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(service.iface())
        .addStatement("return $T.newClient(channel)", names.holder())
        .build());
    return Writers.file(service, type.build());
  }
}
