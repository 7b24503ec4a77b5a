package io.boltgen.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The tokens of one JSON document held whole in a byte array, UTF-8, read by RFC 8259 exactly: no comments, single
 * quotes, unquoted names, trailing commas, leading zeros, {@code +}, {@code NaN} or unescaped control characters; no
 * invalid UTF-8 (an overlong form, a surrogate, past U+10FFFF); a name given twice in one object is refused; nesting
 * is bounded, and so is a number's length, to {@value StrictJson#MAX_NUMBER_LENGTH} characters. Every token is
 * checked as it is passed, also inside a value that is skipped. A failure is a {@link Malformed}: the offset of the
 * byte at fault and what is wrong.
 *
 * <p>{@link #nextValue} reads the next value (an array's next element, or {@code END_ARRAY}), {@link #nextName} an
 * object's next name (or {@code null} at its end), each checking the comma before it; {@link #nextField} finds an
 * object's next name in a message's {@link JsonFields}, making no text for a name the table has. A string's text
 * is made only when asked for.
 *
 * <p>Not thread-safe: one per document.
 */
final class JsonLexer {

  static final int NONE = 0;
  static final int START_OBJECT = 1;
  static final int END_OBJECT = 2;
  static final int START_ARRAY = 3;
  static final int END_ARRAY = 4;
  static final int STRING = 5;
  static final int INTEGER = 6;
  static final int DECIMAL = 7;
  static final int TRUE = 8;
  static final int FALSE = 9;
  static final int NULL = 10;

  /** What {@link #nextField} answers at the end of the object. */
  static final int END = -1;
  /** What {@link #nextField} answers for a name the table does not have: its text is {@link #unknownName}. */
  static final int UNKNOWN = -2;
  /** How an object's names are read when they are read as text, not by a table. */
  private static final JsonFields AS_TEXT = JsonFields.of("(names read as text)");

  /** What {@link #simpleInteger} answers for a text that is not {@code -?[0-9]{1,18}}. */
  static final long NOT_SIMPLE = Long.MIN_VALUE;

  private final byte[] in;
  private final int limit;
  private final int maxDepth;
  private int pos;

  private int token = NONE;
  /** The token's text: a string's between its quotes, a number's whole. */
  private int start;
  private int end;
  private boolean escaped;
  private boolean ascii;

  /** Per open container, whether it is an object. */
  private boolean[] objects = new boolean[8];
  private int depth;
  /** Whether the current container's next member or element is its first (no comma before it). */
  private boolean first;
  /** Whether a name was read and its value is due. */
  private boolean named;
  /** Whether the document's value was begun. */
  private boolean begun;

  /** The names found in the open objects, to find one given twice. */
  private final ObjectNames names = new ObjectNames();
  /**
   * Per open object, how its names are read, fixed by its first: by a table (which one), {@link #AS_TEXT}, or
   * {@code null} before the first.
   */
  private JsonFields[] tables = new JsonFields[8];
  /** The text of the last name {@link #nextField} did not find in its table. */
  private String unknownName;

  /** A lexer of the document in {@code in}'s first {@code length} bytes; a byte order mark before it is passed. */
  JsonLexer(byte[] in, int length, int maxDepth) {
    this.in = in;
    this.limit = length;
    this.maxDepth = maxDepth;
    if (length >= 3 && in[0] == (byte) 0xef && in[1] == (byte) 0xbb && in[2] == (byte) 0xbf) {
      pos = 3; // RFC 8259 section 8.1 lets a parser ignore it
    }
  }

  int token() {
    return token;
  }

  /** How many objects and arrays are open. */
  int depth() {
    return depth;
  }

  // ------------------------------------------------------------------ structure

  /**
   * The next value: at the top, the document's; in an object, the value of the name just read; in an array, its next
   * element, or {@code END_ARRAY}.
   */
  int nextValue() {
    int c = skipSpace();
    if (depth > 0 && objects[depth - 1]) {
      if (!named) {
        throw new IllegalStateException("JSON read out of order: a value of an object is read before its name");
      }
      named = false;
    } else if (depth == 0) {
      if (begun) {
        throw new IllegalStateException("JSON read out of order: a second value of the document is read");
      }
      begun = true;
    } else {
      if (c == ']') {
        pos++;
        pop();
        return is(END_ARRAY);
      }
      if (!first) {
        if (c != ',') {
          throw unexpected(c, "',' or ']' after an array element");
        }
        pos++;
        c = skipSpace();
      }
      first = false;
    }
    return value(c);
  }

  /**
   * The next name of the current object, as text, with the lexer before its value; {@code null} (and END_OBJECT) at
   * the end.
   */
  String nextName() {
    if (!nameBegins(AS_TEXT)) {
      return null;
    }
    scanString();
    String name = text();
    if (!names.add(depth - 1, name)) {
      throw givenTwice(name, start - 1);
    }
    colon();
    return name;
  }

  /**
   * The next name of the current object as its index in {@code fields}, with the lexer before its value: looked
   * for first as {@code expected} where the writer puts it; {@link #END} (and END_OBJECT) at the end, and
   * {@link #UNKNOWN} for a name {@code fields} does not have ({@link #unknownName()} is its text).
   */
  int nextField(JsonFields fields, int expected) {
    int level = depth - 1;
    if (level >= 0 && !named && objects[level] && expected < fields.size()) {
      JsonFields table = tables[level];
      if (table != fields) {
        if (table != null) {
          return nextFieldByText(fields); // says how it was read before
        }
        tables[level] = fields;
      }
      int p = pos;
      if (first || (p < limit && in[p++] == ',')) {
        if (fields.isAt(expected, in, p, limit) && names.add(level, expected, fields.names[expected])) {
          pos = p + fields.quoted[expected].length;
          first = false;
          token = NONE;
          named = true;
          return expected;
        }
      }
    }
    return nextFieldByText(fields);
  }

  /**
   * {@link #nextField} when the name is not the one expected where the writer puts it: read as text and looked up
   * (or the end of the object, or a call out of order).
   */
  private int nextFieldByText(JsonFields fields) {
    if (!nameBegins(fields)) {
      return END;
    }
    scanString();
    String name = text();
    int index = fields.indexOf(name);
    if (index >= 0) {
      found(index, start - 1);
    } else if (!names.add(depth - 1, name)) {
      throw givenTwice(name, start - 1);
    }
    colon();
    if (index < 0) {
      unknownName = name;
      return UNKNOWN;
    }
    return index;
  }

  /** The text of the last name {@link #nextField} did not find in its table. */
  String unknownName() {
    return unknownName;
  }

  /** Passes the current value: a whole object or array when at its start, checking all of it. */
  void skipChildren() {
    if (token != START_OBJECT && token != START_ARRAY) {
      return;
    }
    int outside = depth - 1;
    while (depth > outside) {
      if (objects[depth - 1]) {
        if (nextName() != null) {
          nextValue();
        }
      } else {
        nextValue();
      }
    }
  }

  /** Whether only whitespace is left. */
  boolean atEnd() {
    return skipSpace() < 0;
  }

  /** The offset of the next byte that is not whitespace. */
  int offset() {
    skipSpace();
    return pos;
  }

  // ------------------------------------------------------------------ values

  /** The text of the current string (or of the name just read), or of the current number. */
  String text() {
    if (escaped) {
      return JsonStrings.unescape(in, start, end);
    }
    return new String(in, start, end - start, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
  }

  /** Whether the current string has escapes (only an escape can spell a lone surrogate). */
  boolean escaped() {
    return token == STRING && escaped;
  }

  /** The integer that the current string's or integer's text spells as {@code -?[0-9]{1,18}}, else NOT_SIMPLE. */
  long simpleInteger() {
    if (token != INTEGER && (token != STRING || escaped)) {
      return NOT_SIMPLE;
    }
    return JsonNumbers.simple(in, start, end);
  }

  // ------------------------------------------------------------------ internals

  private int value(int c) {
    switch (c) {
      case '{':
        start = pos++;
        push(true);
        return is(START_OBJECT);
      case '[':
        start = pos++;
        push(false);
        return is(START_ARRAY);
      case '"':
        pos++;
        scanString();
        return is(STRING);
      case 't':
        return literal("true", TRUE);
      case 'f':
        return literal("false", FALSE);
      case 'n':
        return literal("null", NULL);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          int after = JsonNumbers.scan(in, pos, limit);
          start = pos;
          end = after < 0 ? ~after : after;
          ascii = true;
          escaped = false;
          pos = end;
          return is(after < 0 ? DECIMAL : INTEGER);
        }
        throw unexpected(c, "a value");
    }
  }

  /** Makes {@code kind} the current token. */
  private int is(int kind) {
    token = kind;
    return kind;
  }

  private void push(boolean object) {
    if (depth == maxDepth) {
      throw new Malformed(pos - 1, "nesting depth (" + (depth + 1) + ") exceeds the maximum allowed (" + maxDepth
          + ")");
    }
    if (depth == objects.length) {
      objects = Arrays.copyOf(objects, depth * 2);
      tables = Arrays.copyOf(tables, depth * 2);
    }
    objects[depth] = object;
    tables[depth] = null;
    names.open(depth);
    depth++;
    first = true;
  }

  private void pop() {
    depth--;
    names.close(depth);
    first = false;
  }

  /**
   * Checks that a name may come, and that the object's names are read as {@code how} (a table, or AS_TEXT) as its
   * first was; passes the comma and the opening quote: whether a name begins, or the object ends.
   */
  private boolean nameBegins(JsonFields how) {
    checkNameDue();
    JsonFields was = tables[depth - 1];
    if (was != how) {
      if (was != null) {
        throw new IllegalStateException("JSON read out of order: the names of one object are read "
            + (was == AS_TEXT ? "as text, then by " + how : "by " + was + ", then " + (how == AS_TEXT ? "as text"
            : "by " + how)));
      }
      tables[depth - 1] = how;
    }
    int c = skipSpace();
    if (c == '}') {
      pos++;
      pop();
      token = END_OBJECT;
      return false;
    }
    if (!first) {
      if (c != ',') {
        throw unexpected(c, "',' or '}' after an object member");
      }
      pos++;
      c = skipSpace();
    }
    if (c != '"') {
      throw unexpected(c, first ? "a name in quotes or '}'" : "a name in quotes");
    }
    pos++;
    first = false;
    return true;
  }

  private void checkNameDue() {
    if (depth == 0 || !objects[depth - 1] || named) {
      throw new IllegalStateException("JSON read out of order: a name is read "
          + (named ? "before the value of the name before it" : "outside an object"));
    }
  }

  /** Passes the colon after a name: its value is due. */
  private void colon() {
    int c = skipSpace();
    if (c != ':') {
      throw unexpected(c, "':' after a name");
    }
    pos++;
    token = NONE;
    named = true;
  }

  /** Index {@code index} of the object's table is found, its name at {@code at}: an error if found before. */
  private void found(int index, int at) {
    JsonFields fields = tables[depth - 1];
    if (!names.add(depth - 1, index, fields.names[index])) {
      throw givenTwice(fields.names[index], at);
    }
  }

  private static Malformed givenTwice(String name, int at) {
    return new Malformed(at, "the name " + JsonNumbers.shown(name, true) + " is given twice in one object");
  }

  /** Scans a string whose opening quote was passed, checking escapes and UTF-8; leaves pos after its closing quote. */
  private void scanString() {
    int p = JsonStrings.plainRun(in, pos, limit);
    start = pos;
    if (p < limit && in[p] == '"') {
      end = p;
      escaped = false;
      ascii = true;
      pos = p + 1;
      return;
    }
    scanRest(p);
  }

  /** The rest of a string from {@code p}, past the plain ASCII run. */
  private void scanRest(int p) {
    boolean anyEscape = false;
    boolean onlyAscii = true;
    while (true) {
      if (p >= limit) {
        throw new Malformed(p, "the text ends inside a string");
      }
      byte c = in[p];
      if (c == '"') {
        break;
      }
      if (c >= 0x20 && c != '\\') {
        p++;
      } else if (c == '\\') {
        p = JsonStrings.escape(in, p, limit);
        anyEscape = true;
      } else if (c < 0) {
        p = JsonStrings.utf8(in, p, limit);
        onlyAscii = false;
      } else {
        throw new Malformed(p, "a control character (0x" + Integer.toHexString(c) + ") in a string must be escaped");
      }
    }
    end = p;
    escaped = anyEscape;
    ascii = onlyAscii;
    pos = p + 1;
  }

  private int literal(String word, int kind) {
    int p = pos;
    for (int i = 0; i < word.length(); i++, p++) {
      if (p >= limit || in[p] != word.charAt(i)) {
        throw new Malformed(pos, "an unknown word: expected a value");
      }
    }
    if (p < limit && !isDelimiter(in[p])) {
      throw new Malformed(pos, "an unknown word: expected a value");
    }
    start = pos;
    end = p;
    escaped = false;
    ascii = true;
    pos = p;
    return is(kind);
  }

  /** The next byte that is not whitespace (pos on it), 0 to 255, or -1 at the end. */
  private int skipSpace() {
    int p = pos;
    while (p < limit) {
      byte c = in[p];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        pos = p;
        return c & 0xff;
      }
      p++;
    }
    pos = p;
    return -1;
  }

  private Malformed unexpected(int c, String expected) {
    return c < 0 && pos >= limit ? new Malformed(pos, "the text ends: expected " + expected)
        : unexpectedAt(pos, expected);
  }

  private Malformed unexpectedAt(int p, String expected) {
    return unexpectedAt(in, p, expected);
  }

  /** {@code in[p]} where {@code expected} was. */
  static Malformed unexpectedAt(byte[] in, int p, String expected) {
    return new Malformed(p, "unexpected character " + shown(in[p]) + ": expected " + expected);
  }

  /** A byte for an error: the character, or its hex code. */
  static String shown(byte b) {
    return b >= 0x21 && b < 0x7f ? "'" + (char) b + "'" : "0x" + Integer.toHexString(b & 0xff);
  }

  /** Whether {@code c} may follow a number or a literal. */
  static boolean isDelimiter(byte c) {
    return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
  }

  /** A document that breaks the rules: the offset of the byte at fault, and what is wrong. */
  static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int offset;

    Malformed(int offset, String what) {
      super(what, null, false, false);
      this.offset = offset;
    }
  }
}
