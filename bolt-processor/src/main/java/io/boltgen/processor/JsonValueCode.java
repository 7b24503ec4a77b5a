package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import io.boltgen.processor.Model.BytesType;
import io.boltgen.processor.Model.EnumType;
import io.boltgen.processor.Model.Jdk;
import io.boltgen.processor.Model.JdkType;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.ProtoMessageType;
import io.boltgen.processor.Model.Scalar;
import io.boltgen.processor.Model.ScalarType;
import io.boltgen.processor.Model.StringType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.lang.model.element.Modifier;

/**
 * The generated code that writes and reads one singular value in its proto3 JSON form, per type kind, for
 * {@link JsonCodecWriter}: what the emitted {@code .proto} declares for the type decides the form (a Java
 * {@code long} is an {@code int64}, so a JSON string; an {@code Instant} a {@code google.protobuf.Timestamp},
 * so RFC 3339 text; a {@code UUID} a {@code string}). Records, sealed interfaces and enums are written and read by
 * the functions generated for them ({@code writePoint}, {@code readColor}).
 *
 * <p>Generated code names: {@code g} is the {@code JsonWriter}, {@code r} the {@code JsonReader}.
 */
final class JsonValueCode {

  private static final ClassName TIMESTAMP = ClassName.get("com.google.protobuf", "Timestamp");
  private static final ClassName DURATION = ClassName.get("com.google.protobuf", "Duration");

  /** The conversions from JDK values to protobuf-java's well-known messages the code calls, by name. */
  private final Map<String, MethodSpec> helpers = new TreeMap<>();

  /** Statements writing the value {@code x} (not {@code null}) of singular type {@code t}. */
  CodeBlock write(Model.Type t, CodeBlock x) {
    if (t instanceof ScalarType s) {
      if (s.unsigned()) {
        return s.scalar() == Scalar.LONG
            ? CodeBlock.of("$T.writeUint64(g, $L);\n", Names.JSON_VALUES, x)
            : CodeBlock.of("g.writeNumber($T.toUnsignedLong($L));\n", Integer.class, x);
      }
      switch (s.scalar()) {
        case BOOLEAN:
          return CodeBlock.of("g.writeBoolean($L);\n", x);
        case CHAR:
          return CodeBlock.of("g.writeNumber((int) $L);\n", x);
        case LONG:
          return CodeBlock.of("$T.writeInt64(g, $L);\n", Names.JSON_VALUES, x);
        case FLOAT:
          return CodeBlock.of("$T.writeFloat(g, $L);\n", Names.JSON_VALUES, x);
        case DOUBLE:
          return CodeBlock.of("$T.writeDouble(g, $L);\n", Names.JSON_VALUES, x);
        default:
          return CodeBlock.of("g.writeNumber($L);\n", x);
      }
    }
    if (t instanceof StringType) {
      return CodeBlock.of("$T.writeString(g, $L);\n", Names.JSON_VALUES, x);
    }
    if (t instanceof BytesType) {
      return CodeBlock.of("$T.writeBytes(g, $L);\n", Names.JSON_VALUES, x);
    }
    if (t instanceof EnumType e) {
      return CodeBlock.of("g.writeString($L($L));\n", nameOf(e.protoName()), x);
    }
    if (t instanceof MessageType m) {
      return CodeBlock.of("write$L($L, g);\n", m.protoName(), x);
    }
    if (t instanceof Model.NestedType n) {
      return CodeBlock.of("write$L($L, g);\n", n.protoName(), x); // the message holding it: {"values": …}
    }
    if (t instanceof ProtoMessageType p) {
      // google.protobuf.Timestamp or Duration (JsonSupport): their seconds and nanos
      return CodeBlock.of("$T.$L(g, $L.getSeconds(), $L.getNanos());\n", Names.JSON_VALUES,
          p.protoName().equals(WellKnownTypes.TIMESTAMP) ? "writeTimestamp" : "writeDuration", x, x);
    }
    Jdk jdk = ((JdkType) t).jdk();
    switch (jdk) {
      case INSTANT:
        return CodeBlock.of("$T.writeTimestamp(g, $L);\n", Names.JSON_VALUES, x);
      case DATE:
      case SQL_TIMESTAMP:
        return CodeBlock.of("$T.writeTimestamp(g, $L.toInstant());\n", Names.JSON_VALUES, x);
      case DURATION:
        return CodeBlock.of("$T.writeDuration(g, $L);\n", Names.JSON_VALUES, x);
      default:
        return CodeBlock.of("$T.writeString(g, $L);\n", Names.JSON_VALUES, text(jdk, x));
    }
  }

  /**
   * An expression reading one value of singular type {@code t} at the reader's current token (not {@code null});
   * an enum or a sealed interface reads as {@code null} when the value is one this side does not know.
   */
  CodeBlock read(Model.Type t) {
    if (t instanceof ScalarType s) {
      if (s.unsigned()) {
        return CodeBlock.of(s.scalar() == Scalar.LONG ? "r.readUint64()" : "r.readUint32()");
      }
      return CodeBlock.of("r.read$L()", Names.capitalize(s.scalar().primitive.toString()));
    }
    if (t instanceof StringType) {
      return CodeBlock.of("r.readString()");
    }
    if (t instanceof BytesType) {
      return CodeBlock.of("r.readBytes()");
    }
    if (t instanceof EnumType e) {
      return CodeBlock.of("read$L(r)", e.protoName());
    }
    if (t instanceof MessageType m) {
      return CodeBlock.of("read$L(r)", m.protoName());
    }
    if (t instanceof Model.NestedType n) {
      return CodeBlock.of("read$L(r)", n.protoName());
    }
    if (t instanceof ProtoMessageType p) {
      boolean timestamp = p.protoName().equals(WellKnownTypes.TIMESTAMP);
      MethodSpec helper = timestamp ? timestampHelper() : durationHelper();
      helpers.put(helper.name(), helper);
      return CodeBlock.of("$L(r.$L())", helper.name(), timestamp ? "readTimestamp" : "readDuration");
    }
    Jdk jdk = ((JdkType) t).jdk();
    switch (jdk) {
      case INSTANT:
        return CodeBlock.of("r.readTimestamp()");
      case DATE:
        return CodeBlock.of("$T.date(r.readTimestamp())", JdkKind.PROTO_TYPES);
      case SQL_TIMESTAMP:
        return CodeBlock.of("$T.sqlTimestamp(r.readTimestamp())", JdkKind.PROTO_TYPES);
      case DURATION:
        return CodeBlock.of("r.readDuration()");
      default:
        return CodeBlock.of("r.readText($T::$L)", JdkKind.PROTO_TYPES, JdkKind.parseCall(jdk).name());
    }
  }

  /** Whether reading {@code t} may give {@code null}: an enum or sealed interface value this side does not know. */
  static boolean mayReadNull(Model.Type t) {
    return t instanceof EnumType || (t instanceof MessageType m && m.oneof());
  }

  /** Statements writing the map key {@code k} (boxed, not {@code null}) of type {@code t} as a JSON name. */
  CodeBlock writeKey(Model.Type t, CodeBlock k) {
    if (t instanceof StringType) {
      return CodeBlock.of("$T.writeKey(g, $L);\n", Names.JSON_VALUES, k);
    }
    if (t instanceof JdkType j) {
      return CodeBlock.of("$T.writeKey(g, $L);\n", Names.JSON_VALUES, text(j.jdk(), k));
    }
    ScalarType s = (ScalarType) t;
    if (s.unsigned()) {
      return CodeBlock.of("g.writeName($T.toUnsignedString($L));\n",
          s.scalar() == Scalar.LONG ? Long.class : Integer.class, k);
    }
    switch (s.scalar()) {
      case BOOLEAN:
        return CodeBlock.of("g.writeName($T.toString($L));\n", Boolean.class, k);
      case LONG:
        return CodeBlock.of("g.writeName($T.toString($L));\n", Long.class, k);
      default: // byte, short, char (a uint32) and int: decimal
        return CodeBlock.of("g.writeName($T.toString($L));\n", Integer.class, k);
    }
  }

  /** An expression: the map key of type {@code t} in the JSON name {@code key}. */
  CodeBlock readKey(Model.Type t, String key) {
    if (t instanceof StringType) {
      return CodeBlock.of("r.stringKey($L)", key);
    }
    if (t instanceof JdkType j) {
      return CodeBlock.of("r.textKey($L, $T::$L)", key, JdkKind.PROTO_TYPES, JdkKind.parseCall(j.jdk()).name());
    }
    ScalarType s = (ScalarType) t;
    if (s.unsigned()) {
      return CodeBlock.of("r.$LKey($L)", s.scalar() == Scalar.LONG ? "uint64" : "uint32", key);
    }
    return CodeBlock.of("r.$LKey($L)", s.scalar().primitive, key);
  }


  /** The helpers the code read so far calls, sorted by name. */
  List<MethodSpec> helpers() {
    return new ArrayList<>(helpers.values());
  }

  /** The function naming the JSON value of a constant of the enum {@code protoName}. */
  static String nameOf(String protoName) {
    return "nameOf" + protoName;
  }

  /** The text of a JDK value carried as a {@code string}, as the protobuf codec writes it. */
  private static CodeBlock text(Jdk jdk, CodeBlock x) {
    switch (jdk) {
      case BIG_DECIMAL:
        return CodeBlock.of("$T.$L($L)", JdkKind.PROTO_TYPES, JdkKind.DECIMAL_TEXT.name(), x);
      case BIG_INTEGER:
        return CodeBlock.of("$T.$L($L)", JdkKind.PROTO_TYPES, JdkKind.INTEGER_TEXT.name(), x);
      default:
        return CodeBlock.of("$L.toString()", x);
    }
  }

  private static MethodSpec timestampHelper() {
    return MethodSpec.methodBuilder("protoTimestamp")
        .addJavadoc("The {@code google.protobuf.Timestamp} of {@code instant}.\n")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(TIMESTAMP)
        .addParameter(Jdk.INSTANT.className, "instant")
        .addStatement("return $T.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build()",
            TIMESTAMP)
        .build();
  }

  private static MethodSpec durationHelper() {
    return MethodSpec.methodBuilder("protoDuration")
        .addJavadoc("The {@code google.protobuf.Duration} of {@code duration}: its nanos take the sign of its"
            + " seconds.\n")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(DURATION)
        .addParameter(Jdk.DURATION.className, "duration")
        .addStatement("long seconds = duration.getSeconds()")
        .addStatement("int nanos = duration.getNano()")
        .beginControlFlow("if (seconds < 0 && nanos > 0)")
        .addStatement("seconds++")
        .addStatement("nanos -= 1_000_000_000")
        .endControlFlow()
        .addStatement("return $T.newBuilder().setSeconds(seconds).setNanos(nanos).build()", DURATION)
        .build();
  }
}
