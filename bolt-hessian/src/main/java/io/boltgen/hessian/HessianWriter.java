package io.boltgen.hessian;

import io.netty.buffer.ByteBuf;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes SOFARPC's Hessian: the draft Hessian 2.0 grammar of sofa-hessian 3.5.x, byte for byte as its
 * {@code Hessian2Output} writes the same values (it shares no object by reference, so a value that appears
 * twice is written twice rather than as a back-reference).
 *
 * <ul>
 *   <li>ints, longs and doubles in their compact forms ({@code 0x80..0xd7 'I'}; {@code 0xd8..0xff 0x38..0x3f
 *       0x77 'L'}; {@code 0x67..0x6b 'D'});</li>
 *   <li>strings as counts of UTF-16 chars, each char in UTF-8 on its own (a surrogate pair as two 3-byte
 *       sequences), chunks of 32,768 chars ({@code 's'}, never ending on a high surrogate), the last one
 *       {@code 0x00..0x1f} or {@code 'S' u16}; bytes likewise ({@code 'b'}, {@code 0x20..0x2f}, {@code 'B'});</li>
 *   <li>objects as {@code 'O' definition} the first time a {@link HessianClass} appears in the stream, then
 *       {@code 'o' int(index)} and the field values;</li>
 *   <li>lists as {@code 'V' ['t' type] ('n' u8 | 'l' u32) values 'z'}, or {@code 'v' int(typeRef) int(length)
 *       values} once their type was written; maps as {@code 'M' ['t' type | 'u' int(typeRef)] (key value)* 'z'}.</li>
 * </ul>
 *
 * <p>One writer per stream (a frame's content), confined to one thread. {@link #sizing()} counts the bytes
 * {@link #to} would write for the same calls, for {@code Marshaller.encodedSize}.
 */
public final class HessianWriter {

  private static final int CHUNK = 0x8000;

  private final ByteBuf out; // null when only counting
  private int size;
  private int depth;
  private Map<HessianClass, Integer> classRefs;
  private Map<String, Integer> typeRefs;

  private HessianWriter(ByteBuf out) {
    this.out = out;
  }

  /** A writer that counts bytes only, writing nothing. */
  public static HessianWriter sizing() {
    return new HessianWriter(null);
  }

  /** A writer that appends to {@code out}. */
  public static HessianWriter to(ByteBuf out) {
    if (out == null) {
      throw new NullPointerException("out");
    }
    return new HessianWriter(out);
  }

  /** The bytes written (or counted) so far. */
  public int size() {
    return size;
  }

  /** {@code 'N'}. */
  public void writeNull() {
    put('N');
  }

  /** {@code 'T'} or {@code 'F'}. */
  public void writeBoolean(boolean v) {
    put(v ? 'T' : 'F');
  }

  /** An int in 1, 2, 3 or 5 bytes. */
  public void writeInt(int v) {
    if (v >= -0x10 && v <= 0x2f) {
      put(0x90 + v);
    } else if (v >= -0x800 && v <= 0x7ff) {
      put(0xc8 + (v >> 8));
      put(v);
    } else if (v >= -0x40000 && v <= 0x3ffff) {
      put(0xd4 + (v >> 16));
      put(v >> 8);
      put(v);
    } else {
      put('I');
      putInt(v);
    }
  }

  /** A long in 1, 2, 3, 5 or 9 bytes. */
  public void writeLong(long v) {
    if (v >= -0x08 && v <= 0x0f) {
      put(0xe0 + (int) v);
    } else if (v >= -0x800 && v <= 0x7ff) {
      put(0xf8 + (int) (v >> 8));
      put((int) v);
    } else if (v >= -0x40000 && v <= 0x3ffff) {
      put(0x3c + (int) (v >> 16));
      put((int) (v >> 8));
      put((int) v);
    } else if (v == (int) v) {
      put(0x77);
      putInt((int) v);
    } else {
      put('L');
      putLong(v);
    }
  }

  /** A date as sofa-hessian writes a {@code java.util.Date}: {@code 'd'} and its milliseconds since the epoch. */
  public void writeDate(long millis) {
    put('d');
    putLong(millis);
  }

  /** A double in 1, 2, 3, 5 or 9 bytes: 0, 1, a byte, a short, a float when exact, else 8 bytes. */
  public void writeDouble(double v) {
    int i = (int) v;
    if (i == v) {
      if (i == 0) {
        put(0x67); // also -0.0, as sofa-hessian writes it
        return;
      } else if (i == 1) {
        put(0x68);
        return;
      } else if (i >= -0x80 && i < 0x80) {
        put(0x69);
        put(i);
        return;
      } else if (i >= -0x8000 && i < 0x8000) {
        put(0x6a);
        put(i >> 8);
        put(i);
        return;
      }
    }
    float f = (float) v;
    if (f == v) {
      put(0x6b);
      putInt(Float.floatToIntBits(f));
    } else {
      put('D');
      putLong(Double.doubleToLongBits(v));
    }
  }

  /** A string ({@code null} as {@code 'N'}). */
  public void writeString(String v) {
    if (v == null) {
      put('N');
      return;
    }
    int length = v.length();
    int offset = 0;
    while (length > CHUNK) {
      int chunk = CHUNK;
      if (Character.isHighSurrogate(v.charAt(offset + chunk - 1))) {
        chunk--;
      }
      put('s');
      put(chunk >> 8);
      put(chunk);
      writeChars(v, offset, chunk);
      length -= chunk;
      offset += chunk;
    }
    if (length <= 0x1f) {
      put(length);
    } else {
      put('S');
      put(length >> 8);
      put(length);
    }
    writeChars(v, offset, length);
  }

  /** Bytes ({@code null} as {@code 'N'}). */
  public void writeBytes(byte[] v) {
    if (v == null) {
      put('N');
      return;
    }
    int length = v.length;
    int offset = 0;
    while (length > CHUNK) {
      put('b');
      put(CHUNK >> 8);
      put(CHUNK);
      putBytes(v, offset, CHUNK);
      length -= CHUNK;
      offset += CHUNK;
    }
    if (length < 0x10) {
      put(0x20 + length);
    } else {
      put('B');
      put(length >> 8);
      put(length);
    }
    putBytes(v, offset, length);
  }

  /**
   * An object of {@code type} ({@code null} as {@code 'N'}): its class definition the first time its
   * {@link HessianClass} appears in this writer's stream, then {@code 'o'} and the index of that definition,
   * then {@code type.writeFields}.
   *
   * @throws HessianException if objects, lists and maps nest deeper than {@link HessianReader#MAX_DEPTH}
   */
  public <T> void writeObject(HessianType<T> type, T value) {
    if (value == null) {
      put('N');
      return;
    }
    writeObjectHeader(type.hessianClass());
    enter();
    type.writeFields(this, value);
    depth--;
  }

  /**
   * A list or a set ({@code null} as {@code 'N'}) of {@code type}: {@code ""} for an untyped one (a Java peer
   * reads an {@code ArrayList}), or the Hessian type of an array or collection such as {@code "[string"} for a
   * {@code String[]}, {@code "[int"}, {@code "java.util.LinkedHashSet"}. Elements in iteration order.
   *
   * @throws HessianException if objects, lists and maps nest deeper than {@link HessianReader#MAX_DEPTH}
   */
  public <E> void writeList(String type, Collection<E> list, ValueWriter<E> element) {
    if (list == null) {
      put('N');
      return;
    }
    int length = list.size();
    Integer typeRef = type.isEmpty() || typeRefs == null ? null : typeRefs.get(type);
    boolean end = typeRef == null;
    if (typeRef != null) {
      put('v');
      writeInt(typeRef);
      writeInt(length);
    } else {
      put('V');
      writeType(type);
      if (length < 0x100) {
        put(0x6e);
        put(length);
      } else {
        put('l');
        putInt(length);
      }
    }
    enter();
    for (E e : list) {
      element.write(this, e);
    }
    depth--;
    if (end) {
      put('z');
    }
  }

  /**
   * A map ({@code null} as {@code 'N'}) of {@code type}: {@code ""} for an untyped one (a Java peer reads a
   * {@code HashMap}), else a Java map class name such as {@code "java.util.TreeMap"}. Entries in the map's
   * iteration order.
   *
   * @throws HessianException if objects, lists and maps nest deeper than {@link HessianReader#MAX_DEPTH}
   */
  public <K, V> void writeMap(String type, Map<K, V> map, ValueWriter<K> key, ValueWriter<V> value) {
    if (map == null) {
      put('N');
      return;
    }
    put('M');
    writeType(type);
    enter();
    for (Map.Entry<K, V> e : map.entrySet()) {
      key.write(this, e.getKey());
      value.write(this, e.getValue());
    }
    depth--;
    put('z');
  }

  /**
   * A Throwable of class {@code className} whose one field is Throwable's {@code detailMessage}: what a Java
   * peer reads as an instance of that class with that message (and no stack trace, cause or suppressed ones).
   */
  public void writeThrowable(String className, String message) {
    writeObjectHeader(HessianClass.of(className, ThrowableFields.DETAIL_MESSAGE));
    writeString(message);
  }

  /** How one value of type {@code T} is written, e.g. {@code HessianWriter::writeString}. */
  @FunctionalInterface
  public interface ValueWriter<T> {
    /** Writes {@code value} to {@code out}. */
    void write(HessianWriter out, T value);
  }

  // ---------------------------------------------------------------- internals

  private void enter() {
    if (++depth > HessianReader.MAX_DEPTH) {
      depth = 0;
      throw new HessianException("values nested deeper than " + HessianReader.MAX_DEPTH);
    }
  }

  /** The definition if it is new to this stream, then {@code 'o'} and its index. */
  private void writeObjectHeader(HessianClass hessianClass) {
    if (classRefs == null) {
      classRefs = new HashMap<>();
    }
    Integer ref = classRefs.get(hessianClass);
    if (ref == null) {
      ref = classRefs.size();
      classRefs.put(hessianClass, ref);
      put('O');
      byte[] definition = hessianClass.definition();
      putBytes(definition, 0, definition.length);
    }
    put('o');
    writeInt(ref);
  }

  private void writeType(String type) {
    if (type.isEmpty()) {
      return;
    }
    if (typeRefs == null) {
      typeRefs = new HashMap<>();
    }
    Integer ref = typeRefs.get(type);
    if (ref != null) {
      put(0x75);
      writeInt(ref);
    } else {
      typeRefs.put(type, typeRefs.size());
      put('t');
      put(type.length() >> 8);
      put(type.length());
      writeChars(type, 0, type.length());
    }
  }

  /** {@code length} chars of {@code s} from {@code offset}, each on its own in UTF-8. */
  void writeChars(String s, int offset, int length) {
    for (int i = offset; i < offset + length; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        put(c);
      } else if (c < 0x800) {
        put(0xc0 | (c >> 6));
        put(0x80 | (c & 0x3f));
      } else {
        put(0xe0 | (c >> 12));
        put(0x80 | ((c >> 6) & 0x3f));
        put(0x80 | (c & 0x3f));
      }
    }
  }

  private void put(int b) {
    if (out != null) {
      out.writeByte(b);
    }
    size++;
  }

  private void putInt(int v) {
    if (out != null) {
      out.writeInt(v);
    }
    size += 4;
  }

  private void putLong(long v) {
    if (out != null) {
      out.writeLong(v);
    }
    size += 8;
  }

  private void putBytes(byte[] v, int offset, int length) {
    if (out != null) {
      out.writeBytes(v, offset, length);
    }
    size += length;
  }
}
