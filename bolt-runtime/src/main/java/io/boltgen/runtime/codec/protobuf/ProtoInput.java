package io.boltgen.runtime.codec.protobuf;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a {@link ProtoDecoder} reads, and where they come from: a heap buffer's own array; a copy of a
 * direct or composite buffer's content, when it is at most {@value #MAX_RETAINED_SCRATCH} bytes; or else a
 * window of up to that many bytes that slides over the content as the decoder moves forward. The first
 * window of larger content holds only its first {@value #FIRST_WINDOW} bytes (enough for the tags and
 * lengths before a large value), and a {@code bytes} value that runs past the window is copied from the
 * buffer straight into its own array: a large value is copied once, where a copy of the whole content first
 * would copy it twice. A string longer than the window is read into one array of its length and decoded
 * from there (a {@code String} is made from an array).
 *
 * <p>The decoder's hot paths see only {@link #bytes}, {@link #pos} and {@link #limit}; when a read needs
 * more than {@code limit - pos} bytes they call {@link #fill}, which slides the window if the message goes
 * on beyond it, and which otherwise (always, unless windowed) leaves the read to fail as truncated.
 */
abstract class ProtoInput {

  /**
   * The largest content of a direct buffer copied whole before it is read, and the largest window over
   * larger content (the copy a thread keeps for its next decode), in bytes.
   */
  static final int MAX_RETAINED_SCRATCH = 8 * 1024;

  /** What the first window over content larger than {@link #MAX_RETAINED_SCRATCH} copies, in bytes. */
  static final int FIRST_WINDOW = 256;

  // the buffer read (for embedded protobuf-java messages, which are parsed from it, and for the window) and
  // the bytes read: its own array or a copy; buffer index = array index + delta
  ByteBuf buf;
  byte[] bytes = ProtoDecoder.EMPTY_BYTES;
  int delta;
  int pos;
  // the array index where the innermost message, or the bytes in the array, end: min(end - delta, windowEnd)
  int limit;
  // the buffer index where the innermost message ends; the array index where the bytes in the array end
  int end;
  private int windowEnd;
  // the buffer index where the content ends (the window never slides past it)
  private int contentEnd;
  // the per-thread decoder's reusable copy of direct content
  private byte[] scratch;

  /** Starts reading the readable bytes of {@code in}; {@code reuse}: in the array this object keeps. */
  final void open(ByteBuf in, boolean reuse) {
    int index = in.readerIndex();
    int length = in.writerIndex() - index;
    buf = in;
    end = in.writerIndex();
    contentEnd = end;
    if (in.hasArray()) {
      bytes = in.array();
      delta = -in.arrayOffset();
      pos = in.arrayOffset() + index;
      windowEnd = pos + length;
    } else {
      // all of it, or the start of the first window (a large value in it is then copied only once)
      int size = length <= MAX_RETAINED_SCRATCH ? length : FIRST_WINDOW;
      int capacity = Math.min(length, MAX_RETAINED_SCRATCH);
      byte[] copy;
      if (capacity == 0) {
        copy = ProtoDecoder.EMPTY_BYTES;
      } else if (!reuse) {
        copy = new byte[capacity];
      } else {
        if (scratch == null || scratch.length < capacity) {
          scratch = new byte[Math.min(MAX_RETAINED_SCRATCH, Math.max(capacity, Math.max(1024, 2 * (scratch == null ? 0 : scratch.length))))];
        }
        copy = scratch;
      }
      in.getBytes(index, copy, 0, size);
      bytes = copy;
      delta = index;
      pos = 0;
      windowEnd = size;
    }
    limit = windowEnd;
  }

  /** Forgets the buffer (the copy of its bytes, if any, is overwritten by the next {@link #open}). */
  final void close() {
    buf = null;
    bytes = ProtoDecoder.EMPTY_BYTES;
    delta = 0;
    pos = 0;
    limit = 0;
    end = 0;
    windowEnd = 0;
    contentEnd = 0;
  }

  /** Makes the innermost message end at buffer index {@code newEnd}; returns where it ended before. */
  final int narrow(int newEnd) {
    int outer = end;
    end = newEnd;
    limit = Math.min(newEnd - delta, windowEnd);
    return outer;
  }

  /**
   * Called when a read needs {@code n} bytes and fewer than that remain before {@link #limit}: if the
   * innermost message goes on past the window, slides the window to start at the next byte (copying up to
   * a window's worth from the buffer). Whether {@code n} bytes can now be read; if not, {@code limit} is
   * the message's end.
   */
  final boolean fill(int n) {
    int index = pos + delta;
    if (limit + delta >= end) { // the message ends within the bytes at hand (always, unless windowed)
      return false;
    }
    int count = Math.min(bytes.length, contentEnd - index);
    buf.getBytes(index, bytes, 0, count);
    delta = index;
    pos = 0;
    windowEnd = count;
    limit = Math.min(end - index, count);
    return limit >= n;
  }

  /** Moves to buffer index {@code index} (at most {@link #end}), leaving the window behind if it is past it. */
  final void seek(int index) {
    int p = index - delta;
    if (p <= windowEnd) {
      pos = p;
    } else { // an empty window there: the next read fills it
      delta = index;
      pos = 0;
      windowEnd = 0;
      limit = 0;
    }
  }

  /** A {@code bytes} value of {@code length} (checked) that runs past the window: straight from the buffer. */
  final byte[] readBytesOutsideWindow(int length) {
    int index = pos + delta;
    byte[] value = new byte[length];
    buf.getBytes(index, value);
    seek(index + length);
    return value;
  }

  /** A string of {@code length} bytes (checked) that runs past the window. */
  final String readStringOutsideWindow(int length) {
    if (length <= bytes.length && fill(length)) { // the window can hold it: slide the window to it
      int p = pos;
      pos = p + length;
      return new String(bytes, p, length, StandardCharsets.UTF_8);
    }
    int index = pos + delta;
    byte[] utf8 = new byte[length];
    buf.getBytes(index, utf8);
    seek(index + length);
    return new String(utf8, StandardCharsets.UTF_8);
  }
}
