package io.boltgen.json;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes one JSON document as UTF-8, for the JSON codecs the processor generates (and a hand-written
 * {@link JsonMarshaller}); {@link ProtoJson} makes one per document. Strings escape {@code "}, {@code \} and the
 * control characters ({@code \n}, {@code \r}, {@code \t}, {@code \b}, {@code \f}, else {@code \}{@code u00XX}) and
 * nothing else; a lone surrogate, which is no Unicode text, is written as {@code ?}, as the protobuf encoder (and
 * protobuf-java) write it. Numbers are written as {@link Long#toString} and {@link Double#toString} write them.
 *
 * <p>The structure is checked as it is written: a member of an object is a name, then a value; a document is one
 * value. A call out of that order is an {@link IllegalStateException}, so that a marshaller cannot write broken JSON.
 *
 * <p>Not thread-safe: one per document.
 */
public final class JsonWriter {

  /** The most bytes one step writes outside a string: a quoted long, or a double's text and its comma. */
  private static final int STEP = 32;
  /** The most chars of a string encoded at once. */
  private static final int CHUNK = 256;
  /**
   * The shortest string the JDK encodes into an array of its own, copied whole when nothing in it needs an escape:
   * faster from about this length than a loop over its chars.
   */
  private static final int ENCODED_WHOLE = 16;
  /** Per ASCII character, the letter of its short escape, 'u' for {@code \}{@code u00XX}, or 0 for none. */
  private static final byte[] ESCAPES = new byte[128];
  private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};

  static {
    Arrays.fill(ESCAPES, 0, 0x20, (byte) 'u');
    ESCAPES['"'] = '"';
    ESCAPES['\\'] = '\\';
    ESCAPES['\b'] = 'b';
    ESCAPES['\f'] = 'f';
    ESCAPES['\n'] = 'n';
    ESCAPES['\r'] = 'r';
    ESCAPES['\t'] = 't';
  }

  private final OutputStream out;
  private final byte[] buf;
  /** A long string's chars, a chunk at a time: read so, they cost no check per char. */
  private char[] chars;
  private int pos;

  /** Per open container, whether it is an object. */
  private boolean[] objects = new boolean[16];
  private int depth;
  /** Whether the current container has a member or element already: the next one needs a comma. */
  private boolean comma;
  /** Whether a name was written and its value is due. */
  private boolean named;
  /** Whether the document's value was begun. */
  private boolean begun;

  /** A writer to {@code out} through {@code buffer} (at least 256 bytes), which it fills and flushes. */
  JsonWriter(OutputStream out, byte[] buffer) {
    if (buffer.length < 8 * STEP) {
      throw new IllegalArgumentException("a buffer of " + buffer.length + " bytes is too small");
    }
    this.out = out;
    this.buf = buffer;
  }

  // ------------------------------------------------------------------ structure

  /** Begins an object, as a value. */
  public void writeStartObject() {
    value();
    push(true);
    buf[pos++] = '{';
  }

  /** Ends the current object. */
  public void writeEndObject() {
    if (depth == 0 || !objects[depth - 1] || named) {
      throw misplaced("the end of an object");
    }
    pop();
    buf[pos++] = '}';
  }

  /** Begins an array, as a value. */
  public void writeStartArray() {
    value();
    push(false);
    buf[pos++] = '[';
  }

  /** Ends the current array. */
  public void writeEndArray() {
    if (depth == 0 || objects[depth - 1]) {
      throw misplaced("the end of an array");
    }
    pop();
    buf[pos++] = ']';
  }

  /** The name of the current object's next member, whose value is written next. */
  public void writeName(String name) {
    beforeName();
    quote(name);
    buf[pos++] = ':';
  }

  /**
   * The name at {@code index} of {@code fields} (a generated codec's table of a message's field names), whose value
   * is written next: its bytes copied as they are.
   */
  public void writeName(JsonFields fields, int index) {
    byte[] bytes = fields.quoted[index];
    if (bytes.length + 2 * STEP > buf.length) { // longer than the buffer takes whole: in pieces, as text
      writeName(fields.names[index]);
      return;
    }
    beforeName();
    ensure(bytes.length + STEP);
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  private void beforeName() {
    if (depth == 0 || !objects[depth - 1] || named) {
      throw misplaced("a name");
    }
    ensure(STEP);
    if (comma) {
      buf[pos++] = ',';
    }
    comma = true;
    named = true;
  }

  // ------------------------------------------------------------------ values

  /** A string. */
  public void writeString(String value) {
    value();
    quote(value);
  }

  /** A number. */
  public void writeNumber(int value) {
    value();
    digits((long) value);
  }

  /** A number. */
  public void writeNumber(long value) {
    value();
    digits(value);
  }

  /**
   * A number, as {@link Float#toString} writes it.
   *
   * @throws IllegalArgumentException for NaN and the infinities, which JSON has no number for
   */
  public void writeNumber(float value) {
    if (!Float.isFinite(value)) {
      throw new IllegalArgumentException(value + " is no JSON number");
    }
    value();
    ascii(Float.toString(value));
  }

  /**
   * A number, as {@link Double#toString} writes it.
   *
   * @throws IllegalArgumentException for NaN and the infinities, which JSON has no number for
   */
  public void writeNumber(double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(value + " is no JSON number");
    }
    value();
    ascii(Double.toString(value));
  }

  /** {@code true} or {@code false}. */
  public void writeBoolean(boolean value) {
    value();
    ascii(value ? "true" : "false");
  }

  /** {@code null}. */
  public void writeNull() {
    value();
    ascii("null");
  }

  /** An integer's decimal text as a string (an {@code int64}'s JSON form), without making the text first. */
  void writeQuoted(long value) {
    value();
    buf[pos++] = '"';
    digits(value);
    buf[pos++] = '"';
  }

  /** Writes what is buffered to the stream; the document must be complete. */
  void finish() {
    if (!begun || depth > 0) {
      throw new IllegalStateException(begun ? "the document ends inside " + (objects[depth - 1] ? "an object"
          : "an array") : "the document has no value");
    }
    flush();
  }

  // ------------------------------------------------------------------ internals

  /** Before a value: its place is checked and its comma written; room for one step is made. */
  private void value() {
    ensure(STEP);
    if (depth == 0) {
      if (begun) {
        throw misplaced("a second value of the document");
      }
      begun = true;
    } else if (objects[depth - 1]) {
      if (!named) {
        throw misplaced("a value without a name");
      }
      named = false;
    } else {
      if (comma) {
        buf[pos++] = ',';
      }
      comma = true;
    }
  }

  private void push(boolean object) {
    if (depth == objects.length) {
      objects = Arrays.copyOf(objects, depth * 2);
    }
    objects[depth++] = object;
    comma = false;
  }

  private void pop() {
    depth--;
    comma = true;
    ensure(STEP);
  }

  private IllegalStateException misplaced(String what) {
    return new IllegalStateException("JSON out of order: " + what + " cannot come here"
        + (depth == 0 ? " (at the top)" : objects[depth - 1] ? (named ? " (a value is due)" : " (a name is due)")
        : " (in an array)"));
  }

  /** {@code text} (ASCII, at most one step long). */
  private void ascii(String text) {
    for (int i = 0; i < text.length(); i++) {
      buf[pos++] = (byte) text.charAt(i);
    }
  }

  private void digits(long value) {
    if (value == Long.MIN_VALUE) {
      ascii("-9223372036854775808");
      return;
    }
    if (value < 0) {
      buf[pos++] = '-';
      value = -value;
    }
    if (value > Integer.MAX_VALUE) { // the digits above the last nine, then those: most numbers take int arithmetic
      long high = value / 1_000_000_000L;
      digits(high);
      fill((int) (value - high * 1_000_000_000L), 9);
      return;
    }
    int length = 1;
    for (int v = (int) value; v >= 10; v /= 10) {
      length++;
    }
    fill((int) value, length);
  }

  /** The last {@code length} decimal digits of {@code value} (not negative), with leading zeros. */
  private void fill(int value, int length) {
    int p = pos + length;
    pos = p;
    for (int i = 0; i < length; i++) {
      buf[--p] = (byte) ('0' + value % 10);
      value /= 10;
    }
  }

  /** {@code text} in quotes, escaped (a step is free when it is called). */
  private void quote(String text) {
    int length = text.length();
    if (length >= ENCODED_WHOLE && 3 * length + 2 * STEP <= buf.length) {
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8); // a lone surrogate as '?', as written below
      int n = utf8.length;
      if (!JsonStrings.needsEscape(utf8, n)) {
        ensure(n + STEP);
        buf[pos++] = '"';
        System.arraycopy(utf8, 0, buf, pos, n);
        pos += n;
        buf[pos++] = '"';
        return;
      }
    } else if (length + 2 * STEP <= buf.length) {
      ensure(length + STEP);
      byte[] b = buf;
      int p = pos;
      b[p++] = '"';
      int i = 0;
      for (; i < length; i++) { // plain ASCII, the common case, a byte per char
        char c = text.charAt(i);
        if (c >= 0x80 || ESCAPES[c] != 0) {
          break;
        }
        b[p++] = (byte) c;
      }
      if (i == length) {
        b[p++] = '"';
        pos = p;
        return;
      }
    }
    quoteInPieces(text);
  }

  /** {@code text} in quotes, escaped, in pieces that fit the buffer (a step is free when it is called). */
  private void quoteInPieces(String text) {
    buf[pos++] = '"';
    int length = text.length();
    if (chars == null || chars.length < Math.min(CHUNK, length)) {
      chars = new char[Math.min(CHUNK, length)];
    }
    int i = 0;
    while (i < length) {
      if (buf.length - pos < 2 * STEP) {
        flush();
      }
      int stop = Math.min(length, i + Math.min(chars.length, (buf.length - pos - STEP) / 6)); // 6: a char's most
      text.getChars(i, stop, chars, 0);
      int from = i;
      byte[] b = buf;
      int p = pos;
      for (; i < stop; i++) {
        char c = chars[i - from];
        if (c < 0x80) {
          byte escape = ESCAPES[c];
          if (escape == 0) {
            b[p++] = (byte) c;
          } else if (escape != 'u') {
            b[p++] = '\\';
            b[p++] = escape;
          } else {
            b[p++] = '\\';
            b[p++] = 'u';
            b[p++] = '0';
            b[p++] = '0';
            b[p++] = HEX[c >> 4];
            b[p++] = HEX[c & 0xf];
          }
        } else if (c < 0x800) {
          b[p++] = (byte) (0xc0 | c >> 6);
          b[p++] = (byte) (0x80 | (c & 0x3f));
        } else if (!Character.isSurrogate(c)) {
          b[p++] = (byte) (0xe0 | c >> 12);
          b[p++] = (byte) (0x80 | (c >> 6 & 0x3f));
          b[p++] = (byte) (0x80 | (c & 0x3f));
        } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, text.charAt(++i)); // the pair may straddle the chunk: read from the text
          b[p++] = (byte) (0xf0 | cp >> 18);
          b[p++] = (byte) (0x80 | (cp >> 12 & 0x3f));
          b[p++] = (byte) (0x80 | (cp >> 6 & 0x3f));
          b[p++] = (byte) (0x80 | (cp & 0x3f));
        } else {
          b[p++] = '?';
        }
      }
      pos = p;
    }
    ensure(STEP);
    buf[pos++] = '"';
  }

  private void ensure(int room) {
    if (buf.length - pos < room) {
      flush();
    }
  }

  private void flush() {
    if (pos == 0) {
      return;
    }
    try {
      out.write(buf, 0, pos);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    pos = 0;
  }
}
