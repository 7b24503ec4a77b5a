package io.boltgen.processor;

import io.boltgen.processor.ProtoSchema.EnumDef;
import io.boltgen.processor.ProtoSchema.Field;
import io.boltgen.processor.ProtoSchema.Label;
import io.boltgen.processor.ProtoSchema.Message;
import io.boltgen.processor.ProtoSchema.Range;
import io.boltgen.processor.ProtoSchema.Rpc;
import io.boltgen.processor.ProtoSchema.Value;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary descriptor of an emitted {@code .proto}: a {@code google.protobuf.FileDescriptorProto} as protoc
 * makes it from that text (names, packages, fields with their labels, types, JSON names, oneofs, proto3
 * {@code optional} as synthetic oneofs, maps as nested {@code ...Entry} messages, reserved numbers and names, the
 * service and its streams), written from the {@link ProtoSchema} parsed back from the text itself, so the two
 * cannot differ. Comments are left out, as {@code protoc --descriptor_set_out} leaves them out without
 * {@code --include_source_info}; the emitted text declares no options. Reserved names keep the text's order. Servers
 * answer gRPC server reflection with it.
 *
 * <p>Field numbers are {@code descriptor.proto}'s.
 */
final class DescriptorSetWriter {

  private static final Map<String, Integer> SCALAR_TYPES = Map.ofEntries(
      Map.entry("double", 1), Map.entry("float", 2), Map.entry("int64", 3), Map.entry("uint64", 4),
      Map.entry("int32", 5), Map.entry("fixed64", 6), Map.entry("fixed32", 7), Map.entry("bool", 8),
      Map.entry("string", 9), Map.entry("bytes", 12), Map.entry("uint32", 13), Map.entry("sfixed32", 15),
      Map.entry("sfixed64", 16), Map.entry("sint32", 17), Map.entry("sint64", 18));
  private static final int TYPE_MESSAGE = 11;
  private static final int TYPE_ENUM = 14;
  private static final int LABEL_OPTIONAL = 1;
  private static final int LABEL_REQUIRED = 2;
  private static final int LABEL_REPEATED = 3;

  private final ProtoSchema schema;

  private DescriptorSetWriter(ProtoSchema schema) {
    this.schema = schema;
  }

  /**
   * The {@code FileDescriptorSet} of the emitted {@code .proto} {@code text} at the resource path {@code resource}:
   * the files it imports, as protobuf-java compiled them ({@code descriptors}; {@code google/protobuf/timestamp.proto}
   * and {@code duration.proto} as their {@code .proto} text declares them when protobuf-java is not on the class
   * path), then the file itself, named as protoc names it when compiled from the resource's directory.
   */
  static byte[] forService(String resource, String text, ProtoDescriptors descriptors) {
    ProtoSchema schema = ProtoSchema.parse(text);
    Map<String, ProtoDescriptors.File> known = new LinkedHashMap<>();
    for (String imported : schema.imports()) {
      known.putAll(descriptors.files(imported));
      String builtIn = WellKnownTypes.builtIn(imported);
      if (!known.containsKey(imported) && builtIn != null) {
        known.put(imported, new ProtoDescriptors.File(file(imported, ProtoSchema.parse(builtIn)), List.of()));
      }
    }
    return set(resource.substring(resource.lastIndexOf('/') + 1), schema, dependencies(schema.imports(), known));
  }

  /**
   * A {@code FileDescriptorSet}: {@code dependencies} (the files the {@code .proto} imports and those they import,
   * each before the files that import it), then the file {@code fileName} described by {@code schema}.
   */
  static byte[] set(String fileName, ProtoSchema schema, List<byte[]> dependencies) {
    Out set = new Out();
    for (byte[] dependency : dependencies) {
      set.bytes(1, dependency);
    }
    set.bytes(1, file(fileName, schema));
    return set.toByteArray();
  }

  /** The {@code FileDescriptorProto} of {@code schema}, named {@code fileName}. */
  static byte[] file(String fileName, ProtoSchema schema) {
    return new DescriptorSetWriter(schema).file(fileName);
  }

  private byte[] file(String fileName) {
    Out file = new Out();
    file.string(1, fileName);
    if (schema.pkg() != null && !schema.pkg().isEmpty()) {
      file.string(2, schema.pkg());
    }
    for (String dependency : schema.imports()) {
      file.string(3, dependency);
    }
    for (Message message : schema.messages().values()) {
      if (message.name().indexOf('.') < 0) {
        file.message(4, message(message));
      }
    }
    for (EnumDef e : schema.enums().values()) {
      if (e.name().indexOf('.') < 0) {
        file.message(5, enumDef(e));
      }
    }
    if (schema.protoService() != null) {
      Out service = new Out();
      service.string(1, schema.protoService());
      for (Rpc rpc : schema.rpcs()) {
        Out method = new Out();
        method.string(1, rpc.name());
        method.string(2, resolve(rpc.request(), "").name);
        method.string(3, resolve(rpc.response(), "").name);
        String streaming = rpc.streaming();
        if (streaming.equals("client stream") || streaming.equals("bidi stream")) {
          method.bool(5, true);
        }
        if (streaming.equals("stream") || streaming.equals("bidi stream")) {
          method.bool(6, true);
        }
        service.message(2, method);
      }
      file.message(6, service);
    }
    file.string(12, "proto3");
    return file.toByteArray();
  }

  private Out message(Message message) {
    Out out = new Out();
    out.string(1, simpleName(message.name()));
    List<String> oneofs = new ArrayList<>();
    for (Field f : message.fields()) {
      if (f.oneof() != null && !oneofs.contains(f.oneof())) {
        oneofs.add(f.oneof());
      }
    }
    List<Out> entries = new ArrayList<>();
    for (Field f : message.fields()) {
      Out field = new Out();
      field.string(1, f.name());
      field.varint(3, f.number());
      if (f.label() == Label.MAP) {
        String entry = mapEntryName(f.name());
        field.varint(4, LABEL_REPEATED);
        field.varint(5, TYPE_MESSAGE);
        field.string(6, "." + qualified(message.name() + "." + entry));
        entries.add(mapEntry(entry, f, message.name()));
      } else {
        field.varint(4, f.label() == Label.REPEATED ? LABEL_REPEATED
            : f.label() == Label.REQUIRED ? LABEL_REQUIRED : LABEL_OPTIONAL);
        type(field, f.type(), message.name());
      }
      if (f.oneof() != null) {
        field.varint(9, oneofs.indexOf(f.oneof()));
      } else if (f.label() == Label.OPTIONAL) {
        field.varint(9, oneofs.size());
        oneofs.add(syntheticOneof(f.name(), message, oneofs));
      }
      field.string(10, Names.jsonName(f.name()));
      if (f.oneof() == null && f.label() == Label.OPTIONAL) {
        field.bool(17, true);
      }
      out.message(2, field);
    }
    for (Message nested : schema.messages().values()) {
      if (parentName(nested.name()).equals(message.name())) {
        out.message(3, message(nested));
      }
    }
    for (Out entry : entries) {
      out.message(3, entry);
    }
    for (EnumDef nested : schema.enums().values()) {
      if (parentName(nested.name()).equals(message.name())) {
        out.message(4, enumDef(nested));
      }
    }
    for (String oneof : oneofs) {
      Out decl = new Out();
      decl.string(1, oneof);
      out.message(8, decl);
    }
    for (Range range : message.reserved()) {
      Out reserved = new Out();
      reserved.varint(1, range.from());
      reserved.varint(2, range.to() + 1); // a message's reserved range ends after its last number
      out.message(9, reserved);
    }
    for (String name : message.reservedNames()) {
      out.string(10, name);
    }
    return out;
  }

  /** The nested {@code ...Entry} message protoc makes for the map field {@code f} of {@code owner}. */
  private Out mapEntry(String entry, Field f, String owner) {
    Out out = new Out();
    out.string(1, entry);
    out.message(2, entryField("key", 1, f.key(), owner));
    out.message(2, entryField("value", 2, f.type(), owner));
    Out options = new Out();
    options.bool(7, true); // MessageOptions.map_entry
    out.message(7, options);
    return out;
  }

  /** A field of a map entry: {@code key} (1) or {@code value} (2), of the type written in the map's declaration. */
  private Out entryField(String name, int number, String written, String owner) {
    Out field = new Out();
    field.string(1, name);
    field.varint(3, number);
    field.varint(4, LABEL_OPTIONAL);
    type(field, written, owner);
    field.string(10, name);
    return field;
  }

  private Out enumDef(EnumDef e) {
    Out out = new Out();
    out.string(1, simpleName(e.name()));
    for (Value v : e.values()) {
      Out value = new Out();
      value.string(1, v.name());
      value.varint(2, v.number());
      out.message(2, value);
    }
    for (Range range : e.reserved()) {
      Out reserved = new Out();
      reserved.varint(1, range.from());
      reserved.varint(2, range.to()); // an enum's reserved range includes its end
      out.message(4, reserved);
    }
    for (String name : e.reservedNames()) {
      out.string(5, name);
    }
    return out;
  }

  /** Writes a field's {@code type} and {@code type_name} for the type {@code written} in {@code scope}. */
  private void type(Out field, String written, String scope) {
    Integer scalar = SCALAR_TYPES.get(written);
    if (scalar != null) {
      field.varint(5, scalar);
      return;
    }
    Resolved resolved = resolve(written, scope);
    field.varint(5, resolved.isEnum ? TYPE_ENUM : TYPE_MESSAGE);
    field.string(6, resolved.name);
  }

  /** A type name resolved as protoc resolves it: a fully qualified name (leading dot), and whether it is an enum. */
  private record Resolved(String name, boolean isEnum) {}

  /**
   * Resolves {@code written} from within the message {@code scope} ({@code ""} at the top): this file's types,
   * innermost scope first, else the name as written, fully qualified (the processor writes imported types in
   * full; they are messages).
   */
  private Resolved resolve(String written, String scope) {
    if (written.startsWith(".")) {
      String local = schema.local(written);
      return new Resolved(written, local != null && schema.enums().containsKey(local));
    }
    String outer = scope;
    while (true) {
      String candidate = outer.isEmpty() ? written : outer + "." + written;
      if (schema.messages().containsKey(candidate) || schema.enums().containsKey(candidate)) {
        return new Resolved("." + qualified(candidate), schema.enums().containsKey(candidate));
      }
      if (outer.isEmpty()) {
        return new Resolved("." + written, false);
      }
      outer = parentName(outer);
    }
  }

  private String qualified(String local) {
    return schema.pkg() == null || schema.pkg().isEmpty() ? local : schema.pkg() + "." + local;
  }

  /**
   * The synthetic oneof protoc gives a proto3 {@code optional} field: {@code _name}, prefixed with {@code X} until
   * no other field or oneof of the message has that name.
   */
  private static String syntheticOneof(String fieldName, Message message, List<String> oneofs) {
    String name = "_" + fieldName;
    while (message.field(name) != null || oneofs.contains(name)) {
      name = "X" + name;
    }
    return name;
  }

  /** protoc's name of a map field's entry: {@code reserved_by} → {@code ReservedByEntry}. */
  static String mapEntryName(String fieldName) {
    String camel = Names.jsonName(fieldName);
    return Names.capitalize(camel) + "Entry";
  }

  private static String simpleName(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }

  private static String parentName(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(0, dot);
  }

  /** Protobuf's binary form, as much of it as descriptors use. */
  private static final class Out {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    void varint(int field, long value) {
      raw(field << 3);
      raw(value);
    }

    void bool(int field, boolean value) {
      varint(field, value ? 1 : 0);
    }

    void string(int field, String value) {
      bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    void message(int field, Out message) {
      bytes(field, message.toByteArray());
    }

    void bytes(int field, byte[] value) {
      raw(field << 3 | 2);
      raw(value.length);
      bytes.write(value, 0, value.length);
    }

    private void raw(long value) {
      long v = value;
      while ((v & ~0x7FL) != 0) {
        bytes.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      bytes.write((int) v);
    }

    byte[] toByteArray() {
      return bytes.toByteArray();
    }
  }

  /** The descriptors of the files {@code imports} name and of those they import, each after its dependencies. */
  static List<byte[]> dependencies(List<String> imports, Map<String, ProtoDescriptors.File> known) {
    Map<String, byte[]> ordered = new LinkedHashMap<>();
    for (String name : imports) {
      addWithDependencies(name, known, ordered);
    }
    return List.copyOf(ordered.values());
  }

  private static void addWithDependencies(String name, Map<String, ProtoDescriptors.File> known,
      Map<String, byte[]> ordered) {
    ProtoDescriptors.File file = known.get(name);
    if (file == null || ordered.containsKey(name)) {
      return;
    }
    for (String dependency : file.dependencies()) {
      addWithDependencies(dependency, known, ordered);
    }
    ordered.put(name, file.descriptor());
  }
}
