package io.boltgen.runtime.codec.protobuf;

/**
 * Exact encoded sizes of protobuf wire values, without their tag (generated code adds the precomputed tag
 * size). Strings and nested messages are sized through {@link ProtoEncoder}, which also remembers their
 * lengths for the write pass; embedded protobuf-java messages through {@link ProtoMessages}.
 */
public final class ProtoSizes {

  private ProtoSizes() {}

  /** The size of {@code value} as an unsigned varint (uint32, lengths, tags). */
  public static int varint32(int value) {
    if ((value & (~0 << 7)) == 0) {
      return 1;
    }
    if ((value & (~0 << 14)) == 0) {
      return 2;
    }
    if ((value & (~0 << 21)) == 0) {
      return 3;
    }
    if ((value & (~0 << 28)) == 0) {
      return 4;
    }
    return 5;
  }

  /** The size of {@code value} as an unsigned 64-bit varint (int64, uint64). */
  public static int varint64(long value) {
    if ((value & (~0L << 7)) == 0) {
      return 1;
    }
    if (value < 0) {
      return 10;
    }
    int n = 2;
    if ((value & (~0L << 35)) != 0) {
      n += 4;
      value >>>= 28;
    }
    if ((value & (~0L << 21)) != 0) {
      n += 2;
      value >>>= 14;
    }
    if ((value & (~0L << 14)) != 0) {
      n += 1;
    }
    return n;
  }

  /** The size of an int32 (a negative value is sign-extended to ten bytes, as protobuf does). */
  public static int int32(int value) {
    return value >= 0 ? varint32(value) : 10;
  }

  /** The size of an int64. */
  public static int int64(long value) {
    return varint64(value);
  }

  /** The size of a sint32: its zigzag varint. */
  public static int sint32(int value) {
    return varint32((value << 1) ^ (value >> 31));
  }

  /** The size of a sint64: its zigzag varint. */
  public static int sint64(long value) {
    return varint64((value << 1) ^ (value >> 63));
  }

  /** The size of a {@code bytes} value: its length prefix and its bytes. */
  public static int bytes(byte[] value) {
    return varint32(value.length) + value.length;
  }
}
