package io.boltgen.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The lexer under the generated JSON codecs against jackson-core's parser with the same strict rules
 * ({@link StrictJson#factory}): seeded random documents, and the same with bytes broken, are accepted or refused
 * alike, and read alike; then the exact refusals, at their offsets.
 */
class JsonLexerTest {

  private static final int DEPTH = 6;
  private static final JsonFields AB = JsonFields.of("test.Misuse", "a", "b");
  private static final JsonFactory JACKSON = StrictJson.factory(DEPTH);
  /** Bytes that break documents in interesting ways. */
  private static final byte[] BREAKERS = {'"', '\\', ',', ':', '{', '}', '[', ']', '0', '1', '-', '+', '.', 'e', 'E',
      'u', 't', 'n', ' ', '\n', 0, 0x1f, 0x7f, (byte) 0x80, (byte) 0xbf, (byte) 0xc0, (byte) 0xc3, (byte) 0xe0,
      (byte) 0xed, (byte) 0xf0, (byte) 0xf4, (byte) 0xf5, (byte) 0xff};

  @Test
  void randomDocumentsAndTheirBreakagesAreReadAsJacksonReadsThem() throws Exception {
    Random random = new Random(20261207);
    int accepted = 0;
    int refused = 0;
    for (int i = 0; i < 50_000; i++) {
      byte[] doc = document(random);
      if (i % 2 == 1) {
        doc = broken(doc, random);
      }
      Object expected = jackson(doc);
      Object actual;
      try {
        actual = lexer(doc);
      } catch (JsonLexer.Malformed e) {
        actual = e;
      }
      String shown = new String(doc, StandardCharsets.ISO_8859_1);
      if (expected instanceof Refused) {
        assertThat(actual).as(shown).isInstanceOf(JsonLexer.Malformed.class);
        refused++;
      } else if (actual instanceof JsonLexer.Malformed m && m.getMessage().startsWith("invalid UTF-8")) {
        // stricter than Jackson, which passes an overlong form or an encoded surrogate inside a string
        assertThat(strictUtf8(doc)).as(shown).isFalse();
        refused++;
      } else if (actual instanceof JsonLexer.Malformed m && m.getMessage().startsWith("unexpected character 0x0:")) {
        // stricter than Jackson, which takes a NUL byte right after a number at the end as the end
        assertThat(doc[m.offset]).as(shown).isZero();
        assertThat(m.offset).as(shown).isGreaterThanOrEqualTo(doc.length - 1);
        refused++;
      } else {
        assertThat(actual).as(shown).isEqualTo(expected);
        accepted++;
      }
    }
    assertThat(accepted).isGreaterThan(12_000);
    assertThat(refused).isGreaterThan(8_000);
  }

  @Test
  void guessedNamesAreCheckedEveryTime() {
    // the same names in other orders, lengths and spellings: each guess from the document before is wrong
    String[] docs = {
      "{\"alpha\":1,\"beta\":{\"gamma\":2},\"delta\":[{\"eps\":3}]}",
      "{\"beta\":{\"eps\":2},\"alpha\":1,\"delta\":[{\"gamma\":3},{\"gamma\":4}]}",
      "{\"alph\":1,\"betax\":{\"gamm\":2},\"delta\":[{\"eps\\u0031\":3}]}",
      "{\"alpha\":1,\"beta\":{\"gamma\":2},\"delta\":[{\"eps\":3}]}",
      "{\"alpha\":1,\"alpha\":2}",
    };
    for (int round = 0; round < 3; round++) {
      for (String doc : docs) {
        byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
        Object expected = jackson(bytes);
        if (expected instanceof Refused) {
          assertThatThrownBy(() -> lexer(bytes)).isInstanceOf(JsonLexer.Malformed.class);
        } else {
          assertThat(lexer(bytes)).as(doc).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void documentsReadOnManyThreadsAtOnceShareTheNameCacheSafely() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long seed = t;
        runs.add(pool.submit(() -> {
          Random random = new Random(seed);
          int read = 0;
          for (int i = 0; i < 3_000; i++) {
            byte[] doc = document(random);
            Object expected = jackson(doc);
            if (!(expected instanceof Refused)) {
              assertThat(lexer(doc)).isEqualTo(expected);
              read++;
            }
          }
          return read;
        }));
      }
      for (Future<Integer> run : runs) {
        assertThat(run.get(60, TimeUnit.SECONDS)).isGreaterThan(2_000);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void eachRefusalSaysWhatAndWhere() {
    refused("{\"a\":1,}", 7, "unexpected character '}': expected a name in quotes");
    refused("[1,]", 3, "unexpected character ']': expected a value");
    refused("[1 2]", 3, "unexpected character '2': expected ',' or ']' after an array element");
    refused("{\"a\" 1}", 5, "unexpected character '1': expected ':' after a name");
    refused("{\"a\":1 \"b\":2}", 7, "unexpected character '\"': expected ',' or '}' after an object member");
    refused("{'a':1}", 1, "unexpected character ''': expected a name in quotes or '}'");
    refused("[01]", 1, "a number with a leading zero");
    refused("[-]", 2, "unexpected character ']': expected a digit after '-'");
    refused("[1.]", 3, "unexpected character ']': expected a digit after '.'");
    refused("[1e+]", 4, "unexpected character ']': expected a digit in the exponent");
    refused("[+1]", 1, "unexpected character '+': expected a value");
    refused("[1x]", 2, "unexpected character 'x': expected a delimiter after a number");
    refused("[NaN]", 1, "unexpected character 'N': expected a value");
    refused("[nul]", 1, "an unknown word: expected a value");
    refused("[truex]", 1, "an unknown word: expected a value");
    refused("{\"a\":1,\"a\":2}", 7, "the name \"a\" is given twice in one object");
    refused("{\"ab\":1,\"a\\u0062\":2}", 8, "the name \"ab\" is given twice in one object");
    refused("[[[[[[[1]]]]]]]", 6, "nesting depth (7) exceeds the maximum allowed (6)");
    refused("[\"a\u0001\"]", 3, "a control character (0x1) in a string must be escaped");
    refused("[\"a\\x\"]", 3, "unknown escape 'x'");
    refused("[\"a\\u12g4\"]", 3, "a \\u escape needs four hex digits");
    refused("[\"abc", 5, "the text ends inside a string");
    refused("[1,", 3, "the text ends: expected a value");
    refused("[1", 2, "the text ends: expected ',' or ']' after an array element");
    refused("[" + "1".repeat(StrictJson.MAX_NUMBER_LENGTH + 1) + "]", 1,
        "number length (1001) exceeds the maximum allowed (1000)");
    refusedBytes(new byte[] {'[', '"', (byte) 0xc0, (byte) 0x80, '"', ']'}, 2,
        "invalid UTF-8: the byte 0xc0 starts no character");
    refusedBytes(new byte[] {'[', '"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"', ']'}, 2,
        "invalid UTF-8: a broken sequence after the byte 0xed");
    refusedBytes(new byte[] {'[', '"', (byte) 0xe2, (byte) 0x82, '"', ']'}, 2,
        "invalid UTF-8: a broken sequence after the byte 0xe2");
  }

  @Test
  void aMarshallerThatReadsOutOfOrderIsStopped() {
    JsonMarshaller<String> early = marshaller(r -> {
      r.beginObject(AB);
      return r.readString();
    });
    assertThatThrownBy(() -> read(early, "{\"a\":\"x\",\"b\":1}")).isInstanceOf(IllegalStateException.class)
        .hasMessageEndingWith("returned inside an object or array of the document");
    assertThatThrownBy(() -> read(early, "{\"a\":\"x\"")).isInstanceOf(IllegalStateException.class);
    JsonMarshaller<String> elementInObject = marshaller(r -> {
      r.beginObject(AB);
      r.nextElement();
      return "";
    });
    assertThatThrownBy(() -> read(elementInObject, "{\"a\":1 2}")).isInstanceOf(IllegalStateException.class)
        .hasMessage("JSON read out of order: a value of an object is read before its name");
    JsonMarshaller<String> fieldInArray = marshaller(r -> {
      r.beginArray();
      return String.valueOf(r.nextField(AB));
    });
    assertThatThrownBy(() -> read(fieldInArray, "[1]")).isInstanceOf(IllegalStateException.class)
        .hasMessage("JSON read out of order: a name is read outside an object");
    JsonMarshaller<String> secondValue = marshaller(r -> {
      r.nextElement();
      return "";
    });
    assertThatThrownBy(() -> read(secondValue, "1 2")).isInstanceOf(IllegalStateException.class)
        .hasMessage("JSON read out of order: a second value of the document is read");
    JsonMarshaller<String> fieldAtTop = marshaller(r -> String.valueOf(r.nextField(AB)));
    assertThatThrownBy(() -> read(fieldAtTop, "1")).isInstanceOf(IllegalStateException.class)
        .hasMessage("JSON read out of order: a name is read outside an object");
  }

  @Test
  void aByteOrderMarkBeforeTheDocumentIsPassedAndNowhereElse() {
    byte[] marked = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '[', '1', ']'};
    assertThat(lexer(marked)).isEqualTo(List.of(new Num("1")));
    refusedBytes(new byte[] {' ', (byte) 0xef, (byte) 0xbb, (byte) 0xbf, '1'}, 1,
        "unexpected character 0xef: expected a value");
    refusedBytes(new byte[] {0, '[', 0, ']'}, 0, "unexpected character 0x0: expected a value"); // UTF-16
  }

  @Test
  void aTableFindsItsNamesInEveryOrderAndSpellingAndAnswersOthersAsUnknown() {
    // lengths 1 to 20: compared in one word, two, or byte by byte; the last name ends the document's bytes
    List<String> names = new ArrayList<>();
    for (int length = 1; length <= 20; length++) {
      names.add("abcdefghijklmnopqrst".substring(0, length));
    }
    JsonFields fields = JsonFields.of("test.Lengths", names.toArray(String[]::new));
    StringBuilder inOrder = new StringBuilder("{");
    for (String name : names) {
      inOrder.append(inOrder.length() > 1 ? "," : "").append('"').append(name).append("\":1");
    }
    List<Object> all = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      all.add(i);
    }
    assertThat(indices(fields, inOrder + "}")).isEqualTo(all);
    assertThat(indices(fields, "{\"abc\":1,\"a\":2,\"abcdefghijklmnopqrst\":3}")).isEqualTo(List.of(2, 0, 19));
    assertThat(indices(fields, "{ \"ab\" :1 , \"abc\"\n:2}")).isEqualTo(List.of(1, 2));
    assertThat(indices(fields, "{\"\\u0061b\":1,\"abc\":2}")).as("escaped").isEqualTo(List.of(1, 2));
    assertThat(indices(fields, "{\"abd\":1,\"ab\":2,\"abcdefghx\":3,\"abcd\":4,\"x\":5}"))
        .isEqualTo(List.of("abd", 1, "abcdefghx", 3, "x"));
    assertThat(indices(fields, "{}")).isEqualTo(List.of());
    assertThat(indices(fields, "{\"a\":{\"a\":1},\"ab\":[]}")).as("a nested object by text")
        .isEqualTo(List.of(0, 1));
  }

  @Test
  void aNameOfATableGivenTwiceIsRefusedWhereverItIsFound() {
    JsonFields fields = JsonFields.of("test.Twice", "id", "name");
    refusedIndices(fields, "{\"id\":1,\"id\":2}", 8, "the name \"id\" is given twice in one object");
    refusedIndices(fields, "{\"name\":1,\"id\":2,\"name\":3}", 17,
        "the name \"name\" is given twice in one object");
    refusedIndices(fields, "{\"id\":1, \"\\u0069d\":2}", 9, "the name \"id\" is given twice in one object");
    refusedIndices(fields, "{\"x\":1,\"x\":2}", 7, "the name \"x\" is given twice in one object");
    assertThat(indices(fields, "{\"id\":{\"id\":1},\"name\":{\"id\":1,\"name\":2}}")).isEqualTo(List.of(0, 1));
    // past the 64 kept as bits, names given twice are found by their text
    String[] many = new String[70];
    for (int i = 0; i < many.length; i++) {
      many[i] = "f" + i;
    }
    JsonFields wide = JsonFields.of("test.Wide", many);
    assertThat(indices(wide, "{\"f69\":1,\"f0\":2,\"f68\":3}")).isEqualTo(List.of(69, 0, 68));
    refusedIndices(wide, "{\"f69\":1,\"f68\":2,\"f69\":3}", 17, "the name \"f69\" is given twice in one object");
  }

  @Test
  void oneObjectsNamesAreReadOneWay() {
    JsonFields fields = JsonFields.of("test.Ways", "a", "b");
    JsonFields other = JsonFields.of("test.Other", "a", "b");
    byte[] doc = "{\"a\":1,\"b\":2}".getBytes(StandardCharsets.UTF_8);
    JsonLexer byTable = new JsonLexer(doc, doc.length, DEPTH);
    byTable.nextValue();
    assertThat(byTable.nextField(fields, 0)).isZero();
    byTable.nextValue();
    assertThatThrownBy(byTable::nextName).isInstanceOf(IllegalStateException.class)
        .hasMessage("JSON read out of order: the names of one object are read by " + fields + ", then as text");
    JsonLexer byText = new JsonLexer(doc, doc.length, DEPTH);
    byText.nextValue();
    assertThat(byText.nextName()).isEqualTo("a");
    byText.nextValue();
    assertThatThrownBy(() -> byText.nextField(fields, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessage("JSON read out of order: the names of one object are read as text, then by " + fields);
    JsonLexer twoTables = new JsonLexer(doc, doc.length, DEPTH);
    twoTables.nextValue();
    assertThat(twoTables.nextField(fields, 0)).isZero();
    twoTables.nextValue();
    assertThatThrownBy(() -> twoTables.nextField(other, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessage("JSON read out of order: the names of one object are read by " + fields + ", then by " + other);
  }

  @Test
  void aTableTakesOnlyNamesItCanWriteAsTheyAre() {
    for (String bad : new String[] {"", "with space", "quo\"te", "back\\slash", "tab\t", "é"}) {
      assertThatThrownBy(() -> JsonFields.of("test.Bad", "ok", bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("of test.Bad");
    }
    assertThatThrownBy(() -> JsonFields.of("test.Bad", "ok", "ok")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("field name \"ok\" of test.Bad is given twice");
  }

  @Test
  void aNumberOfTheLongestLengthIsTaken() {
    String longest = "1".repeat(StrictJson.MAX_NUMBER_LENGTH);
    assertThat(lexer(("[" + longest + "]").getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo(List.of(new Num(longest)));
  }

  @Test
  void simpleIntegersAreReadWithoutText() {
    assertThat(simple("[123456789012345678]")).isEqualTo(123_456_789_012_345_678L);
    assertThat(simple("[-123456789012345678]")).isEqualTo(-123_456_789_012_345_678L);
    assertThat(simple("[\"0042\"]")).isEqualTo(42);
    assertThat(simple("[\"-0\"]")).isZero();
    for (String other : new String[] {"[1234567890123456789]", "[1.0]", "[1e2]", "[\"+1\"]", "[\"1 \"]", "[\"\"]",
        "[\"-\"]", "[\"\\u0031\"]", "[true]"}) {
      assertThat(simple(other)).as(other).isEqualTo(JsonLexer.NOT_SIMPLE);
    }
  }

  // ------------------------------------------------------------------ helpers

  private static JsonMarshaller<String> marshaller(java.util.function.Function<JsonReader, String> reader) {
    return JsonMarshaller.of("test.Misuse", (value, out) -> out.writeNull(), reader);
  }

  private static String read(JsonMarshaller<String> marshaller, String doc) {
    return ProtoJson.read(marshaller, new java.io.ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)), false);
  }

  /** The members of the document's object by {@code fields}: each an index, or the text of a name it lacks. */
  private static List<Object> indices(JsonFields fields, String doc) {
    byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
    JsonLexer lexer = new JsonLexer(bytes, bytes.length, DEPTH);
    lexer.nextValue();
    List<Object> found = new ArrayList<>();
    int last = -1;
    for (int index = lexer.nextField(fields, 0); index != JsonLexer.END; index = lexer.nextField(fields, last + 1)) {
      found.add(index == JsonLexer.UNKNOWN ? lexer.unknownName() : (Object) index);
      last = Math.max(index, -1);
      lexer.nextValue();
      lexer.skipChildren();
    }
    assertThat(lexer.atEnd()).isTrue();
    return found;
  }

  private static void refusedIndices(JsonFields fields, String doc, int offset, String what) {
    assertThatThrownBy(() -> indices(fields, doc)).isInstanceOfSatisfying(JsonLexer.Malformed.class, e -> {
      assertThat(e.getMessage()).isEqualTo(what);
      assertThat(e.offset).isEqualTo(offset);
    });
  }

  private static long simple(String doc) {
    byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
    JsonLexer lexer = new JsonLexer(bytes, bytes.length, DEPTH);
    lexer.nextValue();
    lexer.nextValue();
    return lexer.simpleInteger();
  }

  private static void refused(String doc, int offset, String what) {
    byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
    assertThat(jackson(bytes)).as("Jackson's verdict").isInstanceOf(Refused.class);
    refusedBytes(bytes, offset, what);
  }

  /** Refused at {@code offset}, saying {@code what} (Jackson passes some invalid UTF-8: not asked). */
  private static void refusedBytes(byte[] doc, int offset, String what) {
    assertThatThrownBy(() -> lexer(doc)).isInstanceOfSatisfying(JsonLexer.Malformed.class, e -> {
      assertThat(e.getMessage()).isEqualTo(what);
      assertThat(e.offset).isEqualTo(offset);
    });
  }

  /** A number, by its text. */
  private record Num(String text) {}

  /** Jackson's refusal. */
  private record Refused(String why) {}

  /** The document's tree by Jackson (numbers by their text), or its refusal. */
  private static Object jackson(byte[] doc) {
    try (JsonParser p = JACKSON.createParser(ObjectReadContext.empty(), doc)) {
      if (p.nextToken() == null) {
        return new Refused("empty");
      }
      Object tree = jacksonValue(p);
      return p.nextToken() == null ? tree : new Refused("trailing");
    } catch (JacksonException e) {
      return new Refused(e.getOriginalMessage());
    }
  }

  private static Object jacksonValue(JsonParser p) {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT: {
        Map<String, Object> map = new LinkedHashMap<>();
        for (String name = p.nextName(); name != null; name = p.nextName()) {
          p.nextToken();
          map.put(name, jacksonValue(p));
        }
        return map;
      }
      case START_ARRAY: {
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(jacksonValue(p));
        }
        return list;
      }
      case VALUE_STRING:
        return p.getString();
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return new Num(p.getString());
      case VALUE_TRUE:
        return true;
      case VALUE_FALSE:
        return false;
      default:
        return "null";
    }
  }

  /** The document's tree by the lexer, which throws its refusal. */
  private static Object lexer(byte[] doc) {
    JsonLexer lexer = new JsonLexer(doc, doc.length, DEPTH);
    if (lexer.atEnd()) {
      throw new JsonLexer.Malformed(0, "empty");
    }
    lexer.nextValue();
    Object tree = lexerValue(lexer);
    if (!lexer.atEnd()) {
      throw new JsonLexer.Malformed(lexer.offset(), "trailing");
    }
    return tree;
  }

  private static Object lexerValue(JsonLexer lexer) {
    switch (lexer.token()) {
      case JsonLexer.START_OBJECT: {
        Map<String, Object> map = new LinkedHashMap<>();
        if (lexer.offset() % 2 == 0) { // objects read by a table and objects read as text, about half each
          int last = -1;
          for (int index = lexer.nextField(FIELDS, last + 1); index != JsonLexer.END;
              index = lexer.nextField(FIELDS, last + 1)) {
            last = Math.max(index, -1);
            lexer.nextValue();
            map.put(index == JsonLexer.UNKNOWN ? lexer.unknownName() : FIELDS.names[index], lexerValue(lexer));
          }
        } else {
          for (String name = lexer.nextName(); name != null; name = lexer.nextName()) {
            lexer.nextValue();
            map.put(name, lexerValue(lexer));
          }
        }
        return map;
      }
      case JsonLexer.START_ARRAY: {
        List<Object> list = new ArrayList<>();
        while (lexer.nextValue() != JsonLexer.END_ARRAY) {
          list.add(lexerValue(lexer));
        }
        return list;
      }
      case JsonLexer.STRING:
        return lexer.text();
      case JsonLexer.INTEGER:
      case JsonLexer.DECIMAL:
        return new Num(lexer.text());
      case JsonLexer.TRUE:
        return true;
      case JsonLexer.FALSE:
        return false;
      default:
        return "null";
    }
  }

  private static boolean strictUtf8(byte[] doc) {
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(doc));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  // ------------------------------------------------------------------ random documents

  /** A random document, with random whitespace; sometimes nested past the depth allowed. */
  static byte[] document(Random random) {
    StringBuilder out = new StringBuilder();
    value(random, out, 0);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void value(Random random, StringBuilder out, int depth) {
    space(random, out);
    int kind = random.nextInt(depth > DEPTH ? 4 : 7);
    switch (kind) {
      case 0 -> string(random, out);
      case 1 -> out.append(number(random));
      case 2 -> out.append(random.nextBoolean() ? "true" : random.nextBoolean() ? "false" : "null");
      case 3 -> string(random, out);
      case 4, 5 -> {
        out.append('{');
        int members = random.nextInt(5);
        List<String> names = new ArrayList<>();
        int first = random.nextInt(NAMES.length);
        for (int i = 0; i < members; i++) {
          if (i > 0) {
            out.append(',');
          }
          space(random, out);
          // from a few names, in the table's order or not, now and then one given twice
          String name = !names.isEmpty() && random.nextInt(30) == 0 ? names.get(0)
              : NAMES[(first + i) % NAMES.length];
          names.add(name);
          out.append('"').append(name).append('"');
          space(random, out);
          out.append(':');
          value(random, out, depth + 1);
        }
        space(random, out);
        out.append('}');
      }
      default -> {
        out.append('[');
        int elements = random.nextInt(5);
        for (int i = 0; i < elements; i++) {
          if (i > 0) {
            out.append(',');
          }
          value(random, out, depth + 1);
        }
        space(random, out);
        out.append(']');
      }
    }
    space(random, out);
  }

  /** The names of {@link #NAMES} a table can have, so that random objects have some names found by it. */
  private static final JsonFields FIELDS = JsonFields.of("test.Random", "id", "name", "customerId", "a",
      "aVeryLongFieldNameThatIsLongerThanTheCacheKeeps", "value", "values", "valuf", "12345678", "123456789",
      "1234567");
  private static final String[] NAMES = {"id", "name", "customerId", "a", "", "x\\u0041", "é", "日本",
      "aVeryLongFieldNameThatIsLongerThanTheCacheKeeps", "with\\\"quote", "tab\\t", "value", "values", "valuf",
      "12345678", "123456789", "1234567"};

  private static void string(Random random, StringBuilder out) {
    out.append('"');
    int length = random.nextInt(random.nextInt(10) == 0 ? 80 : 12);
    for (int i = 0; i < length; i++) {
      int pick = random.nextInt(20);
      if (pick < 12) {
        out.append((char) ('a' + random.nextInt(26)));
      } else if (pick == 12) {
        out.append(new String[] {"\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t"}[random.nextInt(8)]);
      } else if (pick == 13) {
        out.append(String.format("\\u%04x", random.nextInt(0x10000)));
      } else if (pick == 14) {
        out.append("é");
      } else if (pick == 15) {
        out.append("語");
      } else if (pick == 16) {
        out.append("😀");
      } else {
        out.append(' ');
      }
    }
    out.append('"');
  }

  private static String number(Random random) {
    StringBuilder n = new StringBuilder();
    if (random.nextBoolean()) {
      n.append('-');
    }
    n.append(random.nextInt(5) == 0 ? "0" : Long.toString(1 + (random.nextLong() >>> random.nextInt(64))));
    if (random.nextInt(4) == 0) {
      n.append('.').append(random.nextInt(1000));
    }
    if (random.nextInt(5) == 0) {
      n.append(random.nextBoolean() ? 'e' : 'E').append(new String[] {"", "+", "-"}[random.nextInt(3)])
          .append(random.nextInt(400));
    }
    return n.toString();
  }

  private static void space(Random random, StringBuilder out) {
    if (random.nextInt(3) == 0) {
      out.append(" \n\r\t".charAt(random.nextInt(4)));
    }
  }

  /** {@code doc} with a byte or two replaced, inserted or deleted (never the first, which names the encoding). */
  private static byte[] broken(byte[] doc, Random random) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(doc, 0, 1);
    int at = doc.length > 1 ? 1 + random.nextInt(doc.length - 1) : 1;
    out.write(doc, 1, Math.max(0, at - 1));
    int how = random.nextInt(3);
    if (how != 2) {
      out.write(BREAKERS[random.nextInt(BREAKERS.length)]);
    }
    int skip = how == 1 ? 0 : 1;
    if (at + skip <= doc.length) {
      out.write(doc, at + skip, doc.length - at - skip);
    }
    return out.toByteArray();
  }
}
