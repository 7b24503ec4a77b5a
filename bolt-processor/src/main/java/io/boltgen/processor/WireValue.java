package io.boltgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.TypeName;
import io.boltgen.processor.Model.BytesType;
import io.boltgen.processor.Model.EnumType;
import io.boltgen.processor.Model.MapType;
import io.boltgen.processor.Model.MessageType;
import io.boltgen.processor.Model.OptionalType;
import io.boltgen.processor.Model.ProtoMessageType;
import io.boltgen.processor.Model.RepeatedType;
import io.boltgen.processor.Model.Scalar;
import io.boltgen.processor.Model.ScalarType;
import io.boltgen.processor.Model.StringType;
import io.boltgen.processor.Model.Type;
import java.util.Optional;

/**
 * How one singular value of each type kind travels in protobuf wire format: its wire type, the generated
 * expressions that size, write and read it, when a field holding it is present, and its default. The
 * per-field and per-message code ({@link CodecWriter}) and the {@code .proto} spelling
 * ({@link ProtoFileWriter#protoType}) build on it.
 */
final class WireValue {

  private final ClassName codecs;

  WireValue(ClassName codecs) {
    this.codecs = codecs;
  }

  static int wireType(Type t) {
    if (t instanceof ScalarType s) {
      return s.scalar().wireType();
    }
    if (t instanceof EnumType) {
      return 0;
    }
    return 2;
  }

  static int tag(int number, int wireType) {
    return (number << 3) | wireType;
  }

  static int tagSize(int number) {
    int tag = number << 3;
    return (tag & ~0x7F) == 0 ? 1 : (tag & ~0x3FFF) == 0 ? 2 : (tag & ~0x1FFFFF) == 0 ? 3 : (tag & ~0xFFFFFFF) == 0 ? 4 : 5;
  }

  /** The size of one value of singular type {@code t} held in {@code x}, without the tag. */
  CodeBlock valueSize(Type t, CodeBlock x) {
    if (t instanceof ScalarType s) {
      switch (s.scalar()) {
        case BOOLEAN:
          return CodeBlock.of("1");
        case FLOAT:
          return CodeBlock.of("4");
        case DOUBLE:
          return CodeBlock.of("8");
        case CHAR:
          return CodeBlock.of("$T.varint32($L)", Names.PROTO_SIZES, x);
        case LONG:
          return CodeBlock.of("$T.int64($L)", Names.PROTO_SIZES, x);
        default:
          return CodeBlock.of("$T.int32($L)", Names.PROTO_SIZES, x);
      }
    }
    if (t instanceof StringType) {
      return CodeBlock.of("e.string($L)", x);
    }
    if (t instanceof BytesType) {
      return CodeBlock.of("$T.bytes($L)", Names.PROTO_SIZES, x);
    }
    if (t instanceof EnumType) {
      return CodeBlock.of("$T.varint32($L.ordinal())", Names.PROTO_SIZES, x);
    }
    if (t instanceof MessageType m) {
      return CodeBlock.of("e.nested(e.reserve(), size$L($L, e))", m.protoName(), x);
    }
    if (t instanceof ProtoMessageType) {
      return CodeBlock.of("$T.message($L)", Names.PROTO_SIZES, x);
    }
    throw new IllegalArgumentException(t.toString());
  }

  /** The condition under which a singular field held in {@code x} is written. */
  static CodeBlock present(Type t, String x) {
    if (t instanceof ScalarType s && !s.boxed()) {
      switch (s.scalar()) {
        case BOOLEAN:
          return CodeBlock.of("$L", x);
        case FLOAT:
          return CodeBlock.of("$T.floatToRawIntBits($L) != 0", Float.class, x);
        case DOUBLE:
          return CodeBlock.of("$T.doubleToRawLongBits($L) != 0", Double.class, x);
        default:
          return CodeBlock.of("$L != 0", x);
      }
    }
    return CodeBlock.of("$L != null", x);
  }

  static boolean isFixedWidth(Type t) {
    return t instanceof ScalarType s
        && (s.scalar() == Scalar.BOOLEAN || s.scalar() == Scalar.FLOAT || s.scalar() == Scalar.DOUBLE);
  }

  /** Writes one value of singular type {@code t} held in {@code x}, without the tag. */
  CodeBlock writeValue(Type t, CodeBlock x) {
    if (t instanceof ScalarType s) {
      switch (s.scalar()) {
        case BOOLEAN:
          return CodeBlock.of("e.writeBool($L);\n", x);
        case FLOAT:
          return CodeBlock.of("e.writeFloat($L);\n", x);
        case DOUBLE:
          return CodeBlock.of("e.writeDouble($L);\n", x);
        case CHAR:
          return CodeBlock.of("e.writeVarint32($L);\n", x);
        case LONG:
          return CodeBlock.of("e.writeInt64($L);\n", x);
        default:
          return CodeBlock.of("e.writeInt32($L);\n", x);
      }
    }
    if (t instanceof StringType) {
      return CodeBlock.of("e.writeString($L);\n", x);
    }
    if (t instanceof BytesType) {
      return CodeBlock.of("e.writeBytes($L);\n", x);
    }
    if (t instanceof EnumType) {
      return CodeBlock.of("e.writeVarint32($L.ordinal());\n", x);
    }
    if (t instanceof MessageType m) {
      return CodeBlock.of("e.writeLength();\nwrite$L($L, e);\n", m.protoName(), x);
    }
    if (t instanceof ProtoMessageType) {
      return CodeBlock.of("e.writeMessage($L);\n", x);
    }
    throw new IllegalArgumentException(t.toString());
  }

  /** An expression reading one value of type {@code t} (not enums: see {@code CodecWriter.readEnumNumber}). */
  CodeBlock readValue(Type t) {
    if (t instanceof ScalarType s) {
      switch (s.scalar()) {
        case BOOLEAN:
          return CodeBlock.of("d.readBool()");
        case BYTE:
          return CodeBlock.of("$T.toByte(d.readInt32())", Names.PROTO_DECODER);
        case SHORT:
          return CodeBlock.of("$T.toShort(d.readInt32())", Names.PROTO_DECODER);
        case CHAR:
          return CodeBlock.of("$T.toChar(d.readVarint32())", Names.PROTO_DECODER);
        case INT:
          return CodeBlock.of("d.readInt32()");
        case LONG:
          return CodeBlock.of("d.readInt64()");
        case FLOAT:
          return CodeBlock.of("d.readFloat()");
        case DOUBLE:
          return CodeBlock.of("d.readDouble()");
        default:
          throw new AssertionError(s);
      }
    }
    if (t instanceof StringType) {
      return CodeBlock.of("d.readString()");
    }
    if (t instanceof BytesType) {
      return CodeBlock.of("d.readBytes()");
    }
    if (t instanceof EnumType en) {
      return CodeBlock.of("$T.enumValue($L, d.readInt32())", Names.PROTO_DECODER, CodecWriter.valuesName(en.protoName()));
    }
    if (t instanceof MessageType m) {
      return CodeBlock.of("d.readMessage($T::read$L)", codecs, m.protoName());
    }
    if (t instanceof ProtoMessageType p) {
      return CodeBlock.of("d.readProtoMessage($T.parser())", p.className());
    }
    throw new IllegalArgumentException(t.toString());
  }

  static CodeBlock mapDefault(Type t) {
    if (t instanceof ScalarType s) {
      switch (s.scalar()) {
        case BOOLEAN:
          return CodeBlock.of("false");
        case BYTE:
          return CodeBlock.of("(byte) 0");
        case SHORT:
          return CodeBlock.of("(short) 0");
        case CHAR:
          return CodeBlock.of("(char) 0");
        case LONG:
          return CodeBlock.of("0L");
        case FLOAT:
          return CodeBlock.of("0F");
        case DOUBLE:
          return CodeBlock.of("0D");
        default:
          return CodeBlock.of("0");
      }
    }
    if (t instanceof StringType) {
      return CodeBlock.of("\"\"");
    }
    if (t instanceof BytesType) {
      return CodeBlock.of("$T.EMPTY_BYTES", Names.PROTO_DECODER);
    }
    if (t instanceof ProtoMessageType p) {
      return CodeBlock.of("$T.getDefaultInstance()", p.className());
    }
    throw new IllegalArgumentException(t.toString());
  }

  static TypeName localType(Type t) {
    if (t instanceof OptionalType o) {
      return o.value().javaType().box();
    }
    return t.javaType();
  }

  static CodeBlock initialValue(Type t) {
    if (t instanceof ScalarType s && !s.boxed()) {
      return s.scalar() == Scalar.BOOLEAN ? CodeBlock.of("false") : CodeBlock.of("0");
    }
    return CodeBlock.of("null");
  }

  static CodeBlock finalValue(Type t, String local) {
    if (t instanceof OptionalType) {
      return CodeBlock.of("$T.ofNullable($L)", Optional.class, local);
    }
    if (t instanceof RepeatedType r) {
      return CodeBlock.of("$T.$L($L)", Names.PROTO_DECODER, r.set() ? "set" : "list", local);
    }
    if (t instanceof MapType) {
      return CodeBlock.of("$T.map($L)", Names.PROTO_DECODER, local);
    }
    return CodeBlock.of("$L", local);
  }
}
