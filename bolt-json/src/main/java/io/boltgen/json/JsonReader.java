package io.boltgen.json;

import io.boltgen.runtime.codec.protobuf.ProtoDecodeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.function.Function;

/**
 * Reads values by the proto3 JSON mapping from a JSON document, for the JSON codecs the processor generates (and a
 * hand-written {@link JsonMarshaller}), and keeps the path of the field being read so that every error names it:
 * {@code field "sku.value": expected a string, got a number}. {@link ProtoJson} makes one per document, over the
 * document's tokens, each checked by RFC 8259 exactly as it is passed (see {@link StrictJson} for the rules).
 *
 * <p>Each {@code readXxx} reads the value at the current token and leaves the reader on the value's last
 * token; {@code null} is refused there (a generated codec checks {@link #isNull()} first where {@code null} means
 * the field's default). What each accepts follows protobuf-java-util's {@code JsonFormat}: integers as numbers or
 * strings, also in exponent form when integral ({@code 1e2}, {@code "1.0"}); 64-bit integers likewise;
 * {@code float} and {@code double} as numbers or decimal strings and {@code "NaN"}, {@code "Infinity"},
 * {@code "-Infinity"}; {@code bool} as {@code true}/{@code false} or those strings; {@code bytes} in standard or
 * URL-safe base64, padded or not; enums by name or number. Numbers written as strings are bounded to
 * {@value StrictJson#MAX_NUMBER_LENGTH} characters, like numbers.
 *
 * <p>Not thread-safe: one per document.
 */
public final class JsonReader {

  private static final byte FIELD = 0;
  private static final byte INDEX = 1;
  private static final byte KEY = 2;
  private final JsonLexer in;
  private final boolean ignoreUnknownFields;
  /** The message read, for an error outside its fields; set by the first generated marshaller to read. */
  String messageName;
  /**
   * The path: one level per object, array or map entered; a level's name, index or key. A message's level keeps its
   * table and the index there of its last field (the next is looked for after it), and the name of an unknown one.
   */
  private byte[] kinds = new byte[8];
  private String[] names = new String[8];
  private JsonFields[] tables = new JsonFields[8];
  private int[] indices = new int[8];
  private int depth;

  JsonReader(JsonLexer in, boolean ignoreUnknownFields) {
    this.in = in;
    this.ignoreUnknownFields = ignoreUnknownFields;
  }

  // ------------------------------------------------------------------ structure

  /**
   * Enters a message's object whose field names are {@code fields}: the index of its first field there, with the
   * reader on that field's value, or -1 for an empty object. A name {@code fields} does not have is an error
   * naming the message, or skipped with its value when unknown fields are ignored.
   */
  public int beginObject(JsonFields fields) {
    expect(JsonLexer.START_OBJECT, "an object");
    push(FIELD);
    indices[depth - 1] = -1;
    tables[depth - 1] = fields;
    return nextField(fields);
  }

  /**
   * The index in {@code fields} of the object's next field, with the reader on its value, or -1 at its end; as
   * {@link #beginObject(JsonFields)}. Found fastest when the fields come in the table's order.
   */
  public int nextField(JsonFields fields) {
    while (true) {
      int level = depth - 1;
      int index = in.nextField(fields, level < 0 ? 0 : indices[level] + 1); // out of place: the lexer says so
      if (index >= 0) {
        names[level] = null; // the name is the table's (or there was an unknown field before)
        indices[level] = index;
        in.nextValue();
        return index;
      }
      if (index == JsonLexer.END) {
        depth--;
        return -1;
      }
      names[level] = in.unknownName();
      in.nextValue();
      unknownField(fields.messageName);
    }
  }

  private String nextName() {
    String name = in.nextName();
    if (name == null) {
      depth--;
      return null;
    }
    names[depth - 1] = name;
    in.nextValue();
    return name;
  }

  /**
   * A field the message {@code messageName} does not have: an error naming it, or skipped when unknown fields
   * are ignored.
   */
  public void unknownField(String messageName) {
    if (!ignoreUnknownFields) {
      throw new ProtoJsonException("unknown field \"" + path() + "\" in " + messageName);
    }
    in.skipChildren();
  }

  /** {@code true}, or an error when {@code seen}: the field was given already, by its other name. */
  public boolean once(boolean seen) {
    if (seen) {
      throw error("the field is given twice, by its JSON name and by its .proto name");
    }
    return true;
  }

  /** {@code member}, or an error when {@code current} (another member of the same oneof) is set already. */
  public <T> T oneof(T current, T member) {
    if (current != null) {
      throw error("another member of its oneof is set already: a oneof holds at most one");
    }
    return member;
  }

  /** Enters an array: whether it has a first element, with the reader on it. */
  public boolean beginArray() {
    expect(JsonLexer.START_ARRAY, "an array");
    push(INDEX);
    indices[depth - 1] = -1;
    return nextElement();
  }

  /** Whether the array has another element, with the reader on it. */
  public boolean nextElement() {
    if (in.nextValue() == JsonLexer.END_ARRAY) {
      depth--;
      return false;
    }
    indices[depth - 1]++;
    return true;
  }

  /** Enters a map's object: its first key, with the reader on the value, or {@code null} when empty. */
  public String beginMap() {
    expect(JsonLexer.START_OBJECT, "an object");
    push(KEY);
    return nextKey();
  }

  /** The next key of the map, with the reader on its value, or {@code null} at its end. */
  public String nextKey() {
    return nextName();
  }

  /** Whether the current value is {@code null}: for a field, its default. */
  public boolean isNull() {
    return in.token() == JsonLexer.NULL;
  }

  // ------------------------------------------------------------------ scalars

  /** A {@code bool}: {@code true}, {@code false}, or those words as strings. */
  public boolean readBoolean() {
    int t = in.token();
    if (t == JsonLexer.TRUE || t == JsonLexer.FALSE) {
      return t == JsonLexer.TRUE;
    }
    if (t == JsonLexer.STRING) {
      return booleanKey(in.text());
    }
    throw error("expected a boolean, got " + describe());
  }

  /** An {@code int32} that a Java {@code byte} holds. */
  public byte readByte() {
    return (byte) fit(readInt(), Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
  }

  /** An {@code int32} that a Java {@code short} holds. */
  public short readShort() {
    return (short) fit(readInt(), Short.MIN_VALUE, Short.MAX_VALUE, "short");
  }

  /** A {@code uint32} that a Java {@code char} holds. */
  public char readChar() {
    return (char) fit(readUint32() & 0xffffffffL, Character.MIN_VALUE, Character.MAX_VALUE, "char");
  }

  /** An {@code int32}. */
  public int readInt() {
    long simple = in.simpleInteger();
    if (simple != JsonLexer.NOT_SIMPLE && simple == (int) simple) {
      return (int) simple;
    }
    return number(numberText("an int32"), quoted(), JsonNumbers::int32);
  }

  /** An {@code int64}: a string, or a number. */
  public long readLong() {
    long simple = in.simpleInteger();
    if (simple != JsonLexer.NOT_SIMPLE) {
      return simple;
    }
    return number(numberText("an int64"), quoted(), JsonNumbers::int64);
  }

  /**
   * A {@code uint32} or {@code fixed32}: a number (or its string) in 0..4294967295, in the 32 bits of an int (above
   * {@link Integer#MAX_VALUE} negative, as protobuf-java holds it).
   */
  public int readUint32() {
    long simple = in.simpleInteger();
    if (simple >= 0 && simple <= 0xffffffffL) {
      return (int) simple;
    }
    return (int) (long) number(numberText("a uint32"), quoted(), JsonNumbers::uint32);
  }

  /** A {@code uint64} or {@code fixed64}: a string (or a number) in 0..18446744073709551615, in a long's 64 bits. */
  public long readUint64() {
    long simple = in.simpleInteger();
    if (simple >= 0) {
      return simple;
    }
    return number(numberText("a uint64"), quoted(), JsonNumbers::uint64);
  }

  /** A {@code float}: a number in its range, or {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}. */
  public float readFloat() {
    String text = numberText("a float");
    try {
      return (float) JsonNumbers.floatingPoint(text, quoted(), "float");
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** A {@code double}: a number in its range, or {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}. */
  public double readDouble() {
    String text = numberText("a double");
    try {
      return JsonNumbers.floatingPoint(text, quoted(), "double");
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** A {@code string}: Unicode text, so a lone surrogate ({@code "\ud800"}) is an error. */
  public String readString() {
    if (in.token() != JsonLexer.STRING) {
      throw error("expected a string, got " + describe());
    }
    String text = in.text();
    return in.escaped() ? stringKey(text) : text; // UTF-8 has no lone surrogate; only an escape makes one
  }

  /** A {@code bytes} value: standard or URL-safe base64, with or without padding. */
  public byte[] readBytes() {
    if (in.token() != JsonLexer.STRING) {
      throw error("expected base64 text, got " + describe());
    }
    String text = in.text();
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException standard) {
      try {
        return Base64.getUrlDecoder().decode(text);
      } catch (IllegalArgumentException urlSafe) {
        throw error("invalid base64 " + JsonNumbers.shown(text, true) + ": " + standard.getMessage());
      }
    }
  }

  /** A {@code google.protobuf.Timestamp}: RFC 3339 text ({@code "1972-01-01T10:00:20.021Z"}). */
  public Instant readTimestamp() {
    String text = text("an RFC 3339 timestamp");
    try {
      return JsonValues.parseTimestamp(text);
    } catch (IllegalArgumentException e) {
      throw error("invalid timestamp " + JsonNumbers.shown(text, true) + ": " + e.getMessage());
    }
  }

  /** A {@code google.protobuf.Duration}: seconds with a suffix {@code s} ({@code "-1.5s"}). */
  public Duration readDuration() {
    String text = text("a duration");
    try {
      return JsonValues.parseDuration(text);
    } catch (IllegalArgumentException e) {
      throw error("invalid duration " + JsonNumbers.shown(text, true) + ": " + e.getMessage());
    }
  }

  /** A value carried as a {@code string}, turned into Java by {@code parse} (a {@code ProtoTypes} function). */
  public <T> T readText(Function<String, T> parse) {
    return textKey(readString(), parse);
  }

  /** The name of an enum value, or the text of its number: to match against the value names. */
  public String enumText() {
    int t = in.token();
    if (t == JsonLexer.STRING || t == JsonLexer.INTEGER || t == JsonLexer.DECIMAL) {
      return in.text();
    }
    throw error("expected an enum value name or number, got " + describe());
  }

  /**
   * The number of an enum value that matched no name of {@code enumName}, or {@code null} when it is no number and
   * unknown fields are ignored (the value is then dropped, as protobuf-java-util's {@code JsonFormat} drops it).
   */
  public Integer enumNumber(String enumName) {
    String text = in.text();
    try {
      return JsonNumbers.int32(text, quoted());
    } catch (IllegalArgumentException notANumber) {
      if (ignoreUnknownFields) {
        return null;
      }
      throw error("unknown value " + JsonNumbers.shown(text, quoted()) + " of enum " + enumName);
    }
  }

  // ------------------------------------------------------------------ map keys

  /** A {@code string} map key. */
  public String stringKey(String key) {
    int bad = JsonValues.loneSurrogate(key);
    if (bad >= 0) {
      throw error("a lone surrogate (\\u" + Integer.toHexString(key.charAt(bad)) + ") is not Unicode text");
    }
    return key;
  }

  /** A {@code bool} map key: {@code "true"} or {@code "false"}. */
  public boolean booleanKey(String key) {
    if (key.equals("true") || key.equals("false")) {
      return key.equals("true");
    }
    throw error("expected a boolean, got " + JsonNumbers.shown(key, true));
  }

  /** An {@code int32} map key that a Java {@code byte} holds. */
  public byte byteKey(String key) {
    return (byte) fit(number(key, true, JsonNumbers::int32), Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
  }

  /** An {@code int32} map key that a Java {@code short} holds. */
  public short shortKey(String key) {
    return (short) fit(number(key, true, JsonNumbers::int32), Short.MIN_VALUE, Short.MAX_VALUE, "short");
  }

  /** A {@code uint32} map key that a Java {@code char} holds. */
  public char charKey(String key) {
    return (char) fit(number(key, true, JsonNumbers::uint32), Character.MIN_VALUE, Character.MAX_VALUE, "char");
  }

  /** An {@code int32} map key. */
  public int intKey(String key) {
    return number(key, true, JsonNumbers::int32);
  }

  /** An {@code int64} map key. */
  public long longKey(String key) {
    return number(key, true, JsonNumbers::int64);
  }

  /** A {@code uint32} or {@code fixed32} map key, in an int's 32 bits. */
  public int uint32Key(String key) {
    return (int) (long) number(key, true, JsonNumbers::uint32);
  }

  /** A {@code uint64} or {@code fixed64} map key, in a long's 64 bits. */
  public long uint64Key(String key) {
    return number(key, true, JsonNumbers::uint64);
  }

  /** A map key carried as a {@code string}, turned into Java by {@code parse} (a {@code ProtoTypes} function). */
  public <T> T textKey(String key, Function<String, T> parse) {
    String text = stringKey(key);
    try {
      return parse.apply(text);
    } catch (ProtoDecodeException | IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  // ------------------------------------------------------------------ errors

  /** An error about the current field: {@code field "a.b[2]": what}. */
  public ProtoJsonException error(String what) {
    String path = path();
    String where = !path.isEmpty() ? "field \"" + path + "\"" : messageName != null ? "message " + messageName
        : "the message";
    return new ProtoJsonException(where + ": " + what);
  }

  /** {@code e}, a document that is not JSON (or nested too deeply), as an error naming the current field. */
  ProtoJsonException malformed(JsonLexer.Malformed e) {
    String what = "malformed JSON at offset " + e.offset + ": " + e.getMessage();
    String path = path();
    return new ProtoJsonException(path.isEmpty() ? what : "field \"" + path + "\": " + what, e);
  }

  /** The path of the current field: names joined by dots, {@code [i]} for list elements, {@code ["k"]} for keys. */
  String path() {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      if (kinds[i] == INDEX && indices[i] >= 0) {
        out.append('[').append(indices[i]).append(']');
      } else if (kinds[i] == KEY && names[i] != null) {
        out.append("[\"").append(JsonNumbers.shorten(names[i])).append("\"]");
      } else if (kinds[i] == FIELD && (names[i] != null || (tables[i] != null && indices[i] >= 0))) {
        out.append(out.length() == 0 ? "" : ".").append(names[i] != null ? names[i] : tables[i].names[indices[i]]);
      }
    }
    return out.toString();
  }

  // ------------------------------------------------------------------ internals

  private void push(byte kind) {
    if (depth == kinds.length) {
      tables = Arrays.copyOf(tables, depth * 2);
      kinds = Arrays.copyOf(kinds, depth * 2);
      names = Arrays.copyOf(names, depth * 2);
      indices = Arrays.copyOf(indices, depth * 2);
    }
    kinds[depth] = kind;
    names[depth] = null;
    tables[depth] = null;
    depth++;
  }

  private void expect(int token, String what) {
    if (in.token() != token) {
      throw error("expected " + what + ", got " + describe());
    }
  }

  /** The text of a number, or of a string holding one (bounded like a number); else an error. */
  private String numberText(String what) {
    int t = in.token();
    if (t == JsonLexer.INTEGER || t == JsonLexer.DECIMAL || t == JsonLexer.STRING) {
      return in.text();
    }
    throw error("expected " + what + ", got " + describe());
  }

  private String text(String what) {
    if (in.token() != JsonLexer.STRING) {
      throw error("expected " + what + ", got " + describe());
    }
    return in.text();
  }

  /** An integer parsed by {@code parse} from the current value's text (or a key), as a field error when it fails. */
  private <T> T number(String text, boolean quoted, NumberParser<T> parse) {
    try {
      return parse.parse(text, quoted);
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** One of {@link JsonNumbers}' parsers. */
  private interface NumberParser<T> {
    T parse(String text, boolean quoted);
  }

  /** {@code value}, or an error when a Java {@code type} from {@code min} to {@code max} does not hold it. */
  private long fit(long value, long min, long max, String type) {
    if (value < min || value > max) {
      throw error(value + " does not fit a Java " + type);
    }
    return value;
  }

  /** What the current token is, for an error: {@code a number}, {@code an object}, {@code null}. */
  private String describe() {
    return switch (in.token()) {
      case JsonLexer.START_OBJECT -> "an object";
      case JsonLexer.START_ARRAY -> "an array";
      case JsonLexer.STRING -> "a string";
      case JsonLexer.INTEGER, JsonLexer.DECIMAL -> "a number";
      case JsonLexer.TRUE, JsonLexer.FALSE -> "a boolean";
      case JsonLexer.NULL -> "null";
      default -> "nothing";
    };
  }


  /** Whether the current value is a string (else a number): how an error shows its text. */
  private boolean quoted() {
    return in.token() == JsonLexer.STRING;
  }
}
