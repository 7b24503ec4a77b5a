package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import io.boltgen.processor.Model.Jdk;
import io.boltgen.processor.Model.JdkType;

/**
 * The wire kinds of the JDK value types ({@link Jdk}), all delegating to the runtime's {@code ProtoTypes}:
 * {@code Instant} and {@code Duration} as the {@code google.protobuf} messages {@code Timestamp} and
 * {@code Duration} ({@link WellKnownKind}), the others as their canonical text ({@link TextKind}).
 */
final class JdkKind {

  static final ClassName PROTO_TYPES = ClassName.get(Names.RUNTIME + ".codec.protobuf", "ProtoTypes");

  private JdkKind() {}

  static WireKind of(JdkType type) {
    return type.jdk().message() ? new WellKnownKind(type.jdk()) : new TextKind(type.jdk());
  }

  /** The proto type of {@code jdk}: a fully qualified well-known message, or {@code string}. */
  static String protoType(Jdk jdk) {
    switch (jdk) {
      case INSTANT:
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
      return CodeBlock.of("e.nested(e.reserve(), $T.size$L($L))", PROTO_TYPES, jdk.runtimeName, x);
    }

    @Override
    CodeBlock write(CodeBlock x) {
      return CodeBlock.of("e.writeLength();\n$T.write$L($L, e);\n", PROTO_TYPES, jdk.runtimeName, x);
    }

    @Override
    CodeBlock read() {
      return CodeBlock.of("d.readMessage($T::read$L)", PROTO_TYPES, jdk.runtimeName);
    }

    /** The message's default: the epoch, or a zero duration. */
    @Override
    CodeBlock mapDefault() {
      return jdk == Jdk.INSTANT ? CodeBlock.of("$T.EPOCH", jdk.className) : CodeBlock.of("$T.ZERO", jdk.className);
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
        return CodeBlock.of("$T.decimalText($L)", PROTO_TYPES, x);
      }
      if (jdk == Jdk.BIG_INTEGER) {
        return CodeBlock.of("$T.integerText($L)", PROTO_TYPES, x);
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
      return CodeBlock.of("$T.parse$L(d.readString())", PROTO_TYPES, jdk.runtimeName);
    }

    /** A placeholder: the default, an empty string, is parsed once the entry was read. */
    @Override
    CodeBlock mapDefault() {
      return CodeBlock.of("null");
    }

    /** The empty string parsed like any other text: a decode error except for {@code URI}. */
    @Override
    CodeBlock missingInEntry() {
      return CodeBlock.of("$T.parse$L(\"\")", PROTO_TYPES, jdk.runtimeName);
    }
  }
}
