package io.boltgen.processor;

import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import io.boltgen.processor.Model.Service;
import javax.lang.model.element.Modifier;

/** Writes {@code XxxBoltProvider}: the {@code GeneratedService} that {@code ServiceLoader} finds. */
final class ProviderWriter {

  private final Service service;
  private final Names.Generated names;

  ProviderWriter(Service service) {
    this.service = service;
    this.names = Names.Generated.of(service.iface());
  }

  JavaFile write() {
    TypeSpec.Builder type = TypeSpec.classBuilder(names.provider())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(ParameterizedTypeName.get(Names.GENERATED_SERVICE, service.iface()))
        .addAnnotation(Writers.generated())
        .addJavadoc("Lets {@code GeneratedService.of} find {@link $T}, through"
            + " {@code META-INF/services/io.boltgen.runtime.service.GeneratedService}.\n", service.iface());
    Writers.suppressDeprecation(type, service);
    type.addMethod(MethodSpec.constructorBuilder()
        .addJavadoc("Called by {@link java.util.ServiceLoader}.\n")
        .addModifiers(Modifier.PUBLIC)
        .build());
    type.addMethod(MethodSpec.methodBuilder("serviceInterface")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(ParameterizedTypeName.get(com.palantir.javapoet.ClassName.get(Class.class), service.iface()))
        .addStatement("return $T.class", service.iface())
        .build());
    type.addMethod(MethodSpec.methodBuilder("descriptor")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(Names.SERVICE_DESCRIPTOR)
        .addStatement("return $T.descriptor()", names.holder())
        .build());
    type.addMethod(MethodSpec.methodBuilder("newClient")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(service.iface())
        .addParameter(Names.BOLT_CHANNEL, "channel")
        .addStatement("return $T.newClient(channel)", names.holder())
        .build());
    type.addMethod(MethodSpec.methodBuilder("bind")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(Names.SERVICE_DEFINITION)
        .addParameter(service.iface(), "implementation")
        .addStatement("return $T.bind(implementation)", names.holder())
        .build());
    return Writers.file(service, type.build());
  }
}
