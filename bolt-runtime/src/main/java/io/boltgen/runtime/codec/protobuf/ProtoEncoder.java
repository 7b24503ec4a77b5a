package io.boltgen.runtime.codec.protobuf;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Encodes one value in two passes, in the order generated codecs visit fields:
 *
 * <ol>
 *   <li>the <b>size pass</b> computes the exact encoded size and, in pre-order, records the length of every
 *       length-delimited value whose length is not free to know: nested messages, map entries, packed
 *       fields ({@link #reserve()} + {@link #nested}) and strings ({@link #string}, which measures the UTF-8
 *       length once);</li>
 *   <li>the <b>write pass</b> appends the bytes to a {@link ByteBuf} in the same order, taking each recorded
 *       length back ({@link #writeLength()}, {@link #writeString}).</li>
 * </ol>
 *
 * <p>So every nested size is computed once (Wire's quadratic nested-size trap, square/wire#2025, cannot
 * happen), and the write pass fills an NIO view of exactly the bytes it writes, strings encoded straight into
 * it, without an intermediate {@code byte[]}. The lengths are kept between {@link ProtoMarshaller#encodedSize} and
 * {@link ProtoMarshaller#write} for the same value on the same thread, so the runtime's "size, allocate,
 * write" sequence visits the value twice, not three times.
 *
 * <p>A generated size function records a nested message as
 * {@code size += TAG_SIZE + e.nested(e.reserve(), sizeOfChild(child, e));} — the slot is reserved before
 * the child records its own lengths (Java evaluates arguments left to right), which is the pre-order the
 * write pass follows with {@code e.writeTag(TAG); e.writeLength(); writeChild(child, e);}.
 *
 * <p>Instances are confined to one thread and owned by {@link ProtoMarshaller}; generated code only
 * receives them as a parameter.
 *
 * <p>Not thread-safe: each thread uses its own instance ({@link #acquire()}), for one value at a time.
 */
public final class ProtoEncoder {

  private static final int INITIAL_SLOTS = 32;
  private static final int MAX_RETAINED_SLOTS = 4096;
  private static final ThreadLocal<ProtoEncoder> LOCAL = ThreadLocal.withInitial(ProtoEncoder::new);

  private int[] lengths = new int[INITIAL_SLOTS];
  private int count;
  private int cursor;
  // length-delimited values open in the size pass: the nesting depth the decoder will count
  private int depth;
  // the write pass appends to an NIO view of exactly the bytes it will write: plain bounds checks
  // instead of Netty's per-write capacity, reference-count and index bookkeeping
  private ByteBuffer out;
  // when `out` is a view of `outBuf` (the usual case), strings go through Netty's UTF-8 writer instead,
  // which writes straight to the buffer's memory; `outBase` is the buffer index of the view's `outFirst`
  private ByteBuf outBuf;
  private int outBase;
  private int outFirst;
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
    out = null;
  }

  /** Runs the size pass for {@code value} and remembers the recorded lengths for a following write. */
  <T> int size(T value, ProtoMarshaller.Sizer<T> sizer) {
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
  <T> void write(T value, ProtoMarshaller.Sizer<T> sizer, ProtoMarshaller.Writer<T> writer, ByteBuf buffer) {
    try {
      int total = sized && sizedValue == value && sizedBy == sizer ? sizedTotal : size(value, sizer);
      buffer.ensureWritable(total);
      int start = buffer.writerIndex();
      boolean direct = buffer.nioBufferCount() == 1;
      ByteBuffer target = direct ? view(buffer, start, total) : ByteBuffer.allocate(total);
      int first = target.position();
      out = target;
      outBuf = direct ? buffer : null;
      outBase = start;
      outFirst = first;
      cursor = 0;
      writer.write(value, this);
      int written = target.position() - first;
      if (written != total || cursor != count) {
        throw new IllegalStateException("the value changed while it was encoded: sized " + total
            + " bytes and " + count + " lengths, wrote " + written + " bytes and used " + cursor + " lengths");
      }
      if (direct) {
        buffer.writerIndex(start + total);
      } else {
        target.flip();
        buffer.writeBytes(target);
      }
    } catch (java.nio.BufferOverflowException e) {
      throw new IllegalStateException("the value grew while it was encoded", e);
    } finally {
      sized = false;
      sizedValue = null;
      sizedBy = null;
      out = null;
      outBuf = null;
      if (lengths.length > MAX_RETAINED_SLOTS) {
        lengths = new int[INITIAL_SLOTS];
      }
    }
  }

  /** The buffer's own NIO view where it has one (no duplicate per encode; nothing else uses it meanwhile). */
  private static ByteBuffer view(ByteBuf buffer, int index, int length) {
    try {
      return buffer.internalNioBuffer(index, length);
    } catch (UnsupportedOperationException e) {
      return buffer.nioBuffer(index, length);
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

  /** Measures {@code value}'s UTF-8 length once, records it, and returns its size with the length prefix. */
  public int string(String value) {
    int length = ByteBufUtil.utf8Bytes(value);
    int slot = slot(); // first: it may grow the array
    lengths[slot] = length;
    return ProtoSizes.varint32(length) + length;
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
    ByteBuffer b = out;
    while ((value & ~0x7F) != 0) {
      b.put((byte) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    b.put((byte) value);
  }

  /** Writes {@code value} as a 64-bit varint (int64, uint64). */
  public void writeVarint64(long value) {
    ByteBuffer b = out;
    while ((value & ~0x7FL) != 0) {
      b.put((byte) (((int) value & 0x7F) | 0x80));
      value >>>= 7;
    }
    b.put((byte) value);
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

  /** Writes a bool. */
  public void writeBool(boolean value) {
    out.put(value ? (byte) 1 : (byte) 0);
  }

  /** Writes a float as fixed32, little-endian. */
  public void writeFloat(float value) {
    out.putInt(Integer.reverseBytes(Float.floatToRawIntBits(value)));
  }

  /** Writes a double as fixed64, little-endian. */
  public void writeDouble(double value) {
    out.putLong(Long.reverseBytes(Double.doubleToRawLongBits(value)));
  }

  /**
   * Writes a string: the length recorded by {@link #string} and its UTF-8 bytes, encoded straight into the
   * buffer by Netty's {@code ByteBufUtil} (which also measured it: a lone surrogate becomes {@code '?'}).
   */
  public void writeString(String value) {
    int length = lengths[cursor++];
    writeVarint32(length);
    ByteBuffer b = out;
    int start = b.position();
    if (outBuf != null) {
      outBuf.writerIndex(outBase + (start - outFirst));
      int written = ByteBufUtil.reserveAndWriteUtf8(outBuf, value, length);
      if (written != length) {
        throw new IllegalStateException("a string changed while it was encoded");
      }
      b.position(start + length);
      return;
    }
    int n = value.length();
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        b.put((byte) c);
      } else if (c < 0x800) {
        b.put((byte) (0xc0 | (c >> 6)));
        b.put((byte) (0x80 | (c & 0x3f)));
      } else if (Character.isSurrogate(c)) {
        char low = i + 1 < n ? value.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
          int cp = Character.toCodePoint(c, low);
          b.put((byte) (0xf0 | (cp >> 18)));
          b.put((byte) (0x80 | ((cp >> 12) & 0x3f)));
          b.put((byte) (0x80 | ((cp >> 6) & 0x3f)));
          b.put((byte) (0x80 | (cp & 0x3f)));
          i++;
        } else {
          b.put((byte) '?');
        }
      } else {
        b.put((byte) (0xe0 | (c >> 12)));
        b.put((byte) (0x80 | ((c >> 6) & 0x3f)));
        b.put((byte) (0x80 | (c & 0x3f)));
      }
    }
    if (b.position() - start != length) {
      throw new IllegalStateException("a string changed while it was encoded");
    }
  }

  /** Writes a {@code bytes} value: its length and its bytes. */
  public void writeBytes(byte[] value) {
    writeVarint32(value.length);
    out.put(value);
  }

  /**
   * The next {@code length} bytes of the write pass, as a buffer of their own that the caller fills
   * ({@link ProtoMessages} serializes a protobuf-java message into it); the write pass moves past them.
   */
  ByteBuffer claim(int length) {
    ByteBuffer target = out.slice();
    target.limit(length);
    out.position(out.position() + length);
    return target;
  }
}
