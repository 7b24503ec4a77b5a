package io.boltgen.runtime.codec.protobuf;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
 * out. Bounds are checked against the innermost length limit; nesting deeper than {@link #RECURSION_LIMIT}
 * fails, as does any truncated or malformed value, with a {@link ProtoDecodeException}.
 *
 * <p>The decoder reads from a {@code byte[]}: a heap buffer's own array, or else a copy of the content (one
 * bulk copy; {@link ProtoMarshaller#read} copies into an array kept per thread, up to 8 KiB, so that
 * decoding a message from a direct buffer allocates nothing but the values read). Larger content is read
 * through a window of up to 8 KiB that slides forward (the first one copies only the first 256 bytes), and
 * {@code bytes} values that run past the window are copied straight from the buffer into their own arrays:
 * a large value is copied once, not twice.
 * Strings are built straight from the array ({@code new String(bytes, off, len, UTF_8)}, which copies
 * ASCII text in bulk).
 *
 * <p>Generated readers loop {@code for (int tag = d.readTag(); tag != 0; tag = d.readTag())} over a
 * {@code switch} of precomputed tags, reading known fields with the typed methods here and passing every
 * other tag to {@link #skipField}: unknown fields are skipped, as proto3 requires. Repeated scalar fields
 * accept both packed and unpacked encodings.
 *
 * <p>Not thread-safe: one decoder reads one value on one thread; instances are not shared.
 */
public final class ProtoDecoder extends ProtoInput {

  /** How deeply messages (and groups) may nest: protobuf's default. */
  public static final int RECURSION_LIMIT = 100;

  /** The empty {@code bytes} value, shared (a zero-length array cannot change). */
  public static final byte[] EMPTY_BYTES = new byte[0];

  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final ThreadLocal<ProtoDecoder> LOCAL = ThreadLocal.withInitial(ProtoDecoder::new);

  private int depth;
  // whether the per-thread decoder of ProtoMarshaller is reading
  private boolean inUse;

  private ProtoDecoder() {}

  /** A decoder over the readable bytes of {@code in}; it does not move {@code in}'s reader index. */
  public static ProtoDecoder of(ByteBuf in) {
    ProtoDecoder d = new ProtoDecoder();
    d.open(in, false);
    return d;
  }

  /**
   * A decoder over no bytes at all: reading a message from it yields the message's default value (used
   * for a map entry whose value is missing).
   */
  public static ProtoDecoder empty() {
    return new ProtoDecoder();
  }

  /**
   * The calling thread's decoder over the readable bytes of {@code in} (a fresh one if it is busy: a codec
   * re-entered from user code); give it back with {@link #release()}.
   */
  static ProtoDecoder acquire(ByteBuf in) {
    ProtoDecoder d = LOCAL.get();
    if (d.inUse) {
      d = new ProtoDecoder();
    }
    d.inUse = true;
    d.open(in, true);
    return d;
  }

  /** Ends a read of {@link #acquire}: forgets the buffer (the copy of its bytes is overwritten next time). */
  void release() {
    inUse = false;
    depth = 0;
    close();
  }

  /** The absolute buffer index of the next byte to read. */
  public int position() {
    return pos + delta;
  }

  /** Whether bytes remain before the current limit (a packed field's or the message's end). */
  public boolean hasRemaining() {
    return pos < limit || pos + delta < end;
  }

  // ------------------------------------------------------------------ tags and structure

  /** The next tag, or 0 at the end of the current message. */
  public int readTag() {
    int p = pos;
    if (p >= limit) {
      if (!fill(1)) {
        return 0;
      }
      p = pos;
    }
    int tag = bytes[p];
    if (tag > 7) { // the usual one-byte tag (bytes 0..7 have field number 0; negative ones continue)
      pos = p + 1;
      return tag;
    }
    tag = readVarint32();
    if ((tag >>> 3) == 0) {
      throw new ProtoDecodeException("invalid tag " + tag + " (field number 0) at index " + (position() - 1));
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
    return narrow(position() + length);
  }

  /** Leaves what {@link #enter} entered, which must have been read to its end. */
  public void exit(int outerLimit) {
    if (position() != end) {
      throw new ProtoDecodeException("embedded value not read to its end at index " + position());
    }
    narrow(outerLimit);
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
      if (pos >= limit && !fill(1)) {
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
    if (n <= limit - pos) {
      pos += n;
    } else if (n <= end - position()) {
      seek(position() + n);
    } else {
      throw truncated();
    }
  }

  private ProtoDecodeException truncated() {
    return new ProtoDecodeException("truncated message: a value runs past its end at index " + position());
  }

  /** Reads a length prefix and checks that that many bytes remain. */
  public int readLength() {
    int length = readVarint32();
    if (length < 0 || (length > limit - pos && length > end - position())) { // (past the window is fine)
      throw new ProtoDecodeException("bad length " + (length & 0xFFFFFFFFL) + " at index " + position() + ": "
          + (end - position()) + " bytes remain");
    }
    return length;
  }

  // ------------------------------------------------------------------ scalars

  /** Reads a varint as an int, keeping the low 32 bits of a longer one (uint32, int32, lengths, tags). */
  public int readVarint32() {
    int p = pos;
    if (limit - p >= 10) { // no bounds check per byte: the longest varint fits
      byte[] b = bytes;
      int x = b[p++];
      if (x >= 0) {
        pos = p;
        return x;
      }
      int result = x & 0x7F;
      for (int shift = 7; shift < 32; shift += 7) {
        result |= ((x = b[p++]) & 0x7F) << shift;
        if (x >= 0) {
          pos = p;
          return result;
        }
      }
      for (int i = 0; i < 5; i++) { // a negative int32 is sign-extended to ten bytes: discard the upper five
        if (b[p++] >= 0) {
          pos = p;
          return result;
        }
      }
      throw new ProtoDecodeException("malformed varint at index " + (p + delta));
    }
    return readVarint32Slow();
  }

  private int readVarint32Slow() {
    if (fill(10)) {
      return readVarint32();
    }
    int result = 0;
    for (int shift = 0; shift < 32; shift += 7) {
      byte b = nextByte();
      result |= (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    for (int i = 0; i < 5; i++) {
      if (nextByte() >= 0) {
        return result;
      }
    }
    throw new ProtoDecodeException("malformed varint at index " + position());
  }

  /** Reads a varint as a long (int64, uint64). */
  public long readVarint64() {
    boolean room = limit - pos >= 10 || fill(10); // then no bounds check per byte: the longest varint fits
    int p = pos;
    byte[] b = bytes;
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!room && p >= limit) {
        pos = p;
        throw truncated();
      }
      byte x = b[p++];
      result |= (long) (x & 0x7F) << shift;
      if (x >= 0) {
        pos = p;
        return result;
      }
    }
    throw new ProtoDecodeException("malformed varint at index " + (p + delta));
  }

  private byte nextByte() {
    if (pos >= limit) {
      throw truncated();
    }
    return bytes[pos++];
  }

  /** Reads an int32. */
  public int readInt32() {
    return readVarint32();
  }

  /** Reads an int64. */
  public long readInt64() {
    return readVarint64();
  }

  /** Reads a sint32 (a zigzag varint). */
  public int readSInt32() {
    int n = readVarint32();
    return (n >>> 1) ^ -(n & 1);
  }

  /** Reads a sint64 (a zigzag varint). */
  public long readSInt64() {
    long n = readVarint64();
    return (n >>> 1) ^ -(n & 1);
  }

  /** Reads a fixed32 or sfixed32 (four bytes, little-endian). */
  public int readFixed32() {
    if (limit - pos < 4 && !fill(4)) {
      throw truncated();
    }
    int value = (int) INT_LE.get(bytes, pos);
    pos += 4;
    return value;
  }

  /** Reads a fixed64 or sfixed64 (eight bytes, little-endian). */
  public long readFixed64() {
    if (limit - pos < 8 && !fill(8)) {
      throw truncated();
    }
    long value = (long) LONG_LE.get(bytes, pos);
    pos += 8;
    return value;
  }

  /** Reads a bool (any non-zero varint is true). */
  public boolean readBool() {
    return readVarint64() != 0;
  }

  /** Reads a float (fixed32, little-endian). */
  public float readFloat() {
    return Float.intBitsToFloat(readFixed32());
  }

  /** Reads a double (fixed64, little-endian). */
  public double readDouble() {
    return Double.longBitsToDouble(readFixed64());
  }

  /**
   * Reads a string, decoding UTF-8 (malformed sequences become U+FFFD, as protobuf-java does for proto2
   * strings). ASCII text, checked by the JDK's intrinsic, is copied in bulk.
   */
  public String readString() {
    int length = readLength();
    if (length == 0) {
      return "";
    }
    int p = pos;
    if (length > limit - p) {
      return readStringOutsideWindow(length);
    }
    String value = new String(bytes, p, length, StandardCharsets.UTF_8);
    pos = p + length;
    return value;
  }

  /** Reads a {@code bytes} value into a new array. */
  public byte[] readBytes() {
    int length = readLength();
    if (length == 0) {
      return EMPTY_BYTES;
    }
    if (length > limit - pos) {
      return readBytesOutsideWindow(length);
    }
    byte[] value = new byte[length];
    System.arraycopy(bytes, pos, value, 0, length);
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
    int start = position();
    seek(start + length);
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
