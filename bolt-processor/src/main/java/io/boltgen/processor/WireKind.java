package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import io.boltgen.processor.Model.BytesType;
import io.boltgen.processor.Model.EnumType;
import io.boltgen.processor.Model.JdkType;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.ProtoMessageType;
import io.boltgen.processor.Model.ScalarType;
import io.boltgen.processor.Model.StringType;

/**
 * How one singular value of a type kind travels in protobuf wire format, all in one place per kind: its
 * wire type, its {@code .proto} spelling, and the generated code that sizes, writes and reads it, decides
 * whether a field holding it is present, and stands in for a missing map value. One nested class per kind:
 * {@link ScalarKind}, {@link StringKind}, {@link BytesKind}, {@link EnumKind}, {@link RecordKind},
 * {@link ProtoMessageKind}, and the JDK value types in {@link JdkKind}. Field shapes ({@code Optional},
 * {@code List}/{@code Set}, {@code Map}) are built from these by {@link CodecWriter} and
 * {@link ProtoFileWriter}.
 *
 * <p>Generated code names: {@code e} is the {@code ProtoEncoder}, {@code d} the {@code ProtoDecoder}.
 */
abstract class WireKind {

  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int FIXED32 = 5;

  /** The kind of the singular type {@code t}; {@code codecs} is the generated codecs class (for records). */
  static WireKind of(Model.Type t, ClassName codecs) {
    if (t instanceof ScalarType s) {
      return new ScalarKind(s);
    }
    if (t instanceof StringType) {
      return new StringKind();
    }
    if (t instanceof BytesType) {
      return new BytesKind();
    }
    if (t instanceof EnumType e) {
      return new EnumKind(e);
    }
    if (t instanceof MessageType m) {
      return new RecordKind(m.protoName(), codecs);
    }
    if (t instanceof Model.NestedType n) {
      return new RecordKind(n.protoName(), codecs); // the message holding the inner collection
    }
    if (t instanceof ProtoMessageType p) {
      return new ProtoMessageKind(p);
    }
    if (t instanceof JdkType j) {
      return JdkKind.of(j);
    }
    throw new IllegalArgumentException("not a singular type: " + t);
  }

  /** The tag of field {@code number} with {@code wireType}. */
  static int tag(int number, int wireType) {
    return (number << 3) | wireType;
  }

  /** The bytes the tag of field {@code number} takes. */
  static int tagSize(int number) {
    int tag = number << 3;
    return (tag & ~0x7F) == 0 ? 1 : (tag & ~0x3FFF) == 0 ? 2 : (tag & ~0x1FFFFF) == 0 ? 3 : (tag & ~0xFFFFFFF) == 0 ? 4 : 5;
  }

  /** The protobuf wire type. */
  abstract int wireType();

  /** The type in the {@code .proto}. */
  abstract String protoType();

  /** An expression: the encoded size of the value {@code x}, without its tag. */
  abstract CodeBlock size(CodeBlock x);

  /** Statements writing the value {@code x}, without its tag. */
  abstract CodeBlock write(CodeBlock x);

  /** An expression reading one value (enums: see {@link EnumKind#read()}). */
  abstract CodeBlock read();

  /** The condition under which a singular field holding {@code x} is written: it is not the default. */
  CodeBlock present(String x) {
    return CodeBlock.of("$L != null", x);
  }

  /** Whether every value takes the same number of bytes (a packed field's length is then a product). */
  boolean fixedWidth() {
    return false;
  }

  /** The value a map entry without one decodes to (proto3's default of the type). */
  abstract CodeBlock mapDefault();

  /**
   * An expression for a map key or value that a map entry lacks, evaluated after the entry was read when
   * {@link #mapDefault()} is only a {@code null} placeholder; {@code null} when {@link #mapDefault()} is
   * the value itself.
   */
  CodeBlock missingInEntry() {
    return null;
  }

  /** {@code String}: UTF-8, measured once in the size pass. */
  static final class StringKind extends WireKind {
    @Override
    int wireType() {
      return LENGTH_DELIMITED;
    }

    @Override
    String protoType() {
      return "string";
    }

    @Override
    CodeBlock size(CodeBlock x) {
      return CodeBlock.of("e.string($L)", x);
    }

    @Override
    CodeBlock write(CodeBlock x) {
      return CodeBlock.of("e.writeString($L);\n", x);
    }

    @Override
    CodeBlock read() {
      return CodeBlock.of("d.readString()");
    }

    @Override
    CodeBlock mapDefault() {
      return CodeBlock.of("\"\"");
    }
  }

  /** {@code byte[]}. */
  static final class BytesKind extends WireKind {
    @Override
    int wireType() {
      return LENGTH_DELIMITED;
    }

    @Override
    String protoType() {
      return "bytes";
    }

    @Override
    CodeBlock size(CodeBlock x) {
      return CodeBlock.of("$T.bytes($L)", Names.PROTO_SIZES, x);
    }

    @Override
    CodeBlock write(CodeBlock x) {
      return CodeBlock.of("e.writeBytes($L);\n", x);
    }

    @Override
    CodeBlock read() {
      return CodeBlock.of("d.readBytes()");
    }

    @Override
    CodeBlock mapDefault() {
      return CodeBlock.of("$T.EMPTY_BYTES", Names.PROTO_DECODER);
    }
  }

  /**
   * A Java enum: a varint holding the ordinal, or the number pinned by {@code @BoltEnumValue}, through the codecs'
   * {@code numberOfXxx} function (and back through {@code constantOfXxx}, or the {@code values()} array for ordinals);
   * an unknown number reads as {@code null}.
   */
  static final class EnumKind extends WireKind {
    private final EnumType type;

    EnumKind(EnumType type) {
      this.type = type;
    }

    @Override
    int wireType() {
      return VARINT;
    }

    @Override
    String protoType() {
      return type.protoName();
    }

    @Override
    CodeBlock size(CodeBlock x) {
      if (type.pinned()) {
        return CodeBlock.of("$T.int32($L($L))", Names.PROTO_SIZES, EnumCodec.numberOfName(type.protoName()), x);
      }
      return CodeBlock.of("$T.varint32($L($L))", Names.PROTO_SIZES, EnumCodec.numberOfName(type.protoName()), x);
    }

    @Override
    CodeBlock write(CodeBlock x) {
      if (type.pinned()) {
        return CodeBlock.of("e.writeInt32($L($L));\n", EnumCodec.numberOfName(type.protoName()), x);
      }
      return CodeBlock.of("e.writeVarint32($L($L));\n", EnumCodec.numberOfName(type.protoName()), x);
    }

    /** The constant, or {@code null} for a number this side does not know (a newer peer's constant). */
    @Override
    CodeBlock read() {
      return fromNumber(CodeBlock.of("d.readInt32()"));
    }

    /** An expression: the constant numbered {@code number}, or {@code null} for an unknown number. */
    CodeBlock fromNumber(CodeBlock number) {
      if (type.pinned()) {
        return CodeBlock.of("$L($L)", EnumCodec.constantOfName(type.protoName()), number);
      }
      return CodeBlock.of("$T.enumValue($L, $L)", Names.PROTO_DECODER, CodecWriter.valuesName(type.protoName()),
          number);
    }

    @Override
    CodeBlock mapDefault() {
      throw new IllegalStateException("enum map values keep their number: " + type);
    }
  }

  /**
   * A record, or a collection inside a collection: a nested message, written by the generated functions of its
   * own message {@code protoName}.
   */
  static final class RecordKind extends WireKind {
    private final String protoName;
    private final ClassName codecs;

    RecordKind(String protoName, ClassName codecs) {
      this.protoName = protoName;
      this.codecs = codecs;
    }

    @Override
    int wireType() {
      return LENGTH_DELIMITED;
    }

    @Override
    String protoType() {
      return protoName;
    }

    @Override
    CodeBlock size(CodeBlock x) {
      return CodeBlock.of("e.nested(e.reserve(), size$L($L, e))", protoName, x);
    }

    @Override
    CodeBlock write(CodeBlock x) {
      return CodeBlock.of("e.writeLength();\nwrite$L($L, e);\n", protoName, x);
    }

    @Override
    CodeBlock read() {
      return CodeBlock.of("d.readMessage($T::read$L)", codecs, protoName);
    }

    @Override
    CodeBlock mapDefault() {
      return CodeBlock.of("null");
    }

    /** The all-default record: the message read from no bytes. */
    @Override
    CodeBlock missingInEntry() {
      return CodeBlock.of("read$L($T.empty())", protoName, Names.PROTO_DECODER);
    }
  }

  /** A protobuf-java generated message, embedded as its own serialized bytes. */
  static final class ProtoMessageKind extends WireKind {
    private final ProtoMessageType type;

    ProtoMessageKind(ProtoMessageType type) {
      this.type = type;
    }

    @Override
    int wireType() {
      return LENGTH_DELIMITED;
    }

    /** Its message type, fully qualified. */
    @Override
    String protoType() {
      return type.protoName();
    }

    // protobuf-java is optional at run time: only ProtoMessages refers to it, and only this kind refers to
    // ProtoMessages, so code generated for services without protobuf messages runs without protobuf-java
    @Override
    CodeBlock size(CodeBlock x) {
      return CodeBlock.of("$T.size($L)", ClassName.get(Names.PROTO_SIZES.packageName(), "ProtoMessages"), x);
    }

    @Override
    CodeBlock write(CodeBlock x) {
      return CodeBlock.of("$T.write(e, $L);\n",
          ClassName.get(Names.PROTO_SIZES.packageName(), "ProtoMessages"), x);
    }

    @Override
    CodeBlock read() {
      return CodeBlock.of("$T.read(d, $T.parser())", ClassName.get(Names.PROTO_SIZES.packageName(), "ProtoMessages"),
          type.className());
    }

    @Override
    CodeBlock mapDefault() {
      return CodeBlock.of("$T.getDefaultInstance()", type.className());
    }
  }
}
