package io.boltgen.processor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The structure of a {@code .proto} file as far as the wire is concerned: the service and its rpcs, the
 * messages with their fields and reserved numbers, the enums with their values. {@link ProtoParser} reads
 * it from the proto3 text the processor writes (and a little more: imports, {@code oneof}, options,
 * nested types); {@link SchemaDiff} compares two of them. Names of nested types are qualified with their
 * parents ({@code Outer.Inner}); names are kept as written, never resolved against imports.
 *
 * @param service the Bolt service name from the header comment ({@code // Bolt service demo.Inventory,
 *     version 1.0; ...}), or from the rpcs' className comments, or {@code null} when neither is there
 * @param version the Bolt service version, from the same place, or {@code null}
 */
record ProtoSchema(
    String pkg,
    List<String> imports,
    String service,
    String version,
    String protoService,
    List<Rpc> rpcs,
    Map<String, Message> messages,
    Map<String, EnumDef> enums) {

  /** The largest protobuf field number, the {@code max} of a reserved range. */
  static final int MAX_NUMBER = (1 << 29) - 1;
  static final Set<String> SCALARS = Set.of("double", "float", "int32", "int64", "uint32", "uint64", "sint32",
      "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes");

  /**
   * One rpc.
   *
   * @param className the Bolt className ({@code service:version/method}) from the rpc's comment, or null
   * @param style the call style from that comment ({@code sync}, {@code future}, {@code callback},
   *     {@code oneway}, {@code stream}, {@code client stream}, {@code bidi stream}), or null
   */
  record Rpc(String name, String request, String response, String className, String style, int line) {

    /** The method part of the className (the Bolt identity within the service), else the rpc name. */
    String method() {
      return className == null ? name : className.substring(className.lastIndexOf('/') + 1);
    }

    boolean oneway() {
      return "oneway".equals(style);
    }

    /** Which way the rpc streams: its style if it streams, else {@code unary}. */
    String streaming() {
      return style != null && style.endsWith("stream") ? style : "unary";
    }
  }

  /** How a field holds its values. */
  enum Label {
    /** proto3 implicit presence: no label. */
    IMPLICIT,
    OPTIONAL,
    REQUIRED,
    REPEATED,
    MAP
  }

  /**
   * One field.
   *
   * @param type the value type as written ({@code int32}, {@code SkuId}, {@code google.protobuf.Timestamp})
   * @param key the map key type, for {@link Label#MAP} only
   * @param oneof the enclosing oneof, or null
   */
  record Field(String name, int number, Label label, String key, String type, String oneof, int line) {

    /** The declaration's type part as written in a .proto, e.g. {@code repeated string}. */
    String spelling() {
      return switch (label) {
        case IMPLICIT -> type;
        case MAP -> "map<" + key + ", " + type + ">";
        default -> label.name().toLowerCase(java.util.Locale.ROOT) + " " + type;
      };
    }
  }

  /** A reserved range of numbers, both ends included. */
  record Range(int from, int to) {
    boolean contains(int n) {
      return n >= from && n <= to;
    }
  }

  /**
   * One message.
   *
   * @param javaName the Java type from a {@code // Java: x.y.Z} comment, or null
   */
  record Message(String name, List<Field> fields, List<Range> reserved, Set<String> reservedNames, String javaName,
      int line) {

    Field field(String fieldName) {
      return fields.stream().filter(f -> f.name().equals(fieldName)).findFirst().orElse(null);
    }

    Field number(int n) {
      return fields.stream().filter(f -> f.number() == n).findFirst().orElse(null);
    }

    boolean reserves(int n) {
      return reserved.stream().anyMatch(r -> r.contains(n));
    }
  }

  /** One value of an enum. */
  record Value(String name, int number, int line) {}

  /** One enum. */
  record EnumDef(String name, List<Value> values, List<Range> reserved, Set<String> reservedNames, String javaName,
      int line) {

    Value value(String valueName) {
      return values.stream().filter(v -> v.name().equals(valueName)).findFirst().orElse(null);
    }

    Value number(int n) {
      return values.stream().filter(v -> v.number() == n).findFirst().orElse(null);
    }

    boolean reserves(int n) {
      return reserved.stream().anyMatch(r -> r.contains(n));
    }
  }

  /** Parses {@code text}; throws {@link ProtoParser.ParseException} naming the line of a syntax error. */
  static ProtoSchema parse(String text) {
    return new ProtoParser(text).parse();
  }

  /** The rpc with the Bolt method name {@code method}, or null. */
  Rpc rpc(String method) {
    return rpcs.stream().filter(r -> r.method().equals(method)).findFirst().orElse(null);
  }

  /** The message or enum {@code name} refers to: its local name, or null for scalars and foreign types. */
  String local(String name) {
    String n = name.startsWith(".") ? name.substring(1) : name;
    if (pkg != null && !pkg.isEmpty() && n.startsWith(pkg + ".")) {
      n = n.substring(pkg.length() + 1);
    }
    return messages.containsKey(n) || enums.containsKey(n) ? n : null;
  }

  /** A builder the parser fills. */
  static final class Builder {
    String pkg;
    final List<String> imports = new ArrayList<>();
    String service;
    String version;
    String protoService;
    final List<Rpc> rpcs = new ArrayList<>();
    final Map<String, Message> messages = new LinkedHashMap<>();
    final Map<String, EnumDef> enums = new LinkedHashMap<>();

    ProtoSchema build() {
      if (service == null && !rpcs.isEmpty() && rpcs.get(0).className() != null) {
        String cn = rpcs.get(0).className();
        int colon = cn.indexOf(':');
        int slash = cn.lastIndexOf('/');
        if (colon > 0 && slash > colon) {
          service = cn.substring(0, colon);
          version = cn.substring(colon + 1, slash);
        }
      }
      return new ProtoSchema(pkg, List.copyOf(imports), service, version, protoService, List.copyOf(rpcs),
          Collections.unmodifiableMap(new LinkedHashMap<>(messages)),
          Collections.unmodifiableMap(new LinkedHashMap<>(enums)));
    }
  }
}
