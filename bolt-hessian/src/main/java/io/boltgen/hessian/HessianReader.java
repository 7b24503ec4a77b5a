package io.boltgen.hessian;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads SOFARPC's Hessian (the draft Hessian 2.0 grammar of sofa-hessian 3.5.x, see {@link HessianWriter})
 * from untrusted input, moving the reader index of its {@link ByteBuf}.
 *
 * <p>It fails with {@link HessianException} and nothing else; builds only what the {@link HessianType} and
 * {@link ValueReader} callbacks build, or plain values in {@link #readValue}, never a class found by name;
 * checks every declared length against the bytes left before allocating; and keeps within
 * {@link #MAX_DEPTH}, {@link #MAX_REFERENCES}, {@link #MAX_CLASS_DEFINITIONS}, {@link #MAX_FIELDS} and
 * {@link #MAX_TYPES}. Strings must be valid UTF-8 of at most 3 bytes a char (sofa-hessian writes a surrogate
 * pair as two 3-byte sequences, and rejects 4-byte ones too); it is stricter than sofa-hessian in that a
 * continuation byte must be {@code 10xxxxxx}.
 *
 * <p>Back-references ({@code 'R' i32}, {@code 0x4a u8}, {@code 0x4b u16}) number the objects, lists and maps
 * of the stream in the order they begin. One resolves only to a value that is complete (a cycle fails), that
 * was not skipped, and that was read the same way: an object by an equal {@link HessianType}, a list or map by
 * equal {@link ValueReader}s (a method reference or lambda equals itself only), any value by {@link #readValue}.
 *
 * <p>One reader per stream, confined to one thread; after a {@link HessianException} it is unusable.
 */
public final class HessianReader {

  /** The deepest nesting of objects, lists and maps read (or skipped): 64. */
  public static final int MAX_DEPTH = 64;
  /** The most objects, lists and maps one stream may hold (each can be referred back to): 65,536. */
  public static final int MAX_REFERENCES = 65_536;
  /** The most class definitions one stream may hold: 1,024. */
  public static final int MAX_CLASS_DEFINITIONS = 1_024;
  /** The most fields one class definition may list: 1,024. */
  public static final int MAX_FIELDS = 1_024;
  /** The most list and map type names one stream may hold: 1,024. */
  public static final int MAX_TYPES = 1_024;

  private static final Object IN_PROGRESS = new Object();
  private static final Object SKIPPED = new Object();
  private static final Object PLAIN = new Object();

  private final HessianSource src;
  private final HessianDefinitions definitions;
  private final List<Object> refs = new ArrayList<>();
  private final List<Object> refKinds = new ArrayList<>();
  private int depth;

  /** A reader of {@code in} from its reader index, which it moves. */
  public HessianReader(ByteBuf in) {
    this.src = new HessianSource(in);
    this.definitions = new HessianDefinitions(src);
  }

  /** If the next value is {@code 'N'}, consumes it and returns true; else false (and at the end). */
  public boolean readNull() {
    if (!src.atEnd() && src.peek() == 'N') {
      src.tag();
      return true;
    }
    return false;
  }

  /** {@code 'T'} true; {@code 'F'} and {@code 'N'} false; a number, whether it is not zero (as sofa-hessian). */
  public boolean readBoolean() {
    int tag = src.tag();
    if (tag == 'T' || tag == 'F' || tag == 'N') {
      return tag == 'T';
    }
    return HessianSource.isDouble(tag) ? src.doubleBody(tag) != 0 : number(tag, "a boolean") != 0;
  }

  /**
   * An int. As sofa-hessian's {@code readInt}: also a long (cast, keeping its low 32 bits), a double (cast,
   * rounding toward zero and saturating), {@code 'N'} and {@code 'F'} as 0, {@code 'T'} as 1.
   */
  public int readInt() {
    int tag = src.tag();
    return HessianSource.isDouble(tag) ? (int) src.doubleBody(tag) : (int) number(tag, "an int");
  }

  /** A long; also an int, a double (cast), {@code 'N'} and {@code 'F'} as 0, {@code 'T'} as 1. */
  public long readLong() {
    int tag = src.tag();
    return HessianSource.isDouble(tag) ? (long) src.doubleBody(tag) : number(tag, "a long");
  }

  /** A double; also an int or a long, {@code 'N'} and {@code 'F'} as 0, {@code 'T'} as 1. */
  public double readDouble() {
    int tag = src.tag();
    return HessianSource.isDouble(tag) ? src.doubleBody(tag) : number(tag, "a double");
  }

  private long number(int tag, String what) {
    if (HessianSource.isInt(tag)) {
      return src.intBody(tag);
    } else if (HessianSource.isLong(tag)) {
      return src.longBody(tag);
    } else if (tag == 'N' || tag == 'F' || tag == 'T') {
      return tag == 'T' ? 1 : 0;
    }
    throw unexpected(what, tag);
  }

  /** A date ({@code 'd'}) as its milliseconds since the epoch; {@code 'N'} gives null. Nothing else converts. */
  public Long readDate() {
    return HessianValues.readDate(this);
  }

  /**
   * The constant of {@code type} a string names (an enum as SOFARPC writes it, by its name); {@code 'N'} gives null.
   * A name that is none of its constants fails with a {@link HessianException} whose {@link HessianException#peerText}
   * is that name.
   */
  public <E extends Enum<E>> E readEnumName(Class<E> type) {
    String name = readString();
    if (name == null) {
      return null;
    }
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException e) {
      throw HessianException.about("no constant of " + type.getName() + " is named", name);
    }
  }

  /** A string, in one chunk or many; {@code 'N'} gives null. Nothing else converts to a string. */
  public String readString() {
    int tag = src.tag();
    if (tag == 'N') {
      return null;
    }
    if (!HessianSource.isString(tag)) {
      throw unexpected("a string", tag);
    }
    StringBuilder sb = new StringBuilder();
    src.stringBody(tag, sb);
    return sb.toString();
  }

  /** Bytes, in one chunk or many; {@code 'N'} gives null. */
  public byte[] readBytes() {
    int tag = src.tag();
    if (tag == 'N') {
      return null;
    }
    if (!HessianSource.isBytes(tag)) {
      throw unexpected("bytes", tag);
    }
    return src.bytesBody(tag, true);
  }

  /**
   * An object read by {@code type}: {@code 'N'} gives null; class definitions ({@code 'O'}) are remembered for
   * the rest of the stream; an instance ({@code 'o' index}) must be of a definition whose class name is
   * {@code type.hessianClass().className()}; a back-reference gives the object read before.
   */
  public <T> T readObject(HessianType<T> type) {
    int tag = tagAfterDefinitions();
    if (tag == 'N') {
      return null;
    }
    if (HessianSource.isRef(tag)) {
      @SuppressWarnings("unchecked") // read by an equal HessianType<T>
      T value = (T) resolve(tag, type, "an object of " + type.hessianClass().className());
      return value;
    }
    if (tag != 'o') {
      throw unexpected("an object of " + type.hessianClass().className(), tag);
    }
    HessianClass sent = definitions.instanceClass();
    String expected = type.hessianClass().className();
    if (!sent.className().equals(expected)) {
      throw HessianException.about("expected an object of class " + expected + ", found one of another class",
          sent.className());
    }
    int ref = reserve(type);
    enter();
    int start = src.position();
    T value = type.readFields(this, sent);
    if (sent.fieldCount() > 0 && src.position() == start) {
      throw new HessianException(type.getClass().getName() + " read no field of " + expected);
    }
    depth--;
    refs.set(ref, value);
    return value;
  }

  /**
   * A list of values read by {@code element}: {@code 'N'} gives null; typed or untyped, with or without a
   * length ({@code 'V' … 'z'}, whose length, as in sofa-hessian, only sizes the list), or the compact
   * {@code 'v' typeRef length} form; a back-reference gives the list read before. The list is mutable.
   */
  public <E> List<E> readList(ValueReader<E> element) {
    int tag = src.tag();
    if (tag == 'N') {
      return null;
    }
    if (HessianSource.isRef(tag)) {
      @SuppressWarnings("unchecked") // read by an equal ValueReader<E>
      List<E> list = (List<E>) resolve(tag, element, "a list");
      return list;
    }
    int length = listStart(tag);
    int ref = reserve(element);
    enter();
    List<E> list = new ArrayList<>(Math.min(Math.max(length, 0), src.readable()));
    while (more(tag, list.size(), length)) {
      int before = src.position();
      list.add(element.read(this));
      progressed(before);
    }
    depth--;
    refs.set(ref, list);
    return list;
  }

  /**
   * A map of keys and values read by {@code key} and {@code value}, in the order sent ({@link LinkedHashMap},
   * mutable; a repeated key keeps its last value): {@code 'N'} gives null; typed or untyped; a back-reference
   * gives the map read before.
   */
  public <K, V> Map<K, V> readMap(ValueReader<K> key, ValueReader<V> value) {
    int tag = src.tag();
    MapKind kind = new MapKind(key, value);
    if (tag == 'N') {
      return null;
    }
    if (HessianSource.isRef(tag)) {
      @SuppressWarnings("unchecked") // read by equal ValueReaders
      Map<K, V> map = (Map<K, V>) resolve(tag, kind, "a map");
      return map;
    }
    if (tag != 'M') {
      throw unexpected("a map", tag);
    }
    definitions.readType();
    int ref = reserve(kind);
    enter();
    Map<K, V> map = new LinkedHashMap<>();
    while (more(tag, 0, -1)) {
      int before = src.position();
      K k = key.read(this);
      map.put(k, value.read(this));
      progressed(before);
    }
    depth--;
    refs.set(ref, map);
    return map;
  }

  /**
   * Any value as plain Java: null, {@link Boolean}, {@link Integer}, {@link Long}, {@link Double},
   * {@link String}, {@code byte[]}, a date ({@code 'd'}) as its milliseconds since the epoch in a {@link Long},
   * a {@code List<Object>}, a {@code Map<Object, Object>} (in order), or an {@link Instance} for an object.
   * For envelopes whose types are not known in advance; nothing is built from a class name.
   */
  public Object readValue() {
    int tag = tagAfterDefinitions();
    return HessianValues.read(this, tag);
  }

  /** Skips exactly one value of any kind (its objects, lists and maps still count for back-references). */
  public void skipValue() {
    int tag = tagAfterDefinitions();
    HessianValues.skip(this, tag);
  }

  /** The class of the next value if it is an object (definitions before it are read), else null; it stays unread. */
  public String nextObjectClassName() {
    return HessianValues.nextObjectClassName(this, src);
  }

  /** Whether no readable bytes are left. */
  public boolean atEnd() {
    return src.atEnd();
  }

  /**
   * An object of any class, for the fields a caller wants of it and nothing more (a Throwable's message, say):
   * after its class definitions, {@code fields} is called for each field in the order the peer sent them, with
   * the object's class name and the field's name, and either reads that field's value (exactly one) and returns
   * true, or reads nothing and returns false to have it skipped. Returns the class name; {@code 'N'} gives null.
   *
   * <p>The object itself is not built, so a back-reference to it fails; it counts towards the limits as any
   * object does. What {@code fields} kept before a {@link HessianException} stays valid, so a caller may use the
   * fields read before the rest turned out malformed.
   */
  public String readFields(FieldReader fields) {
    int tag = tagAfterDefinitions();
    if (tag == 'N') {
      return null;
    }
    if (tag != 'o') {
      throw unexpected("an object", tag);
    }
    HessianClass sent = definitions.instanceClass();
    reserve(SKIPPED);
    enter();
    for (int i = 0; i < sent.fieldCount(); i++) {
      int before = src.position();
      if (fields.read(this, sent.className(), sent.fieldName(i))) {
        progressed(before);
      } else {
        skipValue();
      }
    }
    exit();
    return sent.className();
  }

  /**
   * The class name and {@code detailMessage} of a serialized Throwable, skipping its other fields (stack
   * trace, cause, suppressed exceptions…) by {@link #readFields}; {@code 'N'} gives null.
   */
  public RemoteThrowable readThrowable() {
    ThrowableFields fields = new ThrowableFields();
    String className = readFields(fields);
    return className == null ? null : new RemoteThrowable(className, fields.message());
  }

  /** The class name and detail message (null when it had none) of a Throwable read by {@link #readThrowable}. */
  public record RemoteThrowable(String className, String message) {}

  /** An object read by {@link #readValue}: its class name and its fields by name, in the order sent. */
  public record Instance(String className, Map<String, Object> fields) {}

  /** Reads the fields of an object that a caller of {@link #readFields} wants, field by field. */
  @FunctionalInterface
  public interface FieldReader {
    /**
     * Reads the value of field {@code field} of an object of class {@code className} from {@code in} and returns
     * true, or reads nothing and returns false to have that value skipped.
     */
    boolean read(HessianReader in, String className, String field);
  }

  /** How one value of type {@code T} is read, e.g. {@code HessianReader::readString}. */
  @FunctionalInterface
  public interface ValueReader<T> {
    /** Reads one value from {@code in}. */
    T read(HessianReader in);
  }

  // ---------------------------------------------------------------- grammar shared with HessianValues

  HessianSource source() {
    return src;
  }

  static HessianException unexpected(String what, int tag) {
    return new HessianException(String.format("expected %s, found Hessian tag 0x%02x%s", what, tag,
        tag >= 0x20 && tag < 0x7f ? " '" + (char) tag + "'" : ""));
  }

  /** The index of the back-reference whose tag was read, checked against the references so far. */
  int refIndex(int tag) {
    long index = tag == 0x4a ? src.u8() : tag == 0x4b ? src.u16() : src.i32() & 0xffffffffL;
    if (index >= refs.size()) {
      throw new HessianException("a back-reference to value " + index + " of " + refs.size());
    }
    return (int) index;
  }

  /** The value a back-reference whose tag was read refers to, if it was read as {@code kind}. */
  Object resolve(int tag, Object kind, String what) {
    int index = refIndex(tag);
    Object value = refs.get(index);
    if (value == IN_PROGRESS) {
      throw new HessianException("a back-reference to value " + index + ", which is still being read (a cycle)");
    }
    if (value == SKIPPED) {
      throw new HessianException("a back-reference to value " + index + ", which was skipped");
    }
    if (kind != PLAIN && !kind.equals(refKinds.get(index))) {
      throw new HessianException("a back-reference to value " + index + ", which was not read as " + what);
    }
    return value;
  }

  Object resolvePlain(int tag) {
    return resolve(tag, PLAIN, "a value");
  }

  /** Takes the next reference number for a value read as {@code kind} (or {@link #SKIPPED}). */
  int reserve(Object kind) {
    if (refs.size() >= MAX_REFERENCES) {
      throw new HessianException("more than " + MAX_REFERENCES + " objects, lists and maps in one stream");
    }
    refs.add(kind == SKIPPED ? SKIPPED : IN_PROGRESS);
    refKinds.add(kind);
    return refs.size() - 1;
  }

  int reservePlain() {
    return reserve(PLAIN);
  }

  int reserveSkipped() {
    return reserve(SKIPPED);
  }

  void complete(int ref, Object value) {
    refs.set(ref, value);
  }

  void enter() {
    if (++depth > MAX_DEPTH) {
      throw new HessianException("Hessian values nested deeper than " + MAX_DEPTH);
    }
  }

  void exit() {
    depth--;
  }

  private void progressed(int before) {
    if (src.position() == before) {
      throw new HessianException("a value reader read nothing");
    }
  }

  /** The tag after any class definitions. */
  private int tagAfterDefinitions() {
    int tag = src.tag();
    while (tag == 'O') {
      definitions.readDefinition();
      tag = src.tag();
    }
    return tag;
  }

  /** The class definitions and type names this stream declared so far. */
  HessianDefinitions definitions() {
    return definitions;
  }

  /**
   * The start of a list whose tag was read: its length (-1 if not given). A {@code 'V'} list ends with
   * {@code 'z'} whatever its length says; a {@code 'v'} list has a length and no end.
   */
  int listStart(int tag) {
    if (tag == 'v') {
      definitions.typeRef(src.compactInt("the type of a list"), "a list of type ");
      return src.count(src.compactInt("the length of a list"), "a list");
    }
    if (tag != 'V') {
      throw unexpected("a list", tag);
    }
    definitions.readType();
    int next = src.peek();
    if (next == 0x6e) {
      src.tag();
      return src.u8();
    } else if (next == 'l') {
      src.tag();
      return src.count(src.i32(), "a list");
    }
    return -1;
  }

  /** Whether a list or map whose start tag was {@code tag} has another value; consumes its {@code 'z'}. */
  boolean more(int tag, int read, int length) {
    if (tag == 'v') {
      return read < length;
    }
    if (src.peek() == 'z') {
      src.tag();
      return false;
    }
    return true;
  }

  /** How a map was read, for back-references. */
  private record MapKind(ValueReader<?> key, ValueReader<?> value) {}
}
