package io.boltgen.json;

import io.boltgen.runtime.codec.protobuf.ProtoDecodeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser.NumberType;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Reads values by the proto3 JSON mapping from jackson-core's streaming parser, for the JSON codecs the processor
 * generates, and keeps the path of the field being read so that every error names it:
 * {@code field "sku.value": expected a string, got a number}.
 *
 * <p>Each {@code readXxx} reads the value at the parser's current token and leaves the parser on the value's last
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
  private final JsonParser in;
  private final boolean ignoreUnknownFields;
  private final String messageName;
  /** The path: one level per object, array or map entered; a level's name, index or key. */
  private byte[] kinds = new byte[8];
  private String[] names = new String[8];
  private int[] indices = new int[8];
  private int depth;

  JsonReader(JsonParser in, boolean ignoreUnknownFields, String messageName) {
    this.in = in;
    this.ignoreUnknownFields = ignoreUnknownFields;
    this.messageName = messageName;
  }

  // ------------------------------------------------------------------ structure

  /**
   * Enters a message's object: the name of its first field, with the parser on that field's value, or
   * {@code null} for an empty object.
   */
  public String beginObject() {
    expect(JsonToken.START_OBJECT, "an object");
    push(FIELD);
    return nextField();
  }

  /** The name of the next field of the object, with the parser on its value, or {@code null} at its end. */
  public String nextField() {
    String name = in.nextName();
    if (name == null) {
      depth--;
      return null;
    }
    names[depth - 1] = name;
    in.nextToken();
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

  /** Enters an array: whether it has a first element, with the parser on it. */
  public boolean beginArray() {
    expect(JsonToken.START_ARRAY, "an array");
    push(INDEX);
    indices[depth - 1] = -1;
    return nextElement();
  }

  /** Whether the array has another element, with the parser on it. */
  public boolean nextElement() {
    if (in.nextToken() == JsonToken.END_ARRAY) {
      depth--;
      return false;
    }
    indices[depth - 1]++;
    return true;
  }

  /** Enters a map's object: its first key, with the parser on the value, or {@code null} when empty. */
  public String beginMap() {
    expect(JsonToken.START_OBJECT, "an object");
    push(KEY);
    return nextKey();
  }

  /** The next key of the map, with the parser on its value, or {@code null} at its end. */
  public String nextKey() {
    return nextField();
  }

  /** Whether the current value is {@code null}: for a field, its default. */
  public boolean isNull() {
    return in.currentToken() == JsonToken.VALUE_NULL;
  }

  // ------------------------------------------------------------------ scalars

  /** A {@code bool}: {@code true}, {@code false}, or those words as strings. */
  public boolean readBoolean() {
    JsonToken t = in.currentToken();
    if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
      return t == JsonToken.VALUE_TRUE;
    }
    if (t == JsonToken.VALUE_STRING) {
      return booleanKey(in.getString());
    }
    throw error("expected a boolean, got " + describe());
  }

  /** An {@code int32} that a Java {@code byte} holds. */
  public byte readByte() {
    return toByte(readInt());
  }

  /** An {@code int32} that a Java {@code short} holds. */
  public short readShort() {
    return toShort(readInt());
  }

  /** A {@code uint32} that a Java {@code char} holds. */
  public char readChar() {
    return toChar(number(numberText("a uint32"), quoted(), JsonNumbers::uint32));
  }

  /** An {@code int32}. */
  public int readInt() {
    if (in.currentToken() == JsonToken.VALUE_NUMBER_INT && in.getNumberType() == NumberType.INT) {
      return in.getIntValue();
    }
    return number(numberText("an int32"), quoted(), JsonNumbers::int32);
  }

  /** An {@code int64}: a string, or a number. */
  public long readLong() {
    if (in.currentToken() == JsonToken.VALUE_NUMBER_INT && in.getNumberType() != NumberType.BIG_INTEGER) {
      return in.getLongValue();
    }
    return number(numberText("an int64"), quoted(), JsonNumbers::int64);
  }

  /**
   * A {@code uint32} or {@code fixed32}: a number (or its string) in 0..4294967295, in the 32 bits of an int (above
   * {@link Integer#MAX_VALUE} negative, as protobuf-java holds it).
   */
  public int readUint32() {
    return (int) (long) number(numberText("a uint32"), quoted(), JsonNumbers::uint32);
  }

  /** A {@code uint64} or {@code fixed64}: a string (or a number) in 0..18446744073709551615, in a long's 64 bits. */
  public long readUint64() {
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
    if (in.currentToken() != JsonToken.VALUE_STRING) {
      throw error("expected a string, got " + describe());
    }
    return stringKey(in.getString());
  }

  /** A {@code bytes} value: standard or URL-safe base64, with or without padding. */
  public byte[] readBytes() {
    if (in.currentToken() != JsonToken.VALUE_STRING) {
      throw error("expected base64 text, got " + describe());
    }
    String text = in.getString();
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
    JsonToken t = in.currentToken();
    if (t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
      return in.getString();
    }
    throw error("expected an enum value name or number, got " + describe());
  }

  /**
   * The number of an enum value that matched no name of {@code enumName}, or {@code null} when it is no number and
   * unknown fields are ignored (the value is then dropped, as protobuf-java-util's {@code JsonFormat} drops it).
   */
  public Integer enumNumber(String enumName) {
    String text = in.getString();
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
    return toByte(number(key, true, JsonNumbers::int32));
  }

  /** An {@code int32} map key that a Java {@code short} holds. */
  public short shortKey(String key) {
    return toShort(number(key, true, JsonNumbers::int32));
  }

  /** A {@code uint32} map key that a Java {@code char} holds. */
  public char charKey(String key) {
    return toChar(number(key, true, JsonNumbers::uint32));
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
    return new ProtoJsonException((path.isEmpty() ? "message " + messageName : "field \"" + path + "\"") + ": "
        + what);
  }

  /** {@code e}, a failure of the parser (not JSON, nested too deeply), as an error naming the current field. */
  ProtoJsonException malformed(JacksonException e) {
    long offset = e.getLocation() != null ? e.getLocation().getByteOffset() : -1;
    String what = "malformed JSON at offset " + offset + ": "
        + e.getOriginalMessage().replaceFirst(", from `[^`]*`\\)", ")");
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
      } else if (kinds[i] == FIELD && names[i] != null) {
        out.append(out.length() == 0 ? "" : ".").append(names[i]);
      }
    }
    return out.toString();
  }

  // ------------------------------------------------------------------ internals

  private void push(byte kind) {
    if (depth == kinds.length) {
      kinds = Arrays.copyOf(kinds, depth * 2);
      names = Arrays.copyOf(names, depth * 2);
      indices = Arrays.copyOf(indices, depth * 2);
    }
    kinds[depth] = kind;
    names[depth] = null;
    depth++;
  }

  private void expect(JsonToken token, String what) {
    if (in.currentToken() != token) {
      throw error("expected " + what + ", got " + describe());
    }
  }

  /** The text of a number, or of a string holding one (bounded like a number); else an error. */
  private String numberText(String what) {
    JsonToken t = in.currentToken();
    if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_STRING) {
      return in.getString();
    }
    throw error("expected " + what + ", got " + describe());
  }

  private String text(String what) {
    if (in.currentToken() != JsonToken.VALUE_STRING) {
      throw error("expected " + what + ", got " + describe());
    }
    return in.getString();
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

  private byte toByte(int value) {
    if (value != (byte) value) {
      throw error(value + " does not fit a Java byte");
    }
    return (byte) value;
  }

  private short toShort(int value) {
    if (value != (short) value) {
      throw error(value + " does not fit a Java short");
    }
    return (short) value;
  }

  private char toChar(long value) {
    if (value != (char) value) {
      throw error(value + " does not fit a Java char");
    }
    return (char) value;
  }

  /** What the current token is, for an error: {@code a number}, {@code an object}, {@code null}. */
  private String describe() {
    JsonToken t = in.currentToken();
    if (t == null) {
      return "nothing";
    }
    switch (t) {
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_STRING:
        return "a string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "a number";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "a boolean";
      case VALUE_NULL:
        return "null";
      default:
        return t.name();
    }
  }

  /** Whether the current value is a string (else a number): how an error shows its text. */
  private boolean quoted() {
    return in.currentToken() == JsonToken.VALUE_STRING;
  }
}
