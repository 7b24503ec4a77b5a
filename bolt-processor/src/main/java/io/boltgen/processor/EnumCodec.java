package io.boltgen.processor;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The two functions of an enum whose numbers are pinned by {@code @BoltEnumValue}, for {@link CodecWriter}:
 * constant to number, and number to constant or {@code null}. Enums numbered by declaration order need
 * none (their ordinal is their number).
 */
final class EnumCodec {

  private EnumCodec() {}

  /** The function mapping a constant of the pinned enum {@code protoName} to its number. */
  static String numberOfName(String protoName) {
    return "numberOf" + protoName;
  }

  /** The function mapping a number to a constant of the pinned enum {@code protoName}, or to null. */
  static String constantOfName(String protoName) {
    return "constantOf" + protoName;
  }

  /** The two functions of an enum whose numbers are pinned by {@code @BoltEnumValue}. */
  static List<MethodSpec> functions(Model.Enum en, String protoPackage) {
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
