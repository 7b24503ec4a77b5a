package io.boltgen.runtime.codec.protobuf;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Encodes one value in two passes, in the order generated codecs visit fields:
 *
 * <ol>
 *   <li>the <b>size pass</b> computes the exact encoded size and, in pre-order, records the length of every
 *       length-delimited value whose length is not free to know: nested messages, map entries, packed
 *       fields ({@link #reserve()} + {@link #nested}) and strings ({@link #string}, which measures the UTF-8
 *       length once and notes whether the string is ASCII);</li>
 *   <li>the <b>write pass</b> appends the bytes in the same order, taking each recorded length back
 *       ({@link #writeLength()}, {@link #writeString}).</li>
 * </ol>
 *
 * <p>So every nested size is computed once (Wire's quadratic nested-size trap, square/wire#2025, cannot
 * happen). The write pass stores into a {@code byte[]} with plain array stores: a heap buffer's own array,
 * or else an array of {@value #CHUNK} bytes kept per thread and copied into the buffer in bulk each time it
 * fills and at the end (no {@code byte[]} is allocated per value). ASCII strings are copied in bulk, other
 * strings encoded character by character. The lengths are kept between {@link ProtoMarshaller#encodedSize}
 * and {@link ProtoMarshaller#write} for the same value on the same thread, so the runtime's "size, allocate,
 * write" sequence visits the value twice, not three times.
 *
 * <p>A generated size function records a nested message as
 * {@code size += TAG_SIZE + e.nested(e.reserve(), sizeOfChild(child, e));} — the slot is reserved before
 * the child records its own lengths (Java evaluates arguments left to right), which is the pre-order the
 * write pass follows with {@code e.writeTag(TAG); e.writeLength(); writeChild(child, e);}.
 *
 * <p>Not thread-safe: instances are confined to one thread ({@link #acquire()}), for one value at a time, and
 * owned by {@link ProtoMarshaller}; generated code only receives them as a parameter.
 */
public final class ProtoEncoder {

  /** The size of the per-thread array the write pass stages bytes in for buffers without an array. */
  static final int CHUNK = 8192;

  private static final int INITIAL_SLOTS = 32;
  private static final int MAX_RETAINED_SLOTS = 4096;
  // set in a string's recorded length when it is not all ASCII (lengths are below 2^31)
  private static final int NON_ASCII = 0x80000000;
  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final ThreadLocal<ProtoEncoder> LOCAL = ThreadLocal.withInitial(ProtoEncoder::new);

  private int[] lengths = new int[INITIAL_SLOTS];
  // the string whose length a slot records, when it is ASCII: the write pass copies it in bulk only if it
  // gets that very (immutable) string again, so a value changed between the passes cannot slip through
  private String[] strings = new String[INITIAL_SLOTS];
  // whether `strings` may hold references (cleared after each write, so that none outlives its value)
  private boolean stringsHeld;
  private int count;
  private int cursor;
  // length-delimited values open in the size pass: the nesting depth the decoder will count
  private int depth;
  // the write pass stores bytes into buffer[position..limit); `sink` is null when `buffer` is the target's
  // own array (then `limit` is exactly the end of the value), else `buffer` is `chunk`, copied into `sink`
  // at `sinkIndex` whenever it fills and at the end
  private byte[] buffer;
  private int position;
  private int limit;
  private ByteBuf sink;
  private int sinkIndex;
  private byte[] chunk;
  private boolean inUse;
  private boolean sized;
  private Object sizedValue;
  private Object sizedBy;
  private int sizedTotal;

  private ProtoEncoder() {}

  /** The calling thread's encoder, or a fresh one if it is busy (a codec re-entered from user code). */
  static ProtoEncoder acquire() {
    ProtoEncoder e = LOCAL.get();
    if (e.inUse) {
      e = new ProtoEncoder();
    }
    e.inUse = true;
    return e;
  }

  void release() {
    inUse = false;
    buffer = null;
    sink = null;
  }

  /** Runs the size pass for {@code value} and remembers the recorded lengths for a following write. */
  <T> int size(T value, ProtoMarshaller.Sizer<T> sizer) {
    if (stringsHeld) { // by a size pass that no write followed
      Arrays.fill(strings, 0, Math.min(count, strings.length), null);
    }
    stringsHeld = true;
    count = 0;
    depth = 0;
    sized = false;
    sizedValue = null;
    int total = sizer.size(value, this);
    sized = true;
    sizedValue = value;
    sizedBy = sizer;
    sizedTotal = total;
    return total;
  }

  /** Runs the write pass for {@code value}, re-running the size pass unless it just ran for the same value. */
  <T> void write(T value, ProtoMarshaller.Sizer<T> sizer, ProtoMarshaller.Writer<T> writer, ByteBuf target) {
    try {
      int total = sized && sizedValue == value && sizedBy == sizer ? sizedTotal : size(value, sizer);
      target.ensureWritable(total);
      int start = target.writerIndex();
      int written;
      cursor = 0;
      if (target.hasArray()) {
        int first = target.arrayOffset() + start;
        buffer = target.array();
        position = first;
        limit = first + total;
        sink = null;
        writer.write(value, this);
        written = position - first;
      } else {
        if (chunk == null) {
          chunk = new byte[CHUNK];
        }
        buffer = chunk;
        position = 0;
        limit = chunk.length;
        sink = target;
        sinkIndex = start;
        writer.write(value, this);
        flush();
        written = sinkIndex - start;
      }
      if (written != total || cursor != count) {
        throw new IllegalStateException("the value changed while it was encoded: sized " + total
            + " bytes and " + count + " lengths, wrote " + written + " bytes and used " + cursor + " lengths");
      }
      target.writerIndex(start + total);
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalStateException("the value grew while it was encoded", e);
    } finally {
      sized = false;
      sizedValue = null;
      sizedBy = null;
      buffer = null;
      sink = null;
      Arrays.fill(strings, 0, Math.min(count, strings.length), null);
      stringsHeld = false;
      if (lengths.length > MAX_RETAINED_SLOTS) {
        lengths = new int[INITIAL_SLOTS];
        strings = new String[INITIAL_SLOTS];
      }
    }
  }

  /** Copies the staged bytes into the target buffer. */
  private void flush() {
    int n = position;
    if (n > 0) {
      sink.setBytes(sinkIndex, buffer, 0, n);
      sinkIndex += n;
      position = 0;
    }
  }

  /** Makes room for {@code n} more bytes (at most {@link #CHUNK}) after a store found less. */
  private void makeRoom(int n) {
    if (sink == null) {
      throw new IllegalStateException("the value grew while it was encoded");
    }
    flush();
    if (limit - position < n) {
      throw new IllegalStateException("no room for " + n + " bytes");
    }
  }

  // ------------------------------------------------------------------ size pass

  /**
   * Reserves the next length slot (pre-order) for a nested message, map entry or packed field, one level
   * deeper; pass it to {@link #nested} once the length is known.
   *
   * @throws ProtoEncodeException when the value nests deeper than {@link ProtoDecoder#RECURSION_LIMIT}
   *     levels, the most any decoder accepts; a cycle in the object graph nests without end and ends here
   */
  public int reserve() {
    if (++depth > ProtoDecoder.RECURSION_LIMIT) {
      throw new ProtoEncodeException("the value nests deeper than " + ProtoDecoder.RECURSION_LIMIT
          + " levels, the most a decoder accepts (does the object graph contain a cycle?)");
    }
    return slot();
  }

  private int slot() {
    if (count == lengths.length) {
      lengths = Arrays.copyOf(lengths, count * 2);
      strings = Arrays.copyOf(strings, count * 2);
    }
    return count++;
  }

  /**
   * Records {@code length} in {@code slot} (from {@link #reserve()}), leaves that level and returns the
   * size of the length-delimited value: its length prefix plus {@code length}.
   */
  public int nested(int slot, int length) {
    depth--;
    lengths[slot] = length;
    return ProtoSizes.varint32(length) + length;
  }

  /**
   * Measures {@code value}'s UTF-8 length once, records it, and returns its size with the length prefix. A
   * lone surrogate counts as one byte: it is written as {@code '?'}, as {@link String#getBytes} and
   * protobuf-java write it.
   */
  public int string(String value) {
    int slot = slot(); // first: it may grow the arrays
    int n = value.length();
    int i = 0;
    while (i < n && value.charAt(i) < 0x80) {
      i++;
    }
    if (i == n) {
      lengths[slot] = n;
      strings[slot] = value;
      return ProtoSizes.varint32(n) + n;
    }
    long length = i + Utf8.length(value, i, n);
    if (length > Integer.MAX_VALUE) {
      throw new ProtoEncodeException("a string of " + length + " UTF-8 bytes is longer than protobuf allows");
    }
    lengths[slot] = (int) length | NON_ASCII;
    strings[slot] = null;
    return ProtoSizes.varint32((int) length) + (int) length;
  }

  /**
   * {@code element} itself, or a {@link NullPointerException} saying that protobuf cannot carry a
   * {@code null} collection element or map key or value. Generated size functions check each element.
   */
  public static <T> T element(T element) {
    if (element == null) {
      throw new NullPointerException("a collection element, map key or map value is null: the protobuf wire format"
          + " has no null elements");
    }
    return element;
  }

  // ------------------------------------------------------------------ write pass

  /** Writes a precomputed tag. */
  public void writeTag(int tag) {
    writeVarint32(tag);
  }

  /** Writes the next recorded length (of a nested message, map entry or packed field). */
  public void writeLength() {
    writeVarint32(lengths[cursor++]);
  }

  /** Writes {@code value} as an unsigned varint (uint32, lengths, tags). */
  public void writeVarint32(int value) {
    if (limit - position < 5) {
      ensure(ProtoSizes.varint32(value));
    }
    byte[] b = buffer;
    int p = position;
    while ((value & ~0x7F) != 0) {
      b[p++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[p++] = (byte) value;
    position = p;
  }

  /** Writes {@code value} as a 64-bit varint (int64, uint64). */
  public void writeVarint64(long value) {
    if (limit - position < 10) {
      ensure(ProtoSizes.varint64(value));
    }
    byte[] b = buffer;
    int p = position;
    while ((value & ~0x7FL) != 0) {
      b[p++] = (byte) (((int) value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[p++] = (byte) value;
    position = p;
  }

  private void ensure(int n) {
    if (limit - position < n) {
      makeRoom(n);
    }
  }

  /** Writes an int32: a varint, sign-extended to ten bytes when negative. */
  public void writeInt32(int value) {
    if (value >= 0) {
      writeVarint32(value);
    } else {
      writeVarint64(value);
    }
  }

  /** Writes an int64. */
  public void writeInt64(long value) {
    writeVarint64(value);
  }

  /** Writes a sint32: a zigzag varint, so that small negative values take few bytes. */
  public void writeSInt32(int value) {
    writeVarint32((value << 1) ^ (value >> 31));
  }

  /** Writes a sint64: a zigzag varint. */
  public void writeSInt64(long value) {
    writeVarint64((value << 1) ^ (value >> 63));
  }

  /** Writes a fixed32 or sfixed32: four bytes, little-endian. */
  public void writeFixed32(int value) {
    ensure(4);
    INT_LE.set(buffer, position, value);
    position += 4;
  }

  /** Writes a fixed64 or sfixed64: eight bytes, little-endian. */
  public void writeFixed64(long value) {
    ensure(8);
    LONG_LE.set(buffer, position, value);
    position += 8;
  }

  /** Writes a bool. */
  public void writeBool(boolean value) {
    ensure(1);
    buffer[position++] = value ? (byte) 1 : (byte) 0;
  }

  /** Writes a float as fixed32, little-endian. */
  public void writeFloat(float value) {
    writeFixed32(Float.floatToRawIntBits(value));
  }

  /** Writes a double as fixed64, little-endian. */
  public void writeDouble(double value) {
    writeFixed64(Double.doubleToRawLongBits(value));
  }

  /**
   * Writes a string: the length recorded by {@link #string} and its UTF-8 bytes (a lone surrogate becomes
   * {@code '?'}). An ASCII string is copied in bulk.
   */
  @SuppressWarnings("ReferenceEquality") // the very string string() measured: an equal one was not measured
  public void writeString(String value) {
    int slot = cursor++;
    int recorded = lengths[slot];
    int length = recorded & ~NON_ASCII;
    writeVarint32(length);
    if (recorded >= 0 && strings[slot] == value) {
      writeAscii(value, length);
    } else {
      writeUtf8(value, length);
    }
  }

  /** Copies {@code value}, {@code n} characters all below 0x80, one byte each. */
  @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int) keeps the low 8 bits: the ASCII bytes
  private void writeAscii(String value, int n) {
    int i = 0;
    while (n - i > limit - position) {
      int room = limit - position;
      value.getBytes(i, i + room, buffer, position);
      position += room;
      i += room;
      makeRoom(1);
    }
    value.getBytes(i, n, buffer, position);
    position += n - i;
  }

  /** Encodes {@code value} as UTF-8, which must take {@code length} bytes. */
  private void writeUtf8(String value, int length) {
    int n = value.length();
    if (limit - position >= 3L * n) { // room for any n characters: no check per character
      int p = Utf8.encode(value, n, buffer, position);
      if (p - position != length) {
        throw new IllegalStateException("a string changed while it was encoded");
      }
      position = p;
      return;
    }
    int written = 0;
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        ensure(1);
        buffer[position++] = (byte) c;
        written++;
      } else if (c < 0x800) {
        ensure(2);
        byte[] b = buffer;
        int p = position;
        b[p] = (byte) (0xc0 | (c >> 6));
        b[p + 1] = (byte) (0x80 | (c & 0x3f));
        position = p + 2;
        written += 2;
      } else if (Character.isSurrogate(c)) {
        char low = i + 1 < n ? value.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
          int cp = Character.toCodePoint(c, low);
          ensure(4);
          byte[] b = buffer;
          int p = position;
          b[p] = (byte) (0xf0 | (cp >> 18));
          b[p + 1] = (byte) (0x80 | ((cp >> 12) & 0x3f));
          b[p + 2] = (byte) (0x80 | ((cp >> 6) & 0x3f));
          b[p + 3] = (byte) (0x80 | (cp & 0x3f));
          position = p + 4;
          written += 4;
          i++;
        } else {
          ensure(1);
          buffer[position++] = (byte) '?';
          written++;
        }
      } else {
        ensure(3);
        byte[] b = buffer;
        int p = position;
        b[p] = (byte) (0xe0 | (c >> 12));
        b[p + 1] = (byte) (0x80 | ((c >> 6) & 0x3f));
        b[p + 2] = (byte) (0x80 | (c & 0x3f));
        position = p + 3;
        written += 3;
      }
    }
    if (written != length) {
      throw new IllegalStateException("a string changed while it was encoded");
    }
  }

  /** Writes a {@code bytes} value: its length and its bytes. */
  public void writeBytes(byte[] value) {
    writeVarint32(value.length);
    int n = value.length;
    if (sink != null && n > limit - position) {
      // larger than the room left in the chunk: straight into the target, copied once, not through the chunk
      flush();
      sink.setBytes(sinkIndex, value, 0, n);
      sinkIndex += n;
      return;
    }
    int i = 0;
    while (n - i > limit - position) {
      int room = limit - position;
      System.arraycopy(value, i, buffer, position, room);
      position += room;
      i += room;
      makeRoom(1);
    }
    System.arraycopy(value, i, buffer, position, n - i);
    position += n - i;
  }

  /**
   * The next {@code length} bytes of the write pass, as a buffer of their own that the caller fills at once
   * ({@link ProtoMessages} serializes a protobuf-java message into it); the write pass moves past them.
   */
  ByteBuffer claim(int length) {
    if (limit - position < length) {
      if (sink == null) {
        throw new IllegalStateException("the value grew while it was encoded");
      }
      flush();
      if (limit - position < length) {
        if (sink.nioBufferCount() == 1) { // larger than the chunk: the target's own memory
          ByteBuffer target = sink.nioBuffer(sinkIndex, length);
          sinkIndex += length;
          return target;
        }
        buffer = new byte[length]; // this value only: the chunk is kept for the next
        limit = length;
      }
    }
    ByteBuffer target = ByteBuffer.wrap(buffer, position, length).slice();
    position += length;
    return target;
  }
}
