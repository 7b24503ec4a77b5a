package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.Message;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * The size, write and read functions of a {@code oneof} message (a sealed interface of records), for
 * {@link CodecWriter}: the value is written as the field of its record's case; reading keeps the last case
 * seen (protobuf's rule) and gives {@code null} when none is known to this side.
 */
final class OneofCodec {

  private final ClassName codecs;
  private final String protoPackage;

  OneofCodec(ClassName codecs, String protoPackage) {
    this.codecs = codecs;
    this.protoPackage = protoPackage;
  }

  List<MethodSpec> functions(Message message) {
    String name = message.protoName();
    CodeBlock doc = CodeBlock.of("message {@code $L.$L}, the oneof of {@link $T}", protoPackage, name,
        message.javaType());
    MethodSpec.Builder size = MethodSpec.methodBuilder("size" + name)
        .addJavadoc("The exact size of $L; records lengths in {@code e}.\n", doc)
        .addModifiers(Modifier.STATIC)
        .returns(TypeName.INT)
        .addParameter(message.javaType(), "value")
        .addParameter(Names.PROTO_ENCODER, "e");
    MethodSpec.Builder write = MethodSpec.methodBuilder("write" + name)
        .addJavadoc("Writes $L, as {@link #size$L} measured it.\n", doc, name)
        .addModifiers(Modifier.STATIC)
        .addParameter(message.javaType(), "value")
        .addParameter(Names.PROTO_ENCODER, "e");
    MethodSpec.Builder read = MethodSpec.methodBuilder("read" + name)
        .addJavadoc("Reads $L: the last case present, or {@code null} when no case is known here.\n", doc)
        .addModifiers(Modifier.STATIC)
        .returns(message.javaType())
        .addParameter(Names.PROTO_DECODER, "d")
        .addStatement("$T value = null", message.javaType())
        .beginControlFlow("for (int tag = d.readTag(); tag != 0; tag = d.readTag())")
        .beginControlFlow("switch (tag)");
    for (Field f : message.fields()) {
      WireKind kind = WireKind.of(f.type(), codecs);
      int tag = WireKind.tag(f.number(), kind.wireType());
      TypeName caseType = f.type().javaType();
      size.beginControlFlow("if (value instanceof $T v)", caseType)
          .addStatement("return $L + $L", WireKind.tagSize(f.number()), kind.size(CodeBlock.of("v")))
          .endControlFlow();
      write.beginControlFlow("if (value instanceof $T v)", caseType)
          .addComment("$L: $L", f.number(), f.name())
          .addStatement("e.writeTag($L)", tag)
          .addCode(kind.write(CodeBlock.of("v")))
          .addStatement("return")
          .endControlFlow();
      read.addCode("case $L:\n$>", tag).addStatement("value = $L", kind.read()).addStatement("break").addCode("$<");
    }
    size.addStatement("return 0");
    read.addCode("default:\n$>d.skipField(tag);\nbreak;\n$<")
        .endControlFlow()
        .endControlFlow()
        .addStatement("return value");
    return List.of(size.build(), write.build(), read.build());
  }
}
