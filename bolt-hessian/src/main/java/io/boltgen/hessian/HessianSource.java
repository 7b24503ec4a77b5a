package io.boltgen.hessian;

import io.netty.buffer.ByteBuf;

/**
 * The scalar half of {@link HessianReader}: bytes, numbers, strings and byte arrays of the draft Hessian 2.0
 * grammar, read from a {@link ByteBuf} with every length checked against the bytes left before anything is
 * read or allocated. Fails with {@link HessianException} only.
 */
final class HessianSource {

  private final ByteBuf in;

  HessianSource(ByteBuf in) {
    this.in = in;
  }

  boolean atEnd() {
    return !in.isReadable();
  }

  int position() {
    return in.readerIndex();
  }

  /** Moves back to {@code position}, one {@link #position()} returned. */
  void position(int position) {
    in.readerIndex(position);
  }

  int readable() {
    return in.readableBytes();
  }

  /** The next byte, consumed. */
  int tag() {
    need(1);
    return in.readUnsignedByte();
  }

  /** The next byte, left in place. */
  int peek() {
    need(1);
    return in.getUnsignedByte(in.readerIndex());
  }

  int u8() {
    return tag();
  }

  int u16() {
    need(2);
    return in.readUnsignedShort();
  }

  int i32() {
    need(4);
    return in.readInt();
  }

  long i64() {
    need(8);
    return in.readLong();
  }

  void skip(int n) {
    need(n);
    in.skipBytes(n);
  }

  void need(long n) {
    if (n > in.readableBytes()) {
      throw new HessianException(in.isReadable()
          ? "truncated Hessian: " + n + " bytes needed, " + in.readableBytes() + " left"
          : "truncated Hessian: the input ended");
    }
  }

  /** A length of {@code n} values, each at least one byte: fails if fewer bytes are left. */
  int count(long n, String what) {
    if (n < 0 || n > in.readableBytes()) {
      throw new HessianException(what + " of " + n + " with " + in.readableBytes() + " bytes left");
    }
    return (int) n;
  }

  // ---------------------------------------------------------------- numbers

  /** A back-reference: {@code 'R' i32}, {@code 0x4a u8} or {@code 0x4b u16}. */
  static boolean isRef(int tag) {
    return tag == 'R' || tag == 0x4a || tag == 0x4b;
  }

  static boolean isInt(int tag) {
    return (tag >= 0x80 && tag <= 0xd7) || tag == 'I';
  }

  static boolean isLong(int tag) {
    return tag >= 0xd8 || (tag >= 0x38 && tag <= 0x3f) || tag == 0x77 || tag == 'L';
  }

  static boolean isDouble(int tag) {
    return (tag >= 0x67 && tag <= 0x6b) || tag == 'D';
  }

  /** The value of an int whose tag ({@link #isInt}) was read. */
  int intBody(int tag) {
    if (tag <= 0xbf && tag >= 0x80) {
      return tag - 0x90;
    } else if (tag <= 0xcf && tag >= 0xc0) {
      return ((tag - 0xc8) << 8) + u8();
    } else if (tag <= 0xd7 && tag >= 0xd0) {
      return ((tag - 0xd4) << 16) + u16();
    }
    return i32();
  }

  /** The value of a long whose tag ({@link #isLong}) was read. */
  long longBody(int tag) {
    if (tag >= 0xd8 && tag <= 0xef) {
      return tag - 0xe0L;
    } else if (tag >= 0xf0) {
      return ((tag - 0xf8L) << 8) + u8();
    } else if (tag >= 0x38 && tag <= 0x3f) {
      return ((tag - 0x3cL) << 16) + u16();
    } else if (tag == 0x77) {
      return i32();
    }
    return i64();
  }

  /** The value of a double whose tag ({@link #isDouble}) was read. */
  double doubleBody(int tag) {
    return switch (tag) {
      case 0x67 -> 0.0;
      case 0x68 -> 1.0;
      case 0x69 -> (byte) u8();
      case 0x6a -> (short) u16();
      case 0x6b -> Float.intBitsToFloat(i32());
      default -> Double.longBitsToDouble(i64());
    };
  }

  /** A compact int only: the index or length parts of the grammar. */
  int compactInt(String what) {
    int tag = tag();
    if (!isInt(tag)) {
      throw HessianReader.unexpected(what, tag);
    }
    return intBody(tag);
  }

  // ---------------------------------------------------------------- strings and bytes

  static boolean isString(int tag) {
    return tag <= 0x1f || tag == 'S' || tag == 's';
  }

  static boolean isBytes(int tag) {
    return (tag >= 0x20 && tag <= 0x2f) || tag == 'B' || tag == 'b';
  }

  /**
   * The chunks of a string whose first tag ({@link #isString}) was read, appended to {@code sb}, or only
   * walked when {@code sb} is null. A non-final chunk {@code 's'} may be followed by any string chunk.
   */
  void stringBody(int tag, StringBuilder sb) {
    for (;;) {
      boolean last = tag != 's';
      int chars = tag <= 0x1f ? tag : u16();
      chars(chars, sb);
      if (last) {
        return;
      }
      tag = tag();
      if (!isString(tag)) {
        throw unexpectedChunk("string", tag);
      }
    }
  }

  /** {@code chars} UTF-16 chars, each in UTF-8 on its own (at most 3 bytes): strict about the bytes. */
  void chars(int chars, StringBuilder sb) {
    count(chars, "a string chunk");
    if (sb != null) {
      sb.ensureCapacity(sb.length() + chars);
    }
    for (int i = 0; i < chars; i++) {
      int b = tag();
      int c;
      if (b < 0x80) {
        c = b;
      } else if ((b & 0xe0) == 0xc0) {
        c = ((b & 0x1f) << 6) | continuation();
      } else if ((b & 0xf0) == 0xe0) {
        c = ((b & 0x0f) << 12) | (continuation() << 6);
        c |= continuation();
      } else {
        throw new HessianException(String.format("invalid UTF-8 in a Hessian string: byte 0x%02x", b));
      }
      if (sb != null) {
        sb.append((char) c);
      }
    }
  }

  private int continuation() {
    int b = tag();
    if ((b & 0xc0) != 0x80) {
      throw new HessianException(String.format("invalid UTF-8 in a Hessian string: byte 0x%02x", b));
    }
    return b & 0x3f;
  }

  /**
   * The bytes whose first tag ({@link #isBytes}) was read; only skipped when {@code keep} is false. Walks the
   * chunks once to check them and add their lengths up, then copies them into one array of that size.
   */
  byte[] bytesBody(int tag, boolean keep) {
    int start = in.readerIndex();
    long total = 0;
    for (int t = tag;;) {
      int length = t >= 0x20 && t <= 0x2f ? t - 0x20 : u16();
      skip(length);
      total += length;
      if (t != 'b') {
        break;
      }
      t = tag();
      if (!isBytes(t)) {
        throw unexpectedChunk("bytes", t);
      }
    }
    if (!keep) {
      return null;
    }
    int end = in.readerIndex();
    in.readerIndex(start);
    byte[] result = new byte[(int) total];
    int filled = 0;
    for (int t = tag;;) {
      int length = t >= 0x20 && t <= 0x2f ? t - 0x20 : in.readUnsignedShort();
      in.readBytes(result, filled, length);
      filled += length;
      if (t != 'b') {
        break;
      }
      t = in.readUnsignedByte();
    }
    in.readerIndex(end);
    return result;
  }

  private static HessianException unexpectedChunk(String what, int tag) {
    return HessianReader.unexpected("the next chunk of " + what, tag);
  }
}
