package io.boltgen.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.TypeSpec;

/** What every generated file shares. */
final class Writers {

  private Writers() {}

  /** {@code @Generated("io.boltgen.processor.BoltProcessor")}, with no date: output is deterministic. */
  static AnnotationSpec generated() {
    return AnnotationSpec.builder(Names.GENERATED).addMember("value", "$S", Names.PROCESSOR).build();
  }

  /** A targeted {@code @SuppressWarnings("deprecation")} when the service uses deprecated elements. */
  static void suppressDeprecation(TypeSpec.Builder type, Model.Service service) {
    if (service.usesDeprecated()) {
      type.addAnnotation(AnnotationSpec.builder(SuppressWarnings.class).addMember("value", "$S", "deprecation").build());
    }
  }

  static JavaFile file(Model.Service service, TypeSpec type) {
    TypeSpec withOrigin = type.toBuilder().addOriginatingElement(service.element()).build();
    return JavaFile.builder(service.iface().packageName(), withOrigin)
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }
}
