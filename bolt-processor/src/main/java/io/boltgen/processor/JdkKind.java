package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.Jdk;
import io.boltgen.processor.Model.JdkType;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire kinds of the JDK value types ({@link Jdk}), all delegating to the runtime's {@code ProtoTypes}:
 * {@code Instant} and {@code Duration} as the {@code google.protobuf} messages {@code Timestamp} and
 * {@code Duration} ({@link WellKnownKind}), the others as their canonical text ({@link TextKind}).
 */
final class JdkKind {

  static final ClassName PROTO_TYPES = ClassName.get(Names.RUNTIME + ".codec.protobuf", "ProtoTypes");

  /**
   * A static method of the runtime's {@code ProtoTypes} that generated code calls: its name, result and
   * parameter types. Every call generated code makes is one of {@link #calls()}, which bolt-processor's
   * {@code RuntimeCallsTest} checks against the runtime itself.
   */
  record Call(String name, TypeName returns, List<TypeName> parameters) {
    Call(String name, TypeName returns, TypeName... parameters) {
      this(name, returns, List.of(parameters));
    }
  }

  /** {@code BigDecimal}'s text, bounded. */
  static final Call DECIMAL_TEXT = new Call("decimalText", ClassName.get(String.class), Jdk.BIG_DECIMAL.className);
  /** {@code BigInteger}'s text, bounded. */
  static final Call INTEGER_TEXT = new Call("integerText", ClassName.get(String.class), Jdk.BIG_INTEGER.className);

  /** The encoded size of a well-known message's fields: {@code sizeTimestamp(Instant)}. */
  static Call sizeCall(Jdk jdk) {
    return new Call("size" + jdk.runtimeName, TypeName.INT, jdk.className);
  }

  /** Writes a well-known message's fields: {@code writeTimestamp(Instant, ProtoEncoder)}. */
  static Call writeCall(Jdk jdk) {
    return new Call("write" + jdk.runtimeName, TypeName.VOID, jdk.className, Names.PROTO_ENCODER);
  }

  /** Reads a well-known message's fields: {@code readTimestamp(ProtoDecoder)}, a {@code MessageReader}. */
  static Call readCall(Jdk jdk) {
    return new Call("read" + jdk.runtimeName, jdk.className, Names.PROTO_DECODER);
  }

  /** Parses a value carried as text: {@code parseUuid(String)}. */
  static Call parseCall(Jdk jdk) {
    return new Call("parse" + jdk.runtimeName, jdk.className, ClassName.get(String.class));
  }

  /** Every {@code ProtoTypes} method generated code may call. */
  static List<Call> calls() {
    List<Call> calls = new ArrayList<>(List.of(DECIMAL_TEXT, INTEGER_TEXT));
    for (Jdk jdk : Jdk.values()) {
      calls.addAll(jdk.message() ? List.of(sizeCall(jdk), writeCall(jdk), readCall(jdk)) : List.of(parseCall(jdk)));
    }
    return calls;
  }

  private JdkKind() {}

  static WireKind of(JdkType type) {
    return type.jdk().message() ? new WellKnownKind(type.jdk()) : new TextKind(type.jdk());
  }

  /** The proto type of {@code jdk}: a fully qualified well-known message, or {@code string}. */
  static String protoType(Jdk jdk) {
    switch (jdk) {
      case INSTANT:
      case DATE:
      case SQL_TIMESTAMP:
        return WellKnownTypes.TIMESTAMP;
      case DURATION:
        return WellKnownTypes.DURATION;
      default:
        return "string";
    }
  }

  /** The {@code .proto} file declaring the type of {@code jdk}, or {@code null} for {@code string}. */
  static String protoFile(Jdk jdk) {
    switch (jdk) {
      case INSTANT:
      case DATE:
      case SQL_TIMESTAMP:
        return WellKnownTypes.TIMESTAMP_FILE;
      case DURATION:
        return WellKnownTypes.DURATION_FILE;
      default:
        return null;
    }
  }

  /** The {@code .proto} comment on a field of {@code jdk}: the Java type and, for text, its form. */
  static String note(Jdk jdk) {
    switch (jdk) {
      case BIG_DECIMAL:
        return "a Java BigDecimal: BigDecimal.toString() text, e.g. 1.50 or 1.5E+10";
      case BIG_INTEGER:
        return "a Java BigInteger: decimal text";
      case UUID:
        return "a Java UUID: 8-4-4-4-12 hex digits";
      case LOCAL_DATE:
        return "a Java LocalDate: ISO-8601 text, e.g. 2024-02-29";
      case LOCAL_TIME:
        return "a Java LocalTime: ISO-8601 text, e.g. 10:15 or 10:15:30.5";
      case LOCAL_DATE_TIME:
        return "a Java LocalDateTime: ISO-8601 text without offset, e.g. 2024-02-29T10:15:30";
      case URI:
        return "a Java URI";
      case DATE:
        return "a Java Date: milliseconds; a finer timestamp is refused";
      case SQL_TIMESTAMP:
        return "a Java SQL Timestamp: to the nanosecond";
      default:
        return "a Java " + jdk.className.simpleName();
    }
  }

  /**
   * {@code Instant} or {@code Duration}: an embedded {@code google.protobuf.Timestamp}/{@code Duration},
   * sized and written like a record's message (so it counts as a nesting level on both sides).
   */
  static final class WellKnownKind extends WireKind {
    private final Jdk jdk;

    WellKnownKind(Jdk jdk) {
      this.jdk = jdk;
    }

    @Override
    int wireType() {
      return LENGTH_DELIMITED;
    }

    @Override
    String protoType() {
      return JdkKind.protoType(jdk);
    }

    @Override
    CodeBlock size(CodeBlock x) {
      return CodeBlock.of("e.nested(e.reserve(), $T.$L($L))", PROTO_TYPES, sizeCall(jdk).name(), x);
    }

    @Override
    CodeBlock write(CodeBlock x) {
      return CodeBlock.of("e.writeLength();\n$T.$L($L, e);\n", PROTO_TYPES, writeCall(jdk).name(), x);
    }

    @Override
    CodeBlock read() {
      return CodeBlock.of("d.readMessage($T::$L)", PROTO_TYPES, readCall(jdk).name());
    }

    /** The message's default: the epoch (an Instant, a Date or a Timestamp), or a zero duration. */
    @Override
    CodeBlock mapDefault() {
      return jdk == Jdk.INSTANT ? CodeBlock.of("$T.EPOCH", jdk.className)
          : jdk == Jdk.DATE || jdk == Jdk.SQL_TIMESTAMP ? CodeBlock.of("new $T(0L)", jdk.className)
          : CodeBlock.of("$T.ZERO", jdk.className);
    }
  }

  /** A value carried as its canonical text in a {@code string}, parsed back by {@code ProtoTypes.parseXxx}. */
  static final class TextKind extends WireKind {
    private final Jdk jdk;

    TextKind(Jdk jdk) {
      this.jdk = jdk;
    }

    @Override
    int wireType() {
      return LENGTH_DELIMITED;
    }

    @Override
    String protoType() {
      return "string";
    }

    private CodeBlock text(CodeBlock x) {
      if (jdk == Jdk.BIG_DECIMAL) {
        return CodeBlock.of("$T.$L($L)", PROTO_TYPES, DECIMAL_TEXT.name(), x);
      }
      if (jdk == Jdk.BIG_INTEGER) {
        return CodeBlock.of("$T.$L($L)", PROTO_TYPES, INTEGER_TEXT.name(), x);
      }
      return CodeBlock.of("$L.toString()", x);
    }

    @Override
    CodeBlock size(CodeBlock x) {
      return CodeBlock.of("e.string($L)", text(x));
    }

    @Override
    CodeBlock write(CodeBlock x) {
      return CodeBlock.of("e.writeString($L);\n", text(x));
    }

    @Override
    CodeBlock read() {
      return CodeBlock.of("$T.$L(d.readString())", PROTO_TYPES, parseCall(jdk).name());
    }

    /** A placeholder: the default, an empty string, is parsed once the entry was read. */
    @Override
    CodeBlock mapDefault() {
      return CodeBlock.of("null");
    }

    /** The empty string parsed like any other text: a decode error except for {@code URI}. */
    @Override
    CodeBlock missingInEntry() {
      return CodeBlock.of("$T.$L(\"\")", PROTO_TYPES, parseCall(jdk).name());
    }
  }
}
