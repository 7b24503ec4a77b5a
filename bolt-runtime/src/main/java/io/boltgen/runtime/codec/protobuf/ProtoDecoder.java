package io.boltgen.runtime.codec.protobuf;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads protobuf wire format forward out of a {@link ByteBuf}, without retaining it: every value is copied
 * out (strings decoded straight from the buffer's memory). Bounds are checked against the innermost
 * length limit; nesting deeper than {@link #RECURSION_LIMIT} fails, as does any truncated or malformed
 * value, with a {@link ProtoDecodeException}.
 *
 * <p>Generated readers loop {@code for (int tag = d.readTag(); tag != 0; tag = d.readTag())} over a
 * {@code switch} of precomputed tags, reading known fields with the typed methods here and passing every
 * other tag to {@link #skipField}: unknown fields are skipped, as proto3 requires. Repeated scalar fields
 * accept both packed and unpacked encodings.
 *
 * <p>Not thread-safe: one decoder reads one value on one thread; instances are not shared.
 */
public final class ProtoDecoder {

  /** How deeply messages (and groups) may nest: protobuf's default. */
  public static final int RECURSION_LIMIT = 100;

  /** The empty {@code bytes} value, shared (a zero-length array cannot change). */
  public static final byte[] EMPTY_BYTES = new byte[0];

  private final ByteBuf buf;
  // byte-level reads go through this NIO view when the buffer has one: a plain bounds check instead of
  // Netty's per-access reference-count and derived-buffer checks (the bytes are the same memory)
  private final ByteBuffer view;
  private final int viewBase;
  private int pos;
  private int limit;
  private int depth;

  private ProtoDecoder(ByteBuf buf, int pos, int limit) {
    this.buf = buf;
    this.pos = pos;
    this.limit = limit;
    this.view = buf != null && limit > pos && buf.nioBufferCount() == 1 ? buf.nioBuffer(pos, limit - pos) : null;
    this.viewBase = pos;
  }

  /** A decoder over the readable bytes of {@code in}; it does not move {@code in}'s reader index. */
  public static ProtoDecoder of(ByteBuf in) {
    return new ProtoDecoder(in, in.readerIndex(), in.writerIndex());
  }

  /**
   * A decoder over no bytes at all: reading a message from it yields the message's default value (used
   * for a map entry whose value is missing).
   */
  public static ProtoDecoder empty() {
    return new ProtoDecoder(null, 0, 0);
  }

  /** The absolute buffer index of the next byte to read. */
  public int position() {
    return pos;
  }

  /** Whether bytes remain before the current limit (a packed field's or the message's end). */
  public boolean hasRemaining() {
    return pos < limit;
  }

  // ------------------------------------------------------------------ tags and structure

  /** The next tag, or 0 at the end of the current message. */
  public int readTag() {
    if (pos >= limit) {
      return 0;
    }
    int tag = readVarint32();
    if ((tag >>> 3) == 0) {
      throw new ProtoDecodeException("invalid tag " + tag + " (field number 0) at index " + (pos - 1));
    }
    return tag;
  }

  /** Reads an embedded message with {@code reader}, within its length and one level deeper. */
  public <T> T readMessage(MessageReader<T> reader) {
    int outer = enter();
    T value = reader.read(this);
    exit(outer);
    return value;
  }

  /**
   * Reads a length prefix and narrows the limit to it (a map entry or a packed field); returns the outer
   * limit to give back to {@link #exit}.
   */
  public int enter() {
    int length = readLength();
    if (++depth > RECURSION_LIMIT) {
      throw new ProtoDecodeException("messages nest deeper than " + RECURSION_LIMIT + " levels");
    }
    int outer = limit;
    limit = pos + length;
    return outer;
  }

  /** Leaves what {@link #enter} entered, which must have been read to its end. */
  public void exit(int outerLimit) {
    if (pos != limit) {
      throw new ProtoDecodeException("embedded value not read to its end at index " + pos);
    }
    limit = outerLimit;
    depth--;
  }

  /** Skips the value of a field with {@code tag} (an unknown field), including whole groups. */
  public void skipField(int tag) {
    switch (tag & 7) {
      case WireType.VARINT:
        readVarint64();
        break;
      case WireType.FIXED64:
        advance(8);
        break;
      case WireType.LENGTH_DELIMITED:
        advance(readLength());
        break;
      case WireType.FIXED32:
        advance(4);
        break;
      case WireType.START_GROUP:
        skipGroup(tag >>> 3);
        break;
      default:
        throw new ProtoDecodeException("unexpected wire type " + (tag & 7) + " of field " + (tag >>> 3));
    }
  }

  private void skipGroup(int fieldNumber) {
    if (++depth > RECURSION_LIMIT) {
      throw new ProtoDecodeException("groups nest deeper than " + RECURSION_LIMIT + " levels");
    }
    while (true) {
      if (pos >= limit) {
        throw new ProtoDecodeException("group " + fieldNumber + " is not closed");
      }
      int tag = readVarint32();
      if ((tag >>> 3) == 0) {
        throw new ProtoDecodeException("invalid tag " + tag + " in group " + fieldNumber);
      }
      if ((tag & 7) == WireType.END_GROUP) {
        if ((tag >>> 3) != fieldNumber) {
          throw new ProtoDecodeException("group " + fieldNumber + " closed as " + (tag >>> 3));
        }
        depth--;
        return;
      }
      skipField(tag);
    }
  }

  private void advance(int n) {
    if (n > limit - pos) {
      throw truncated();
    }
    pos += n;
  }

  private ProtoDecodeException truncated() {
    return new ProtoDecodeException("truncated message: a value runs past its end at index " + pos);
  }

  /** Reads a length prefix and checks that that many bytes remain. */
  public int readLength() {
    int length = readVarint32();
    if (length < 0 || length > limit - pos) {
      throw new ProtoDecodeException("bad length " + (length & 0xFFFFFFFFL) + " at index " + pos + ": "
          + (limit - pos) + " bytes remain");
    }
    return length;
  }

  // ------------------------------------------------------------------ scalars

  /** Reads a varint as an int, keeping the low 32 bits of a longer one (uint32, int32, lengths, tags). */
  public int readVarint32() {
    int result = 0;
    for (int shift = 0; shift < 32; shift += 7) {
      byte b = nextByte();
      result |= (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    // a negative int32 is sign-extended to ten bytes: discard the upper five
    for (int i = 0; i < 5; i++) {
      if (nextByte() >= 0) {
        return result;
      }
    }
    throw new ProtoDecodeException("malformed varint at index " + pos);
  }

  /** Reads a varint as a long (int64, uint64). */
  public long readVarint64() {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = nextByte();
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw new ProtoDecodeException("malformed varint at index " + pos);
  }

  private byte nextByte() {
    if (pos >= limit) {
      throw truncated();
    }
    byte b = view != null ? view.get(pos - viewBase) : buf.getByte(pos);
    pos++;
    return b;
  }

  /** Reads an int32. */
  public int readInt32() {
    return readVarint32();
  }

  /** Reads an int64. */
  public long readInt64() {
    return readVarint64();
  }

  /** Reads a bool (any non-zero varint is true). */
  public boolean readBool() {
    return readVarint64() != 0;
  }

  /** Reads a float (fixed32, little-endian). */
  public float readFloat() {
    if (limit - pos < 4) {
      throw truncated();
    }
    float value = Float.intBitsToFloat(view != null ? Integer.reverseBytes(view.getInt(pos - viewBase)) : buf.getIntLE(pos));
    pos += 4;
    return value;
  }

  /** Reads a double (fixed64, little-endian). */
  public double readDouble() {
    if (limit - pos < 8) {
      throw truncated();
    }
    double value = Double.longBitsToDouble(view != null ? Long.reverseBytes(view.getLong(pos - viewBase)) : buf.getLongLE(pos));
    pos += 8;
    return value;
  }

  /**
   * Reads a string, decoding UTF-8 straight from the buffer (malformed sequences become U+FFFD, as
   * protobuf-java does for proto2 strings).
   */
  public String readString() {
    int length = readLength();
    if (length == 0) {
      return "";
    }
    String value = buf.toString(pos, length, StandardCharsets.UTF_8);
    pos += length;
    return value;
  }

  /** Reads a {@code bytes} value into a new array. */
  public byte[] readBytes() {
    int length = readLength();
    if (length == 0) {
      return EMPTY_BYTES;
    }
    byte[] value = new byte[length];
    buf.getBytes(pos, value);
    pos += length;
    return value;
  }

  /**
   * Moves past a length-delimited value that is parsed elsewhere (an embedded protobuf-java message, see
   * {@link ProtoMessages}), checking its length and that it would not nest too deeply; returns the buffer
   * index of its first byte (it ends at {@link #position()}).
   */
  int skipEmbedded() {
    int length = readLength();
    if (depth + 1 > RECURSION_LIMIT) {
      throw new ProtoDecodeException("messages nest deeper than " + RECURSION_LIMIT + " levels");
    }
    int start = pos;
    pos += length;
    return start;
  }

  /** The buffer this decoder reads ({@code null} for {@link #empty()}). */
  ByteBuf buffer() {
    return buf;
  }

  // ------------------------------------------------------------------ Java conversions

  /** The enum constant numbered {@code number} (its ordinal), or {@code null} for an unknown number. */
  public static <E extends Enum<E>> E enumValue(E[] values, int number) {
    return number >= 0 && number < values.length ? values[number] : null;
  }

  /** {@code value} as a byte, or a {@link ProtoDecodeException} when it does not fit. */
  public static byte toByte(int value) {
    if (value != (byte) value) {
      throw new ProtoDecodeException("value " + value + " does not fit a Java byte");
    }
    return (byte) value;
  }

  /** {@code value} as a short, or a {@link ProtoDecodeException} when it does not fit. */
  public static short toShort(int value) {
    if (value != (short) value) {
      throw new ProtoDecodeException("value " + value + " does not fit a Java short");
    }
    return (short) value;
  }

  /** {@code value} (a uint32) as a char, or a {@link ProtoDecodeException} when it does not fit. */
  public static char toChar(int value) {
    if (value != (char) value) {
      throw new ProtoDecodeException("value " + (value & 0xFFFFFFFFL) + " does not fit a Java char");
    }
    return (char) value;
  }

  // ------------------------------------------------------------------ collections

  /** Appends {@code element} to {@code list}, creating the list on the first element. */
  public static <T> List<T> add(List<T> list, T element) {
    List<T> result = list != null ? list : new ArrayList<>();
    result.add(element);
    return result;
  }

  /** The unmodifiable list of what was read; empty when nothing was. */
  public static <T> List<T> list(List<T> list) {
    return list == null ? List.of() : Collections.unmodifiableList(list);
  }

  /** Adds {@code element} to {@code set} (keeping wire order), creating the set on the first element. */
  public static <T> Set<T> add(Set<T> set, T element) {
    Set<T> result = set != null ? set : new LinkedHashSet<>();
    result.add(element);
    return result;
  }

  /** The unmodifiable set of what was read, in wire order; empty when nothing was. */
  public static <T> Set<T> set(Set<T> set) {
    return set == null ? Set.of() : Collections.unmodifiableSet(set);
  }

  /** Puts an entry into {@code map} (a later key replaces an earlier one), creating the map on the first. */
  public static <K, V> Map<K, V> put(Map<K, V> map, K key, V value) {
    Map<K, V> result = map != null ? map : new LinkedHashMap<>();
    result.put(key, value);
    return result;
  }

  /** The unmodifiable map of what was read, in wire order; empty when nothing was. */
  public static <K, V> Map<K, V> map(Map<K, V> map) {
    return map == null ? Map.of() : Collections.unmodifiableMap(map);
  }

  /**
   * Reads one message from a decoder positioned on its first field; generated {@code readXxx} functions
   * are method references of this type.
   *
   * @param <T> the type read
   */
  @FunctionalInterface
  public interface MessageReader<T> {
    /** Reads fields until {@link ProtoDecoder#readTag()} returns 0. */
    T read(ProtoDecoder decoder);
  }
}
