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
import io.boltgen.processor.Model.Field;
import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.Message;
import io.boltgen.processor.Model.MessageKind;
import io.boltgen.processor.Model.Method;
import io.boltgen.processor.Model.OptionalType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.Service;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XxxBoltJson}: per message a write and a read function by protobuf's canonical proto3 JSON mapping
 * of the message the emitted {@code .proto} declares ({@link JsonValueCode} has the form of each type), per enum a
 * name and a read function, and one {@code JsonMarshaller} per method request and response. Like the codecs, a
 * pure function of the model, and reflection-free: per message a {@code JsonFields} table of its names (the JSON
 * names in number order, then the {@code .proto} names that differ), by which fields are written in number order
 * under their JSON names and read through a {@code switch} on the index of the name found, which takes the JSON
 * name and the {@code .proto} name. Methods whose messages have no JSON form ({@link JsonSupport}) get no
 * marshallers.
 */
final class JsonCodecWriter {

  /** Local names the generated functions use themselves; a component with such a name gets a '_' suffix. */
  private static final Set<String> INTERNAL = Set.of("value", "g", "r", "field", "key", "more", "element", "entry",
      "entryKey", "entryValue", "number", "v");

  private final Service service;
  private final ClassName json;
  private final ClassName codecs;
  private final JsonSupport support;
  private final JsonValueCode code = new JsonValueCode();

  JsonCodecWriter(Service service) {
    this.service = service;
    Names.Generated names = Names.Generated.of(service.iface());
    this.json = names.json();
    this.codecs = names.codecs();
    this.support = new JsonSupport(service);
  }

  JavaFile write() {
    TypeSpec.Builder type = TypeSpec.classBuilder(json)
        .addJavadoc("Proto3 JSON codecs of {@link $T}'s messages: protobuf's canonical JSON mapping of {@code $L}.\n",
            service.iface(), Names.protoFile(service.iface()))
        .addAnnotation(Writers.generated())
        .addModifiers(Modifier.FINAL);
    Writers.suppressDeprecation(type, service);
    for (Model.Enumeration en : service.enums()) {
      if (!en.pinned()) {
        type.addField(FieldSpec.builder(ArrayTypeName.of(en.className()), CodecWriter.valuesName(en.protoName()),
                Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("The constants of enum {@code $L.$L} by number: numbered in declaration order.\n",
                service.protoPackage(), en.protoName())
            .initializer("$T.values()", en.className()).build());
      }
    }
    // results of one Java type have one set of functions, named after the first method returning it
    Map<TypeName, List<Message>> responsesByType = new LinkedHashMap<>();
    for (Method m : service.methods()) {
      responsesByType.computeIfAbsent(m.response().javaType(), k -> new ArrayList<>()).add(m.response());
    }
    for (Method m : service.methods()) {
      if (support.supports(m)) {
        type.addField(marshaller(m, m.request(), HolderWriter.marshallerName(m, true), m.request().protoName()));
        type.addField(marshaller(m, m.response(), HolderWriter.marshallerName(m, false),
            responsesByType.get(m.response().javaType()).get(0).protoName()));
      }
    }
    type.addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    for (Method m : service.methods()) {
      if (support.supports(m)) {
        addFunctions(type, m.request(), List.of());
        List<Message> sameType = responsesByType.get(m.response().javaType());
        if (sameType.get(0).protoName().equals(m.response().protoName())) {
          addFunctions(type, m.response(), sameType.subList(1, sameType.size()));
        }
      }
    }
    for (Message message : service.messages()) {
      if (support.supports(message)) {
        addFunctions(type, message, List.of());
      }
    }
    for (Model.Enumeration en : service.enums()) {
      type.addMethod(enumName(en));
      type.addMethod(enumRead(en));
    }
    type.addMethods(code.helpers());
    return Writers.file(service, type.build());
  }

  /** The marshaller of {@code message}, with the functions generated for {@code functions}. */
  private FieldSpec marshaller(Method m, Message message, String constant, String functions) {
    TypeName type = ParameterizedTypeName.get(Names.JSON_MARSHALLER, message.javaType());
    return FieldSpec.builder(type, constant, Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The JSON form of the $L of {@link $T#$L}, message {@code $L}.\n",
            message.kind() == MessageKind.REQUEST ? "arguments" : "result", service.iface(), m.javaName(),
            message.protoName())
        .initializer("$T.of($S,\n$>$>$T::write$L,\n$T::read$L)$<$<", Names.JSON_MARSHALLER,
            service.protoPackage() + "." + message.protoName(), json, functions, json, functions)
        .build();
  }

  // ------------------------------------------------------------------ per message

  /** Write and read functions of {@code message}, which also serve {@code alike} (same Java type). */
  private void addFunctions(TypeSpec.Builder type, Message message, List<Message> alike) {
    String name = message.protoName();
    String fullName = service.protoPackage() + "." + name;
    if (message.kind() == MessageKind.ONEOF) {
      String table = addTable(type, message, fullName, message.fields());
      type.addMethod(oneofWrite(message, fullName, table));
      type.addMethod(oneofRead(message, fullName, table));
      return;
    }
    List<Field> fields = new ArrayList<>(message.fields());
    fields.sort(Comparator.comparingInt(Field::number));
    String table = addTable(type, message, fullName, fields);
    Map<Field, Integer> protoIndices = protoNameIndices(fields);
    Set<String> taken = new HashSet<>(INTERNAL);
    List<String> locals = new ArrayList<>();
    for (Field f : fields) {
      String local = message.kind().holdsValue() ? "value"
          : Names.unique(Character.isUpperCase(f.name().charAt(0)) ? f.name() + "_" : f.name(), taken);
      taken.add(local);
      locals.add(local);
    }
    String doc = "message {@code " + fullName + "}";
    if (!alike.isEmpty()) {
      doc += " (and " + alike.stream().map(a -> "{@code " + a.protoName() + "}").collect(Collectors.joining(", "))
          + ", the same message)";
    }

    MethodSpec.Builder write = MethodSpec.methodBuilder("write" + name)
        .addJavadoc("""
            Writes $L
            as a JSON object: its fields in number order under their JSON names, a field without presence
            left out when it holds its default.
            """, doc)
        .addModifiers(Modifier.STATIC)
        .addParameter(message.javaType(), "value")
        .addParameter(Names.JSON_WRITER, "g")
        .addStatement("g.writeStartObject()");
    for (int i = 0; i < fields.size(); i++) {
      write.addCode(writeField(message, fields.get(i), locals.get(i), CodeBlock.of("$L, $L", table, i)));
    }
    type.addMethod(write.addStatement("g.writeEndObject()").build());

    MethodSpec.Builder read = MethodSpec.methodBuilder("read" + name)
        .addJavadoc("""
            Reads $L
            from a JSON object: a field by its JSON or {@code .proto} name, {@code null} for its default.
            """, doc)
        .addModifiers(Modifier.STATIC)
        .returns(message.javaType())
        .addParameter(Names.JSON_READER, "r");
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      read.addStatement("$T $L = $L", CodecWriter.localType(f.type()), locals.get(i),
          CodecWriter.initialValue(f.type()));
      String flag = null;
      if (!Names.jsonName(f.name()).equals(f.name())) { // two names: the field may come once only
        flag = Names.unique("seen" + Names.capitalize(Names.jsonName(locals.get(i))), taken);
        taken.add(flag);
        read.addStatement("boolean $L = false", flag);
      }
      seen.add(flag);
    }
    if (fields.isEmpty()) {
      read.addComment("no fields: every name is one it does not have");
      read.addStatement("r.beginObject($L)", table);
    } else {
      read.beginControlFlow("for (int field = r.beginObject($L);$Wfield >= 0;$Wfield = r.nextField($L))", table,
          table);
      read.beginControlFlow("switch (field)");
      for (int i = 0; i < fields.size(); i++) {
        read.addCode(readField(fields.get(i), i, protoIndices.get(fields.get(i)), locals.get(i), seen.get(i)));
      }
      read.endControlFlow();
      read.endControlFlow();
    }
    read.addCode(readResult(message, fields, locals));
    type.addMethod(read.build());
  }

  /**
   * Adds the {@code JsonFields} of {@code message}, whose fields in {@code order} are at indices 0, 1, … by
   * their JSON names, followed by the {@code .proto} names that differ: its constant's name.
   */
  private String addTable(TypeSpec.Builder type, Message message, String fullName, List<Field> order) {
    List<String> names = new ArrayList<>();
    for (Field f : order) {
      names.add(Names.jsonName(f.name()));
    }
    for (Field f : protoNameIndices(order).keySet()) {
      names.add(f.name());
    }
    CodeBlock.Builder args = CodeBlock.builder().add("$S", fullName);
    for (String name : names) {
      args.add(",$W$S", name);
    }
    String constant = Names.upperSnake(message.protoName()) + "_FIELDS";
    type.addField(FieldSpec.builder(Names.JSON_FIELDS, constant, Modifier.PRIVATE, Modifier.STATIC,
            Modifier.FINAL)
        .addJavadoc("The field names of message {@code $L}:\n$L, then the {@code .proto} names that differ.\n",
            fullName, message.kind() == MessageKind.ONEOF ? "the JSON names of its members"
            : "its JSON names in field number order")
        .initializer("$T.of($>$>$L)$<$<", Names.JSON_FIELDS, args.build())
        .build());
    return constant;
  }

  /** The index in the table of each field of {@code order} whose {@code .proto} name differs from its JSON name. */
  private static Map<Field, Integer> protoNameIndices(List<Field> order) {
    Map<Field, Integer> indices = new LinkedHashMap<>();
    for (Field f : order) {
      if (!Names.jsonName(f.name()).equals(f.name())) {
        indices.put(f, order.size() + indices.size());
      }
    }
    return indices;
  }

  private static CodeBlock readResult(Message message, List<Field> fields, List<String> locals) {
    if (message.kind().holdsValue()) {
      return fields.isEmpty() ? CodeBlock.of("return null;\n")
          : CodeBlock.of("return $L;\n", CodecWriter.finalValue(fields.get(0).type(), locals.get(0)));
    }
    List<CodeBlock> args = new ArrayList<>(); // the constructor takes the components in declaration order
    for (Field f : message.fields()) {
      args.add(CodecWriter.finalValue(f.type(), locals.get(fields.indexOf(f))));
    }
    return CodeBlock.of("return new $T($L);\n", message.javaType(), CodeBlock.join(args, ", "));
  }

  /** Writes field {@code f}, whose name is {@code name} ({@code table, index}). */
  private CodeBlock writeField(Message message, Field f, String local, CodeBlock name) {
    CodeBlock.Builder b = CodeBlock.builder().add("// $L\n", CodecWriter.fieldComment(f));
    Model.Type t = f.type();
    if (!message.kind().holdsValue()) {
      b.addStatement("$T $L = value.$L()", t.javaType(), local, f.name());
    }
    if (t instanceof OptionalType o) {
      b.beginControlFlow("if ($L != null && $L.isPresent())", local, local);
      b.addStatement("g.writeName($L)", name);
      b.add(code.write(o.value(), CodeBlock.of("$L.get()", local)));
    } else if (t instanceof RepeatedType r) {
      b.beginControlFlow("if ($L)", ArrayCode.notEmpty(r, local));
      b.addStatement("g.writeName($L)", name);
      b.addStatement("g.writeStartArray()");
      b.beginControlFlow("for ($T element : $L)", ArrayCode.element(r), local);
      b.add(code.write(r.element(), CodeBlock.of("$T.element(element)", Names.JSON_VALUES)));
      b.endControlFlow();
      b.addStatement("g.writeEndArray()");
    } else if (t instanceof MapType m) {
      b.beginControlFlow("if ($L != null && !$L.isEmpty())", local, local);
      b.addStatement("g.writeName($L)", name);
      b.addStatement("g.writeStartObject()");
      b.beginControlFlow("for ($T entry : $L.entrySet())", ParameterizedTypeName.get(ClassName.get(Map.Entry.class),
          m.key().javaType().box(), m.value().javaType().box()), local);
      b.add(code.writeKey(m.key(), CodeBlock.of("$T.element(entry.getKey())", Names.JSON_VALUES)));
      b.add(code.write(m.value(), CodeBlock.of("$T.element(entry.getValue())", Names.JSON_VALUES)));
      b.endControlFlow();
      b.addStatement("g.writeEndObject()");
    } else {
      b.beginControlFlow("if ($L)", WireKind.of(t, codecs).present(local));
      b.addStatement("g.writeName($L)", name);
      b.add(code.write(t, CodeBlock.of("$L", local)));
    }
    return b.endControlFlow().build();
  }

  /**
   * The case of field {@code f}: by the index of its JSON name and, when it differs, of its {@code .proto} name
   * ({@code protoIndex}, else null).
   */
  private CodeBlock readField(Field f, int index, Integer protoIndex, String local, String seen) {
    CodeBlock.Builder b = CodeBlock.builder();
    if (protoIndex == null) {
      b.add("case $L -> { // $L\n$>", index, Names.jsonName(f.name()));
    } else {
      b.add("case $L, $L -> { // $L, $L\n$>", index, protoIndex, Names.jsonName(f.name()), f.name());
    }
    b.beginControlFlow("if (!r.isNull())");
    if (seen != null) { // null is no value: the other name may still give one
      b.addStatement("$L = r.once($L)", seen, seen);
    }
    Model.Type t = f.type();
    if (t instanceof RepeatedType r) {
      b.beginControlFlow("for (boolean more = r.beginArray(); more; more = r.nextElement())");
      if (JsonValueCode.mayReadNull(r.element())) {
        b.addStatement("$T element = $L", r.element().javaType(), code.read(r.element()));
        b.add("// null: a value this side does not know, left out\n");
        b.beginControlFlow("if (element != null)");
        b.addStatement("$L = $T.add($L, element)", local, Names.PROTO_DECODER, local);
        b.endControlFlow();
      } else {
        b.addStatement("$L = $T.add($L, $L)", local, Names.PROTO_DECODER, local, code.read(r.element()));
      }
      b.endControlFlow();
    } else if (t instanceof MapType m) {
      b.beginControlFlow("for (String key = r.beginMap(); key != null; key = r.nextKey())");
      if (JsonValueCode.mayReadNull(m.value())) {
        b.addStatement("$T entryKey = $L", m.key().javaType().box(), code.readKey(m.key(), "key"));
        b.addStatement("$T entryValue = $L", m.value().javaType(), code.read(m.value()));
        b.add("// null: a value this side does not know, left out with its key\n");
        b.beginControlFlow("if (entryValue != null)");
        b.addStatement("$L = $T.put($L, entryKey, entryValue)", local, Names.PROTO_DECODER, local);
        b.endControlFlow();
      } else {
        b.addStatement("$L = $T.put($L, $L, $L)", local, Names.PROTO_DECODER, local, code.readKey(m.key(), "key"),
            code.read(m.value()));
      }
      b.endControlFlow();
    } else {
      b.addStatement("$L = $L", local, code.read(t instanceof OptionalType o ? o.value() : t));
    }
    b.endControlFlow();
    return b.add("$<}\n").build();
  }

  // ------------------------------------------------------------------ oneof messages

  private MethodSpec oneofWrite(Message message, String fullName, String table) {
    MethodSpec.Builder write = MethodSpec.methodBuilder("write" + message.protoName())
        .addJavadoc("Writes message {@code $L}, the oneof of {@link $T}: a JSON object holding the member of the"
            + "\nvalue's record.\n", fullName, message.javaType())
        .addModifiers(Modifier.STATIC)
        .addParameter(message.javaType(), "value")
        .addParameter(Names.JSON_WRITER, "g")
        .addStatement("g.writeStartObject()");
    for (int i = 0; i < message.fields().size(); i++) {
      Field f = message.fields().get(i);
      CodeBlock test = CodeBlock.of("value instanceof $T v", f.type().javaType());
      if (i == 0) {
        write.beginControlFlow("if ($L)", test);
      } else {
        write.nextControlFlow("else if ($L)", test);
      }
      write.addComment("$L: $L", f.number(), f.name())
          .addStatement("g.writeName($L, $L)", table, i)
          .addCode(code.write(f.type(), CodeBlock.of("v")));
    }
    if (!message.fields().isEmpty()) {
      write.endControlFlow();
    }
    return write.addStatement("g.writeEndObject()").build();
  }

  private MethodSpec oneofRead(Message message, String fullName, String table) {
    Map<Field, Integer> protoIndices = protoNameIndices(message.fields());
    MethodSpec.Builder read = MethodSpec.methodBuilder("read" + message.protoName())
        .addJavadoc("""
            Reads message {@code $L}, the oneof of {@link $T}: its one member, or {@code null} when none
            is known here; two members are an error.
            """, fullName, message.javaType())
        .addModifiers(Modifier.STATIC)
        .returns(message.javaType())
        .addParameter(Names.JSON_READER, "r")
        .addStatement("$T value = null", message.javaType())
        .beginControlFlow("for (int field = r.beginObject($L);$Wfield >= 0;$Wfield = r.nextField($L))", table,
            table)
        .beginControlFlow("switch (field)");
    for (int i = 0; i < message.fields().size(); i++) {
      Field f = message.fields().get(i);
      Integer protoIndex = protoIndices.get(f);
      read.addCode(protoIndex == null ? CodeBlock.of("case $L -> { // $L\n$>", i, f.name())
              : CodeBlock.of("case $L, $L -> { // $L, $L\n$>", i, protoIndex, Names.jsonName(f.name()), f.name()))
          .beginControlFlow("if (!r.isNull())")
          .addStatement("value = r.oneof(value, $L)", code.read(f.type()))
          .endControlFlow()
          .addCode("$<}\n");
    }
    return read.endControlFlow()
        .endControlFlow()
        .addStatement("return value")
        .build();
  }

  // ------------------------------------------------------------------ enums

  private MethodSpec enumName(Model.Enumeration en) {
    CodeBlock.Builder body = CodeBlock.builder().add("return switch (value) {\n$>");
    for (String constant : en.constants()) {
      body.add("case $L -> $S;\n", constant, ProtoFileWriter.valueName(en, constant));
    }
    return MethodSpec.methodBuilder(JsonValueCode.nameOf(en.protoName()))
        .addJavadoc("The JSON value of {@code value} in enum {@code $L.$L}: the name of its value.\n",
            service.protoPackage(), en.protoName())
        .addModifiers(Modifier.STATIC)
        .returns(String.class)
        .addParameter(en.className(), "value")
        .addCode(body.add("$<};\n").build())
        .build();
  }

  private MethodSpec enumRead(Model.Enumeration en) {
    String fullName = service.protoPackage() + "." + en.protoName();
    CodeBlock.Builder body = CodeBlock.builder().add("return switch (r.enumText()) {\n$>");
    for (String constant : en.constants()) {
      body.add("case $S -> $T.$L;\n", ProtoFileWriter.valueName(en, constant), en.className(), constant);
    }
    CodeBlock constant = en.pinned()
        ? CodeBlock.of("$T.$L(number)", codecs, EnumCodec.constantOfName(en.protoName()))
        : CodeBlock.of("$T.enumValue($L, number)", Names.PROTO_DECODER, CodecWriter.valuesName(en.protoName()));
    body.add("default -> {\n$>")
        .addStatement("$T number = r.enumNumber($S)", Integer.class, fullName)
        .addStatement("yield number == null ? null : $L", constant)
        .add("$<}\n");
    return MethodSpec.methodBuilder("read" + en.protoName())
        .addJavadoc("""
            Reads a value of enum {@code $L} by name or number: {@code null} for a number this side
            does not know, or an unknown name when unknown fields are ignored.
            """, fullName)
        .addModifiers(Modifier.STATIC)
        .returns(en.className())
        .addParameter(Names.JSON_READER, "r")
        .addCode(body.add("$<};\n").build())
        .build();
  }
}
