package io.boltgen.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import io.boltgen.processor.Model.EnumType;
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.MessageKind;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.OptionalType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.Service;
import io.boltgen.processor.Model.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XxxBoltCodecs}: per message a size, a write and a read function in protobuf wire format
 * (proto3 semantics, precomputed tags, exact sizes, straight into and out of {@code ByteBuf} through the
 * runtime's {@code ProtoEncoder}/{@code ProtoDecoder}), and one {@code Marshaller} per method request and
 * response. A pure function of the model.
 */
final class CodecWriter {

  /** Local names the generated functions use themselves; a component with such a name gets a '_' suffix. */
  private static final Set<String> INTERNAL = Set.of("value", "e", "d", "size", "tag", "slot", "length", "element",
      "entry", "key", "entryValue", "number", "constant", "outer", "t");

  private final Service service;
  private final ClassName codecs;
  private final WireValue values;

  CodecWriter(Service service) {
    this.service = service;
    this.codecs = Names.Generated.of(service.iface()).codecs();
    this.values = new WireValue(codecs);
  }

  JavaFile write() {
    TypeSpec.Builder type = TypeSpec.classBuilder(codecs)
        .addJavadoc("Protobuf wire-format codecs of {@link $T}'s messages, described by {@code $L}.\n",
            service.iface(), Names.protoFile(service.iface()))
        .addAnnotation(Writers.generated())
        .addModifiers(Modifier.FINAL);
    Writers.suppressDeprecation(type, service);
    for (Model.Enum en : service.enums()) {
      type.addField(FieldSpec.builder(ArrayTypeName.of(en.className()), valuesName(en.protoName()),
              Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer("$T.values()", en.className()).build());
    }
    for (Method m : service.methods()) {
      type.addField(marshaller(m.request()));
      type.addField(marshaller(m.response()));
    }
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    for (Method m : service.methods()) {
      addFunctions(type, m.request());
      addFunctions(type, m.response());
    }
    for (Message message : service.messages()) {
      addFunctions(type, message);
    }
    return Writers.file(service, type.build());
  }

  static String valuesName(String protoName) {
    return Names.upperSnake(protoName) + "_VALUES";
  }

  private FieldSpec marshaller(Message message) {
    TypeName type = ParameterizedTypeName.get(Names.MARSHALLER, message.javaType());
    return FieldSpec.builder(type, Names.upperSnake(message.protoName()), Modifier.STATIC, Modifier.FINAL)
        .initializer("$T.of($S,\n$>$>$T::size$L,\n$T::write$L,\n$T::read$L)$<$<", Names.PROTO_MARSHALLER,
            service.protoPackage() + "." + message.protoName(), codecs, message.protoName(), codecs,
            message.protoName(), codecs, message.protoName())
        .build();
  }

  // ------------------------------------------------------------------ per message

  private void addFunctions(TypeSpec.Builder type, Message message) {
    List<Field> fields = new ArrayList<>(message.fields());
    fields.sort(Comparator.comparingInt(Field::number));
    Set<String> taken = new HashSet<>(INTERNAL);
    List<String> locals = new ArrayList<>();
    for (Field f : fields) {
      String local = message.kind() == MessageKind.RESPONSE ? "value"
          : Names.unique(Character.isUpperCase(f.name().charAt(0)) ? f.name() + "_" : f.name(), taken);
      taken.add(local);
      locals.add(local);
    }
    String name = message.protoName();
    String doc = "message {@code " + service.protoPackage() + "." + name + "}";

    // size
    MethodSpec.Builder size = MethodSpec.methodBuilder("size" + name)
        .addJavadoc("The exact size of $L; records lengths in {@code e}.\n", doc)
        .addModifiers(Modifier.STATIC)
        .returns(TypeName.INT)
        .addParameter(message.javaType(), "value")
        .addParameter(Names.PROTO_ENCODER, "e");
    if (fields.isEmpty()) {
      size.addStatement("return 0");
    } else {
      size.addStatement("int size = 0");
      for (int i = 0; i < fields.size(); i++) {
        size.addCode(sizeField(message, fields.get(i), locals.get(i)));
      }
      size.addStatement("return size");
    }
    type.addMethod(size.build());

    // write
    MethodSpec.Builder write = MethodSpec.methodBuilder("write" + name)
        .addJavadoc("Writes $L, in the order {@link #size$L} visited it.\n", doc, name)
        .addModifiers(Modifier.STATIC)
        .addParameter(message.javaType(), "value")
        .addParameter(Names.PROTO_ENCODER, "e");
    for (int i = 0; i < fields.size(); i++) {
      write.addCode(writeField(message, fields.get(i), locals.get(i)));
    }
    type.addMethod(write.build());

    // read
    MethodSpec.Builder read = MethodSpec.methodBuilder("read" + name)
        .addJavadoc("Reads $L, skipping unknown fields.\n", doc)
        .addModifiers(Modifier.STATIC)
        .returns(message.javaType())
        .addParameter(Names.PROTO_DECODER, "d");
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      read.addStatement("$T $L = $L", WireValue.localType(f.type()), locals.get(i), WireValue.initialValue(f.type()));
    }
    read.beginControlFlow("for (int tag = d.readTag(); tag != 0; tag = d.readTag())");
    if (fields.isEmpty()) {
      read.addStatement("d.skipField(tag)");
    } else {
      read.beginControlFlow("switch (tag)");
      for (int i = 0; i < fields.size(); i++) {
        read.addCode(readField(fields.get(i), locals.get(i)));
      }
      read.addCode("default:\n$>d.skipField(tag);\nbreak;\n$<");
      read.endControlFlow();
    }
    read.endControlFlow();
    read.addCode(readResult(message, fields, locals));
    type.addMethod(read.build());
  }

  private CodeBlock readResult(Message message, List<Field> fields, List<String> locals) {
    switch (message.kind()) {
      case RESPONSE:
        if (fields.isEmpty()) {
          return CodeBlock.of("return null;\n");
        }
        return CodeBlock.of("return $L;\n", WireValue.finalValue(fields.get(0).type(), locals.get(0)));
      default:
        // the constructor takes the components in declaration order
        List<CodeBlock> args = new ArrayList<>();
        for (Field f : message.fields()) {
          int i = fields.indexOf(f);
          args.add(WireValue.finalValue(f.type(), locals.get(i)));
        }
        return CodeBlock.of("return new $T($L);\n", message.javaType(), CodeBlock.join(args, ", "));
    }
  }




  private String fieldComment(Field f) {
    return f.number() + ": " + f.name() + " (" + ProtoFileWriter.protoType(f.type()) + ")";
  }



  private CodeBlock access(Message message, Field f) {
    return message.kind() == MessageKind.RESPONSE ? CodeBlock.of("value") : CodeBlock.of("value.$L()", f.name());
  }

  private CodeBlock sizeField(Message message, Field f, String local) {
    CodeBlock.Builder b = CodeBlock.builder().add("// $L\n", fieldComment(f));
    Type t = f.type();
    int ts = WireValue.tagSize(f.number());
    if (message.kind() != MessageKind.RESPONSE) {
      b.addStatement("$T $L = $L", t.javaType(), local, access(message, f));
    }
    if (t instanceof OptionalType o) {
      b.beginControlFlow("if ($L != null && $L.isPresent())", local, local);
      b.addStatement("size += $L + $L", ts, values.valueSize(o.value(), CodeBlock.of("$L.get()", local)));
      b.endControlFlow();
    } else if (t instanceof RepeatedType r) {
      if (r.packed()) {
        b.beginControlFlow("if ($L != null && !$L.isEmpty())", local, local);
        b.addStatement("int slot = e.reserve()");
        b.addStatement("int length = 0");
        b.beginControlFlow("for ($T element : $L)", r.element().javaType().box(), local);
        CodeBlock checked = CodeBlock.of("$T.element(element)", Names.PROTO_ENCODER);
        if (WireValue.isFixedWidth(r.element())) {
          b.addStatement("$L", checked); // the size does not read the element: check it for null here
        }
        b.addStatement("length += $L", values.valueSize(r.element(), checked));
        b.endControlFlow();
        b.addStatement("size += $L + e.nested(slot, length)", ts);
        b.endControlFlow();
      } else {
        b.beginControlFlow("if ($L != null)", local);
        b.beginControlFlow("for ($T element : $L)", r.element().javaType(), local);
        b.addStatement("size += $L + $L", ts, values.valueSize(r.element(), CodeBlock.of("$T.element(element)", Names.PROTO_ENCODER)));
        b.endControlFlow();
        b.endControlFlow();
      }
    } else if (t instanceof MapType m) {
      b.beginControlFlow("if ($L != null)", local);
      b.beginControlFlow("for ($T entry : $L.entrySet())", entryType(m), local);
      b.addStatement("int slot = e.reserve()");
      b.addStatement("int length = 1 + $L + 1 + $L",
          values.valueSize(m.key(), CodeBlock.of("$T.element(entry.getKey())", Names.PROTO_ENCODER)),
          values.valueSize(m.value(), CodeBlock.of("$T.element(entry.getValue())", Names.PROTO_ENCODER)));
      b.addStatement("size += $L + e.nested(slot, length)", ts);
      b.endControlFlow();
      b.endControlFlow();
    } else {
      b.beginControlFlow("if ($L)", WireValue.present(t, local));
      b.addStatement("size += $L + $L", ts, values.valueSize(t, CodeBlock.of("$L", local)));
      b.endControlFlow();
    }
    return b.build();
  }


  private static TypeName entryType(MapType m) {
    return ParameterizedTypeName.get(ClassName.get(Map.Entry.class), m.key().javaType().box(), m.value().javaType().box());
  }


  private CodeBlock writeField(Message message, Field f, String local) {
    CodeBlock.Builder b = CodeBlock.builder().add("// $L\n", fieldComment(f));
    Type t = f.type();
    int tag = WireValue.tag(f.number(), WireValue.wireType(t));
    if (message.kind() != MessageKind.RESPONSE) {
      b.addStatement("$T $L = $L", t.javaType(), local, access(message, f));
    }
    if (t instanceof OptionalType o) {
      tag = WireValue.tag(f.number(), WireValue.wireType(o.value()));
      b.beginControlFlow("if ($L != null && $L.isPresent())", local, local);
      b.addStatement("e.writeTag($L)", tag);
      b.add(values.writeValue(o.value(), CodeBlock.of("$L.get()", local)));
      b.endControlFlow();
    } else if (t instanceof RepeatedType r) {
      if (r.packed()) {
        b.beginControlFlow("if ($L != null && !$L.isEmpty())", local, local);
        b.addStatement("e.writeTag($L)", WireValue.tag(f.number(), 2));
        b.addStatement("e.writeLength()");
        b.beginControlFlow("for ($T element : $L)", r.element().javaType().box(), local);
        b.add(values.writeValue(r.element(), CodeBlock.of("element")));
        b.endControlFlow();
        b.endControlFlow();
      } else {
        b.beginControlFlow("if ($L != null)", local);
        b.beginControlFlow("for ($T element : $L)", r.element().javaType(), local);
        b.addStatement("e.writeTag($L)", WireValue.tag(f.number(), WireValue.wireType(r.element())));
        b.add(values.writeValue(r.element(), CodeBlock.of("element")));
        b.endControlFlow();
        b.endControlFlow();
      }
    } else if (t instanceof MapType m) {
      b.beginControlFlow("if ($L != null)", local);
      b.beginControlFlow("for ($T entry : $L.entrySet())", entryType(m), local);
      b.addStatement("e.writeTag($L)", WireValue.tag(f.number(), 2));
      b.addStatement("e.writeLength()");
      b.addStatement("e.writeTag($L)", WireValue.tag(1, WireValue.wireType(m.key())));
      b.add(values.writeValue(m.key(), CodeBlock.of("entry.getKey()")));
      b.addStatement("e.writeTag($L)", WireValue.tag(2, WireValue.wireType(m.value())));
      b.add(values.writeValue(m.value(), CodeBlock.of("entry.getValue()")));
      b.endControlFlow();
      b.endControlFlow();
    } else {
      b.beginControlFlow("if ($L)", WireValue.present(t, local));
      b.addStatement("e.writeTag($L)", tag);
      b.add(values.writeValue(t, CodeBlock.of("$L", local)));
      b.endControlFlow();
    }
    return b.build();
  }





  private CodeBlock readField(Field f, String local) {
    CodeBlock.Builder b = CodeBlock.builder();
    Type t = f.type();
    Type single = t instanceof OptionalType o ? o.value() : t;
    if (t instanceof RepeatedType r) {
      Type el = r.element();
      if (r.packed()) {
        b.add("case $L: {\n$>", WireValue.tag(f.number(), 2));
        b.addStatement("int outer = d.enter()");
        b.beginControlFlow("while (d.hasRemaining())");
        b.add(addElement(el, local));
        b.endControlFlow();
        b.addStatement("d.exit(outer)");
        b.addStatement("break");
        b.add("$<}\n");
      }
      if (el instanceof EnumType) {
        b.add("case $L: {\n$>", WireValue.tag(f.number(), WireValue.wireType(el)));
        b.add(addElement(el, local));
        b.addStatement("break");
        b.add("$<}\n");
      } else {
        b.add("case $L:\n$>", WireValue.tag(f.number(), WireValue.wireType(el)));
        b.add(addElement(el, local));
        b.addStatement("break");
        b.add("$<");
      }
    } else if (t instanceof MapType m) {
      b.add("case $L: {\n$>", WireValue.tag(f.number(), 2));
      b.addStatement("int outer = d.enter()");
      b.addStatement("$T key = $L", m.key().javaType().box(), WireValue.mapDefault(m.key()));
      boolean enumValue = m.value() instanceof EnumType;
      if (enumValue) {
        b.addStatement("int number = 0");
      } else {
        b.addStatement("$T entryValue = $L", m.value().javaType().box(),
            m.value() instanceof MessageType ? CodeBlock.of("null") : WireValue.mapDefault(m.value()));
      }
      b.beginControlFlow("for (int t = d.readTag(); t != 0; t = d.readTag())");
      b.beginControlFlow("switch (t)");
      b.add("case $L:\n$>key = $L;\nbreak;\n$<", WireValue.tag(1, WireValue.wireType(m.key())), values.readValue(m.key()));
      b.add("case $L:\n$>$L = $L;\nbreak;\n$<", WireValue.tag(2, WireValue.wireType(m.value())), enumValue ? "number" : "entryValue",
          enumValue ? CodeBlock.of("d.readInt32()") : values.readValue(m.value()));
      b.add("default:\n$>d.skipField(t);\nbreak;\n$<");
      b.endControlFlow();
      b.endControlFlow();
      b.addStatement("d.exit(outer)");
      if (enumValue) {
        EnumType en = (EnumType) m.value();
        b.addStatement("$T constant = $T.enumValue($L, number)", en.className(), Names.PROTO_DECODER,
            valuesName(en.protoName()));
        b.beginControlFlow("if (constant != null)");
        b.addStatement("$L = $T.put($L, key, constant)", local, Names.PROTO_DECODER, local);
        b.endControlFlow();
      } else {
        if (m.value() instanceof MessageType mt) {
          b.beginControlFlow("if (entryValue == null)");
          b.addStatement("entryValue = read$L($T.empty())", mt.protoName(), Names.PROTO_DECODER);
          b.endControlFlow();
        }
        b.addStatement("$L = $T.put($L, key, entryValue)", local, Names.PROTO_DECODER, local);
      }
      b.addStatement("break");
      b.add("$<}\n");
    } else {
      b.add("case $L:\n$>", WireValue.tag(f.number(), WireValue.wireType(single)));
      b.addStatement("$L = $L", local, values.readValue(single));
      b.addStatement("break");
      b.add("$<");
    }
    return b.build();
  }

  private CodeBlock addElement(Type el, String local) {
    if (el instanceof EnumType en) {
      return CodeBlock.builder()
          .addStatement("$T constant = $T.enumValue($L, d.readInt32())", en.className(), Names.PROTO_DECODER,
              valuesName(en.protoName()))
          .beginControlFlow("if (constant != null)")
          .addStatement("$L = $T.add($L, constant)", local, Names.PROTO_DECODER, local)
          .endControlFlow()
          .build();
    }
    return CodeBlock.of("$L = $T.add($L, $L);\n", local, Names.PROTO_DECODER, local, values.readValue(el));
  }

}
