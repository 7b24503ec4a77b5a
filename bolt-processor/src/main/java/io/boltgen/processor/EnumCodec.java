package io.boltgen.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The functions of an enum's numbers, for {@link CodecWriter}. An enum whose numbers are pinned by
 * {@code @BoltEnumValue} has two: constant to number, and number to constant or {@code null}. An enum numbered by
 * declaration order has one, constant to number, which says that its ordinal is its number; its numbers map back
 * through the codecs' {@code values()} array.
 */
final class EnumCodec {

  private EnumCodec() {}

  /** The function mapping a constant of the enum {@code protoName} to its number. */
  static String numberOfName(String protoName) {
    return "numberOf" + protoName;
  }

  /** The function mapping a number to a constant of the pinned enum {@code protoName}, or to null. */
  static String constantOfName(String protoName) {
    return "constantOf" + protoName;
  }

  /**
   * The function of an enum numbered by declaration order: the ordinal, in the one place that reads it, under a
   * suppression of Error Prone's EnumOrdinal check that its javadoc explains.
   */
  static MethodSpec ordinalFunction(Model.Enumeration en, String protoPackage) {
    return MethodSpec.methodBuilder(numberOfName(en.protoName()))
        .addJavadoc("""
            The number of {@code value} in enum {@code $L.$L}: its ordinal. The enum pins no numbers
            with {@code @BoltEnumValue}, so its constants are numbered in declaration order, by design: only
            ever append constants to it.
            """, protoPackage, en.protoName())
        .addAnnotation(AnnotationSpec.builder(SuppressWarnings.class).addMember("value", "$S", "EnumOrdinal").build())
        .addModifiers(Modifier.STATIC)
        .returns(TypeName.INT)
        .addParameter(en.className(), "value")
        .addStatement("return value.ordinal()")
        .build();
  }

  /** The two functions of an enum whose numbers are pinned by {@code @BoltEnumValue}. */
  static List<MethodSpec> functions(Model.Enumeration en, String protoPackage) {
    String doc = "enum {@code " + protoPackage + "." + en.protoName() + "}";
    CodeBlock.Builder toNumber = CodeBlock.builder().add("return switch (value) {\n$>");
    CodeBlock.Builder toConstant = CodeBlock.builder().add("return switch (number) {\n$>");
    for (int i = 0; i < en.constants().size(); i++) {
      toNumber.add("case $L -> $L;\n", en.constants().get(i), en.numbers().get(i));
      toConstant.add("case $L -> $T.$L;\n", en.numbers().get(i), en.className(), en.constants().get(i));
    }
    toConstant.add("default -> null;\n");
    MethodSpec toNumberFunction = MethodSpec.methodBuilder(numberOfName(en.protoName()))
        .addJavadoc("The number of {@code value} in $L,\npinned by {@code @BoltEnumValue}.\n", doc)
        .addModifiers(Modifier.STATIC)
        .returns(TypeName.INT)
        .addParameter(en.className(), "value")
        .addCode(toNumber.add("$<};\n").build())
        .build();
    MethodSpec toConstantFunction = MethodSpec.methodBuilder(constantOfName(en.protoName()))
        .addJavadoc("The constant numbered {@code number} in $L,\nor {@code null} for a number this side does not"
            + " know.\n", doc)
        .addModifiers(Modifier.STATIC)
        .returns(en.className())
        .addParameter(TypeName.INT, "number")
        .addCode(toConstant.add("$<};\n").build())
        .build();
    return List.of(toNumberFunction, toConstantFunction);
  }
}
