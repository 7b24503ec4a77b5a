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
import io.boltgen.processor.Model.Scalar;
import io.boltgen.processor.Model.ScalarType;
import io.boltgen.processor.Model.Service;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
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

  CodecWriter(Service service) {
    this.service = service;
    this.codecs = Names.Generated.of(service.iface()).codecs();
  }

  JavaFile write() {
    TypeSpec.Builder type = TypeSpec.classBuilder(codecs)
        .addJavadoc("Protobuf wire-format codecs of {@link $T}'s messages, described by {@code $L}.\n",
            service.iface(), Names.protoFile(service.iface()))
        .addAnnotation(Writers.generated())
        .addModifiers(Modifier.FINAL);
    Writers.suppressDeprecation(type, service);
    for (Model.Enumeration en : service.enums()) {
      if (!en.pinned()) {
        type.addField(FieldSpec.builder(ArrayTypeName.of(en.className()), valuesName(en.protoName()),
                Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer("$T.values()", en.className()).build());
      }
    }
    // results of one Java type have one codec, named after the first method returning it
    Map<TypeName, List<Message>> responsesByType = new LinkedHashMap<>();
    for (Method m : service.methods()) {
      responsesByType.computeIfAbsent(m.response().javaType(), k -> new ArrayList<>()).add(m.response());
    }
    for (Method m : service.methods()) {
      type.addField(marshaller(m.request(), HolderWriter.marshallerName(m, true), m.request().protoName()));
      type.addField(marshaller(m.response(), HolderWriter.marshallerName(m, false),
          responsesByType.get(m.response().javaType()).get(0).protoName()));
    }
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    for (Method m : service.methods()) {
      addFunctions(type, m.request(), List.of());
      List<Message> sameType = responsesByType.get(m.response().javaType());
      if (isFirst(sameType, m.response())) {
        addFunctions(type, m.response(), sameType.subList(1, sameType.size()));
      }
    }
    for (Message message : service.messages()) {
      addFunctions(type, message, List.of());
    }
    for (Model.Enumeration en : service.enums()) {
      if (en.pinned()) {
        type.addMethods(EnumCodec.functions(en, service.protoPackage()));
      } else {
        type.addMethod(EnumCodec.ordinalFunction(en, service.protoPackage()));
      }
    }
    return Writers.file(service, type.build());
  }

  /**
   * Whether {@code message} is the first of {@code group} (the responses of one Java type): this very object, as
   * two methods' responses are two messages even when equal.
   */
  @SuppressWarnings("ReferenceEquality") // identity is the point: see above
  private static boolean isFirst(List<Message> group, Message message) {
    return group.get(0) == message;
  }

  static String valuesName(String protoName) {
    return Names.upperSnake(protoName) + "_VALUES";
  }

  /** The marshaller of {@code message}, with the functions generated for {@code functions}. */
  private FieldSpec marshaller(Message message, String constant, String functions) {
    TypeName type = ParameterizedTypeName.get(Names.MARSHALLER, message.javaType());
    return FieldSpec.builder(type, constant, Modifier.STATIC, Modifier.FINAL)
        .initializer("$T.of($S,\n$>$>$T::size$L,\n$T::write$L,\n$T::read$L)$<$<", Names.PROTO_MARSHALLER,
            service.protoPackage() + "." + message.protoName(), codecs, functions, codecs, functions, codecs, functions)
        .build();
  }

  // ------------------------------------------------------------------ per message

  /** Size, write and read functions of {@code message}, which also serve {@code alike} (same Java type). */
  private void addFunctions(TypeSpec.Builder type, Message message, List<Message> alike) {
    if (message.kind() == MessageKind.ONEOF) {
      type.addMethods(new OneofCodec(codecs, service.protoPackage()).functions(message));
      return;
    }
    List<Field> fields = new ArrayList<>(message.fields());
    fields.sort(Comparator.comparingInt(Field::number));
    Set<String> taken = new HashSet<>(INTERNAL);
    List<String> locals = new ArrayList<>();
    for (Field f : fields) {
      String local = message.kind().holdsValue() ? "value"
          : Names.unique(Character.isUpperCase(f.name().charAt(0)) ? f.name() + "_" : f.name(), taken);
      taken.add(local);
      locals.add(local);
    }
    String name = message.protoName();
    String doc = "message {@code " + service.protoPackage() + "." + name + "}";
    if (!alike.isEmpty()) {
      doc += " (and " + alike.stream().map(a -> "{@code " + a.protoName() + "}").collect(Collectors.joining(", "))
          + ", the same message)";
    }

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
      read.addStatement("$T $L = $L", localType(f.type()), locals.get(i), initialValue(f.type()));
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
      case NESTED:
        if (fields.isEmpty()) {
          return CodeBlock.of("return null;\n");
        }
        return CodeBlock.of("return $L;\n", finalValue(fields.get(0).type(), locals.get(0)));
      default:
        // the constructor takes the components in declaration order
        List<CodeBlock> args = new ArrayList<>();
        for (Field f : message.fields()) {
          int i = fields.indexOf(f);
          args.add(finalValue(f.type(), locals.get(i)));
        }
        return CodeBlock.of("return new $T($L);\n", message.javaType(), CodeBlock.join(args, ", "));
    }
  }




  static String fieldComment(Field f) {
    return f.number() + ": " + f.name() + " (" + ProtoFileWriter.protoType(f.type()) + ")";
  }



  private CodeBlock access(Message message, Field f) {
    return message.kind().holdsValue() ? CodeBlock.of("value") : CodeBlock.of("value.$L()", f.name());
  }

  private CodeBlock sizeField(Message message, Field f, String local) {
    CodeBlock.Builder b = CodeBlock.builder().add("// $L\n", fieldComment(f));
    Model.Type t = f.type();
    int ts = WireKind.tagSize(f.number());
    if (!message.kind().holdsValue()) {
      b.addStatement("$T $L = $L", t.javaType(), local, access(message, f));
    }
    if (t instanceof OptionalType o) {
      b.beginControlFlow("if ($L != null && $L.isPresent())", local, local);
      b.addStatement("size += $L + $L", ts, kind(o.value()).size(CodeBlock.of("$L.get()", local)));
      b.endControlFlow();
    } else if (t instanceof RepeatedType r) {
      if (r.packed()) {
        b.beginControlFlow("if ($L)", ArrayCode.notEmpty(r, local));
        b.addStatement("int slot = e.reserve()");
        b.addStatement("int length = 0");
        b.beginControlFlow("for ($T element : $L)", ArrayCode.element(r), local);
        CodeBlock checked = CodeBlock.of("$T.element(element)", Names.PROTO_ENCODER);
        if (kind(r.element()).fixedWidth()) {
          b.addStatement("$L", checked); // the size does not read the element: check it for null here
        }
        b.addStatement("length += $L", kind(r.element()).size(checked));
        b.endControlFlow();
        b.addStatement("size += $L + e.nested(slot, length)", ts);
        b.endControlFlow();
      } else {
        b.beginControlFlow("if ($L != null)", local);
        b.beginControlFlow("for ($T element : $L)", r.element().javaType(), local);
        b.addStatement("size += $L + $L", ts, kind(r.element()).size(CodeBlock.of("$T.element(element)", Names.PROTO_ENCODER)));
        b.endControlFlow();
        b.endControlFlow();
      }
    } else if (t instanceof MapType m) {
      b.beginControlFlow("if ($L != null)", local);
      b.beginControlFlow("for ($T entry : $L.entrySet())", entryType(m), local);
      b.addStatement("int slot = e.reserve()");
      b.addStatement("int length = 1 + $L + 1 + $L",
          kind(m.key()).size(CodeBlock.of("$T.element(entry.getKey())", Names.PROTO_ENCODER)),
          kind(m.value()).size(CodeBlock.of("$T.element(entry.getValue())", Names.PROTO_ENCODER)));
      b.addStatement("size += $L + e.nested(slot, length)", ts);
      b.endControlFlow();
      b.endControlFlow();
    } else {
      b.beginControlFlow("if ($L)", kind(t).present(local));
      b.addStatement("size += $L + $L", ts, kind(t).size(CodeBlock.of("$L", local)));
      b.endControlFlow();
    }
    return b.build();
  }


  private static TypeName entryType(MapType m) {
    return ParameterizedTypeName.get(ClassName.get(Map.Entry.class), m.key().javaType().box(), m.value().javaType().box());
  }


  private CodeBlock writeField(Message message, Field f, String local) {
    CodeBlock.Builder b = CodeBlock.builder().add("// $L\n", fieldComment(f));
    Model.Type t = f.type();
    if (!message.kind().holdsValue()) {
      b.addStatement("$T $L = $L", t.javaType(), local, access(message, f));
    }
    if (t instanceof OptionalType o) {
      b.beginControlFlow("if ($L != null && $L.isPresent())", local, local);
      b.addStatement("e.writeTag($L)", WireKind.tag(f.number(), kind(o.value()).wireType()));
      b.add(kind(o.value()).write(CodeBlock.of("$L.get()", local)));
      b.endControlFlow();
    } else if (t instanceof RepeatedType r) {
      if (r.packed()) {
        b.beginControlFlow("if ($L)", ArrayCode.notEmpty(r, local));
        b.addStatement("e.writeTag($L)", WireKind.tag(f.number(), WireKind.LENGTH_DELIMITED));
        b.addStatement("e.writeLength()");
        b.beginControlFlow("for ($T element : $L)", ArrayCode.element(r), local);
        b.add(kind(r.element()).write(CodeBlock.of("element")));
        b.endControlFlow();
        b.endControlFlow();
      } else {
        b.beginControlFlow("if ($L != null)", local);
        b.beginControlFlow("for ($T element : $L)", r.element().javaType(), local);
        b.addStatement("e.writeTag($L)", WireKind.tag(f.number(), kind(r.element()).wireType()));
        b.add(kind(r.element()).write(CodeBlock.of("element")));
        b.endControlFlow();
        b.endControlFlow();
      }
    } else if (t instanceof MapType m) {
      b.beginControlFlow("if ($L != null)", local);
      b.beginControlFlow("for ($T entry : $L.entrySet())", entryType(m), local);
      b.addStatement("e.writeTag($L)", WireKind.tag(f.number(), WireKind.LENGTH_DELIMITED));
      b.addStatement("e.writeLength()");
      b.addStatement("e.writeTag($L)", WireKind.tag(1, kind(m.key()).wireType()));
      b.add(kind(m.key()).write(CodeBlock.of("entry.getKey()")));
      b.addStatement("e.writeTag($L)", WireKind.tag(2, kind(m.value()).wireType()));
      b.add(kind(m.value()).write(CodeBlock.of("entry.getValue()")));
      b.endControlFlow();
      b.endControlFlow();
    } else {
      b.beginControlFlow("if ($L)", kind(t).present(local));
      b.addStatement("e.writeTag($L)", WireKind.tag(f.number(), kind(t).wireType()));
      b.add(kind(t).write(CodeBlock.of("$L", local)));
      b.endControlFlow();
    }
    return b.build();
  }





  private CodeBlock readField(Field f, String local) {
    CodeBlock.Builder b = CodeBlock.builder();
    Model.Type t = f.type();
    Model.Type single = t instanceof OptionalType o ? o.value() : t;
    if (t instanceof RepeatedType r) {
      Model.Type el = r.element();
      if (r.packed()) {
        b.add("case $L: {\n$>", WireKind.tag(f.number(), WireKind.LENGTH_DELIMITED));
        b.addStatement("int outer = d.enter()");
        b.beginControlFlow("while (d.hasRemaining())");
        b.add(addElement(el, local));
        b.endControlFlow();
        b.addStatement("d.exit(outer)");
        b.addStatement("break");
        b.add("$<}\n");
      }
      if (el instanceof EnumType || isOneof(el)) {
        b.add("case $L: {\n$>", WireKind.tag(f.number(), kind(el).wireType()));
        b.add(addElement(el, local));
        b.addStatement("break");
        b.add("$<}\n");
      } else {
        b.add("case $L:\n$>", WireKind.tag(f.number(), kind(el).wireType()));
        b.add(addElement(el, local));
        b.addStatement("break");
        b.add("$<");
      }
    } else if (t instanceof MapType m) {
      b.add("case $L: {\n$>", WireKind.tag(f.number(), WireKind.LENGTH_DELIMITED));
      b.addStatement("int outer = d.enter()");
      b.addStatement("$T key = $L", m.key().javaType().box(), kind(m.key()).mapDefault());
      boolean enumValue = m.value() instanceof EnumType;
      if (enumValue) {
        b.addStatement("int number = 0");
      } else {
        b.addStatement("$T entryValue = $L", m.value().javaType().box(),
            kind(m.value()).mapDefault());
      }
      b.beginControlFlow("for (int t = d.readTag(); t != 0; t = d.readTag())");
      b.beginControlFlow("switch (t)");
      b.add("case $L:\n$>key = $L;\nbreak;\n$<", WireKind.tag(1, kind(m.key()).wireType()), kind(m.key()).read());
      b.add("case $L:\n$>$L = $L;\nbreak;\n$<", WireKind.tag(2, kind(m.value()).wireType()), enumValue ? "number" : "entryValue",
          enumValue ? CodeBlock.of("d.readInt32()") : kind(m.value()).read());
      b.add("default:\n$>d.skipField(t);\nbreak;\n$<");
      b.endControlFlow();
      b.endControlFlow();
      b.addStatement("d.exit(outer)");
      fillMissing(b, "key", kind(m.key()));
      if (enumValue) {
        EnumType en = (EnumType) m.value();
        b.addStatement("$T constant = $L", en.className(), ((WireKind.EnumKind) kind(en)).fromNumber(CodeBlock.of("number")));
        b.beginControlFlow("if (constant != null)");
        b.addStatement("$L = $T.put($L, key, constant)", local, Names.PROTO_DECODER, local);
        b.endControlFlow();
      } else {
        fillMissing(b, "entryValue", kind(m.value()));
        if (isOneof(m.value())) {
          b.beginControlFlow("if (entryValue != null)"); // a case this side does not know
        }
        b.addStatement("$L = $T.put($L, key, entryValue)", local, Names.PROTO_DECODER, local);
        if (isOneof(m.value())) {
          b.endControlFlow();
        }
      }
      b.addStatement("break");
      b.add("$<}\n");
    } else {
      b.add("case $L:\n$>", WireKind.tag(f.number(), kind(single).wireType()));
      b.addStatement("$L = $L", local, kind(single).read());
      b.addStatement("break");
      b.add("$<");
    }
    return b.build();
  }

  /** Replaces a map key or value the entry lacked ({@code null} after reading it) by the type's default. */
  private static void fillMissing(CodeBlock.Builder b, String local, WireKind kind) {
    CodeBlock missing = kind.missingInEntry();
    if (missing != null) {
      b.beginControlFlow("if ($L == null)", local);
      b.addStatement("$L = $L", local, missing);
      b.endControlFlow();
    }
  }

  private CodeBlock addElement(Model.Type el, String local) {
    if (el instanceof EnumType en) {
      return CodeBlock.builder()
          .addStatement("$T constant = $L", en.className(), kind(en).read())
          .beginControlFlow("if (constant != null)")
          .addStatement("$L = $T.add($L, constant)", local, Names.PROTO_DECODER, local)
          .endControlFlow()
          .build();
    }
    if (isOneof(el)) {
      return CodeBlock.builder()
          .addStatement("$T element = $L", el.javaType(), kind(el).read())
          .beginControlFlow("if (element != null)") // a case this side does not know
          .addStatement("$L = $T.add($L, element)", local, Names.PROTO_DECODER, local)
          .endControlFlow()
          .build();
    }
    return CodeBlock.of("$L = $T.add($L, $L);\n", local, Names.PROTO_DECODER, local, kind(el).read());
  }

  private static boolean isOneof(Model.Type t) {
    return t instanceof MessageType m && m.oneof();
  }

  private WireKind kind(Model.Type t) {
    return WireKind.of(t, codecs);
  }

  static TypeName localType(Model.Type t) {
    if (t instanceof OptionalType o) {
      return o.value().javaType().box();
    }
    return t instanceof RepeatedType r ? ArrayCode.collected(r) : t.javaType();
  }

  static CodeBlock initialValue(Model.Type t) {
    if (t instanceof ScalarType s && !s.boxed()) {
      return s.scalar() == Scalar.BOOLEAN ? CodeBlock.of("false") : CodeBlock.of("0");
    }
    return CodeBlock.of("null");
  }

  static CodeBlock finalValue(Model.Type t, String local) {
    if (t instanceof OptionalType) {
      return CodeBlock.of("$T.ofNullable($L)", Optional.class, local);
    }
    if (t instanceof RepeatedType r) {
      CodeBlock collected = CodeBlock.of("$T.$L($L)", Names.PROTO_DECODER, r.set() ? "set" : "list", local);
      return r.array() ? ArrayCode.fromList(r, collected) : collected;
    }
    if (t instanceof MapType) {
      return CodeBlock.of("$T.map($L)", Names.PROTO_DECODER, local);
    }
    return CodeBlock.of("$L", local);
  }
}
