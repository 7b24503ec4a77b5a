package io.boltgen.processor;

import com.palantir.javapoet.CodeBlock;
import io.boltgen.processor.Model.Encoding;
import io.boltgen.processor.Model.Scalar;
import io.boltgen.processor.Model.ScalarType;

/**
 * {@code boolean}, the integral types, {@code float} and {@code double}, or their boxes: an {@code int} or a
 * {@code long} as the protobuf type its {@link Encoding} names (int32, uint32, sint32, fixed32, sfixed32 and the
 * 64-bit ones).
 */
final class ScalarKind extends WireKind {
  private final ScalarType type;

  ScalarKind(ScalarType type) {
    this.type = type;
  }

  @Override
  int wireType() {
    if (type.fixedWidth()) {
      return type.scalar() == Scalar.FLOAT || type.scalar() == Scalar.INT ? FIXED32 : FIXED64;
    }
    return VARINT;
  }

  @Override
  String protoType() {
    if (type.encoding() != Encoding.PLAIN) {
      String width = type.scalar() == Scalar.INT ? "32" : "64";
      switch (type.encoding()) {
        case UNSIGNED:
          return "uint" + width;
        case ZIGZAG:
          return "sint" + width;
        case FIXED:
          return "fixed" + width;
        default:
          return "sfixed" + width;
      }
    }
    switch (type.scalar()) {
      case BOOLEAN:
        return "bool";
      case CHAR:
        return "uint32";
      case LONG:
        return "int64";
      case FLOAT:
        return "float";
      case DOUBLE:
        return "double";
      default:
        return "int32";
    }
  }

  @Override
  CodeBlock size(CodeBlock x) {
    boolean wide = type.scalar() == Scalar.LONG;
    switch (type.encoding()) {
      case UNSIGNED:
        return CodeBlock.of("$T.$L($L)", Names.PROTO_SIZES, wide ? "varint64" : "varint32", x);
      case ZIGZAG:
        return CodeBlock.of("$T.$L($L)", Names.PROTO_SIZES, wide ? "sint64" : "sint32", x);
      case FIXED:
      case SIGNED_FIXED:
        return CodeBlock.of(wide ? "8" : "4");
      default:
        break;
    }
    switch (type.scalar()) {
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

  @Override
  CodeBlock write(CodeBlock x) {
    boolean wide = type.scalar() == Scalar.LONG;
    switch (type.encoding()) {
      case UNSIGNED:
        return CodeBlock.of("e.$L($L);\n", wide ? "writeVarint64" : "writeVarint32", x);
      case ZIGZAG:
        return CodeBlock.of("e.$L($L);\n", wide ? "writeSInt64" : "writeSInt32", x);
      case FIXED:
      case SIGNED_FIXED:
        return CodeBlock.of("e.$L($L);\n", wide ? "writeFixed64" : "writeFixed32", x);
      default:
        break;
    }
    switch (type.scalar()) {
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

  @Override
  CodeBlock read() {
    boolean wide = type.scalar() == Scalar.LONG;
    switch (type.encoding()) {
      case UNSIGNED:
        return CodeBlock.of("d.$L()", wide ? "readVarint64" : "readVarint32");
      case ZIGZAG:
        return CodeBlock.of("d.$L()", wide ? "readSInt64" : "readSInt32");
      case FIXED:
      case SIGNED_FIXED:
        return CodeBlock.of("d.$L()", wide ? "readFixed64" : "readFixed32");
      default:
        break;
    }
    switch (type.scalar()) {
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
        throw new AssertionError(type);
    }
  }

  /** A primitive is present unless it is zero (or false); a box unless it is null. */
  @Override
  CodeBlock present(String x) {
    if (type.boxed()) {
      return super.present(x);
    }
    switch (type.scalar()) {
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

  @Override
  boolean fixedWidth() {
    return type.scalar() == Scalar.BOOLEAN || type.fixedWidth();
  }

  @Override
  CodeBlock mapDefault() {
    switch (type.scalar()) {
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
}
