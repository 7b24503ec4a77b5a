package io.boltgen.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The writer under the generated JSON codecs against jackson-core's generator: seeded random documents are written
 * byte for byte alike, through the smallest buffer too; then what only the writer does: lone surrogates as
 * {@code ?}, its kept names, and the structure it refuses.
 */
class JsonWriterTest {

  private static final JsonFactory JACKSON = JsonFactory.builder().build();

  @Test
  void randomDocumentsAreWrittenAsJacksonWritesThem() {
    Random random = new Random(20261207);
    for (int i = 0; i < 5_000; i++) {
      long seed = random.nextLong();
      byte[] ours = ours(256 + random.nextInt(4) * 1024, w -> value(new Random(seed), new Ours(w), 0));
      byte[] theirs = jackson(g -> value(new Random(seed), new Theirs(g), 0));
      assertThat(new String(ours, StandardCharsets.UTF_8)).isEqualTo(new String(theirs, StandardCharsets.UTF_8));
    }
  }

  @Test
  void longStringsCrossTheBufferWhole() {
    Random random = new Random(7);
    StringBuilder text = new StringBuilder();
    while (text.length() < 100_000) {
      text.append(pick(random));
    }
    String s = text.toString();
    byte[] ours = ours(256, w -> {
      w.writeStartObject();
      w.writeName(s);
      w.writeString(s);
      w.writeEndObject();
    });
    byte[] theirs = jackson(g -> {
      g.writeStartObject();
      g.writeName(s);
      g.writeString(s);
      g.writeEndObject();
    });
    assertThat(ours).isEqualTo(theirs);
  }

  @Test
  void stringsWithoutEscapesAreTheirUtf8OnEitherSideOfTheLengthEncodedWhole() {
    // below 16 chars written char by char, from 16 encoded whole by the JDK: the same bytes either way
    String[] pieces = {"a", "Z", "é", "語", "\u2028", "😀", "\u007f", "\u07ff", "\uffff", "\ud800", "\udfff", "?"};
    Random random = new Random(20261207);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder text = new StringBuilder();
      for (int length = 10 + random.nextInt(12); text.length() < length; ) {
        text.append(pieces[random.nextInt(pieces.length)]);
      }
      String s = text.toString();
      String expected = "\"" + new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8) + "\"";
      assertThat(text(w -> w.writeString(s))).as("%s", s.chars().boxed().toList()).isEqualTo(expected);
    }
    // encoded whole up to a third of the 4 KiB buffer less two steps (1,344 chars), in pieces past it
    for (String c : new String[] {"k", "é", "語"}) {
      for (int length = 1_343; length <= 1_346; length++) {
        String s = c.repeat(length);
        assertThat(text(w -> w.writeString(s))).as("%d × %s", length, c).isEqualTo("\"" + s + "\"");
      }
    }
    String quoted = "a\"" + "b".repeat(20);
    assertThat(text(w -> w.writeString(quoted))).isEqualTo("\"a\\\"" + "b".repeat(20) + "\"");
  }

  @Test
  void aLoneSurrogateIsWrittenAsAQuestionMark() {
    assertThat(text(w -> w.writeString("a\ud800b"))).isEqualTo("\"a?b\"");
    assertThat(text(w -> w.writeString("\udc00\ud83d\ude00\ud83d"))).isEqualTo("\"?\ud83d\ude00?\"");
    assertThat(text(w -> w.writeString("x".repeat(16) + "\ud800y\udc00"))).isEqualTo("\"" + "x".repeat(16) + "?y?\"");
    String longer = "x".repeat(300) + "\ud800";
    assertThat(text(w -> w.writeString(longer))).isEqualTo("\"" + "x".repeat(300) + "?\"");
    assertThat(text(w -> {
      w.writeStartObject();
      w.writeName("k\udbff");
      w.writeNumber(1);
      w.writeEndObject();
    })).isEqualTo("{\"k?\":1}");
  }

  @Test
  void namesGivenAsTextAreEscapedAsStringsAre() {
    assertThat(text(w -> {
      w.writeStartObject();
      w.writeName("quantity");
      w.writeNumber(1);
      w.writeName("line\nbreak");
      w.writeNumber(3);
      w.writeName("日本");
      w.writeNumber(4);
      w.writeName("n".repeat(100));
      w.writeNumber(5);
      w.writeEndObject();
    })).isEqualTo("{\"quantity\":1,\"line\\nbreak\":3,\"日本\":4,\"" + "n".repeat(100) + "\":5}");
  }

  @Test
  void namesOfATableAreWrittenWholeThroughASmallBufferWhateverTheirLength() {
    // through a 256-byte buffer: names that fit beside what is buffered, that fill it, and that are longer
    for (int length : new int[] {1, 8, 9, 60, 180, 189, 190, 191, 200, 254, 255, 256, 257, 300}) {
      String name = "k".repeat(length);
      JsonFields fields = JsonFields.of("test.Long", "a", name);
      StringBuilder expected = new StringBuilder("{");
      for (int i = 0; i < 8; i++) {
        expected.append(i == 0 ? "" : ",").append('"').append(i % 3 == 0 ? "a" : name).append("\":").append(i);
      }
      String written = new String(ours(256, w -> {
        w.writeStartObject();
        for (int i = 0; i < 8; i++) {
          w.writeName(fields, i % 3 == 0 ? 0 : 1);
          w.writeNumber(i);
        }
        w.writeEndObject();
      }), StandardCharsets.UTF_8);
      assertThat(written).as("a name of %d chars", length).isEqualTo(expected.append('}').toString());
    }
  }

  @Test
  void numbersAreWrittenAsJavaWritesThem() {
    assertThat(text(w -> {
      w.writeStartArray();
      w.writeNumber(Long.MIN_VALUE);
      w.writeNumber(Long.MAX_VALUE);
      w.writeNumber(Integer.MIN_VALUE);
      w.writeNumber(0);
      w.writeNumber(-0.0);
      w.writeNumber(1e-7f);
      w.writeNumber(Double.MIN_VALUE);
      w.writeQuoted(-42);
      w.writeEndArray();
    })).isEqualTo("[-9223372036854775808,9223372036854775807,-2147483648,0,-0.0,1.0E-7,4.9E-324,\"-42\"]");
    long[] edges = {Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, 999_999_999L, 1_000_000_000L, 1_000_000_001L,
        9_999_999_999L, 10_000_000_000L, 1_000_000_000_000_000_000L, -1_000_000_000_000_000_007L, -10L};
    for (long edge : edges) {
      assertThat(text(w -> w.writeNumber(edge))).isEqualTo(Long.toString(edge));
      assertThat(text(w -> w.writeQuoted(edge))).isEqualTo("\"" + edge + "\"");
    }
    assertThatThrownBy(() -> text(w -> w.writeNumber(Double.NaN))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NaN is no JSON number");
    assertThatThrownBy(() -> text(w -> w.writeNumber(Float.NEGATIVE_INFINITY)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theStructureIsChecked() {
    refused(w -> {
      w.writeStartObject();
      w.writeNumber(1);
    }, "JSON out of order: a value without a name cannot come here (a name is due)");
    refused(w -> {
      w.writeStartObject();
      w.writeName("a");
      w.writeName("b");
    }, "JSON out of order: a name cannot come here (a value is due)");
    refused(w -> {
      w.writeStartObject();
      w.writeName("a");
      w.writeEndObject();
    }, "JSON out of order: the end of an object cannot come here (a value is due)");
    refused(w -> {
      w.writeStartArray();
      w.writeName("a");
    }, "JSON out of order: a name cannot come here (in an array)");
    refused(w -> {
      w.writeStartArray();
      w.writeEndObject();
    }, "JSON out of order: the end of an object cannot come here (in an array)");
    refused(w -> {
      w.writeNull();
      w.writeNull();
    }, "JSON out of order: a second value of the document cannot come here (at the top)");
    refused(w -> w.writeEndArray(), "JSON out of order: the end of an array cannot come here (at the top)");
    refused(w -> w.writeStartArray(), "the document ends inside an array");
    refused(w -> { }, "the document has no value");
  }

  // ------------------------------------------------------------------ helpers

  private static void refused(Consumer<JsonWriter> writes, String message) {
    assertThatThrownBy(() -> text(writes)).isInstanceOf(IllegalStateException.class).hasMessage(message);
  }

  private static String text(Consumer<JsonWriter> writes) {
    return new String(ours(4096, writes), StandardCharsets.UTF_8);
  }

  private static byte[] ours(int buffer, Consumer<JsonWriter> writes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonWriter writer = new JsonWriter(out, new byte[buffer]);
    writes.accept(writer);
    writer.finish();
    return out.toByteArray();
  }

  private static byte[] jackson(Consumer<JsonGenerator> writes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JACKSON.createGenerator(ObjectWriteContext.empty(), out)) {
      writes.accept(g);
    }
    return out.toByteArray();
  }

  /** What a random document calls: the same on either writer. */
  private interface Calls {
    void startObject();

    void endObject();

    void startArray();

    void endArray();

    void name(String name);

    void string(String value);

    void number(long value);

    void number(double value);

    void bool(boolean value);

    void nil();
  }

  private record Ours(JsonWriter w) implements Calls {
    @Override public void startObject() {
      w.writeStartObject();
    }

    @Override public void endObject() {
      w.writeEndObject();
    }

    @Override public void startArray() {
      w.writeStartArray();
    }

    @Override public void endArray() {
      w.writeEndArray();
    }

    @Override public void name(String name) {
      int index = Arrays.asList(TABLE_NAMES).indexOf(name);
      if (index >= 0) {
        w.writeName(TABLE, index);
      } else {
        w.writeName(name);
      }
    }

    @Override public void string(String value) {
      w.writeString(value);
    }

    @Override public void number(long value) {
      w.writeNumber(value);
    }

    @Override public void number(double value) {
      w.writeNumber(value);
    }

    @Override public void bool(boolean value) {
      w.writeBoolean(value);
    }

    @Override public void nil() {
      w.writeNull();
    }
  }

  private record Theirs(JsonGenerator g) implements Calls {
    @Override public void startObject() {
      g.writeStartObject();
    }

    @Override public void endObject() {
      g.writeEndObject();
    }

    @Override public void startArray() {
      g.writeStartArray();
    }

    @Override public void endArray() {
      g.writeEndArray();
    }

    @Override public void name(String name) {
      g.writeName(name);
    }

    @Override public void string(String value) {
      g.writeString(value);
    }

    @Override public void number(long value) {
      g.writeNumber(value);
    }

    @Override public void number(double value) {
      g.writeNumber(value);
    }

    @Override public void bool(boolean value) {
      g.writeBoolean(value);
    }

    @Override public void nil() {
      g.writeNull();
    }
  }

  /** The names of {@link #NAMES} a table can have: written from it. */
  private static final String[] TABLE_NAMES = {"id", "customerId", "x".repeat(70)};
  private static final JsonFields TABLE = JsonFields.of("test.Random", TABLE_NAMES);
  private static final String[] NAMES = {"id", "customerId", "日本", "with \"quote\"", "tab\t", "", "x".repeat(70)};

  private static void value(Random random, Calls out, int depth) {
    switch (random.nextInt(depth > 4 ? 5 : 7)) {
      case 0 -> out.string(string(random));
      case 1 -> out.number(random.nextLong() >> random.nextInt(64));
      case 2 -> out.number(random.nextBoolean() ? random.nextDouble() * Math.pow(10, random.nextInt(600) - 300)
          : (double) random.nextFloat());
      case 3 -> out.bool(random.nextBoolean());
      case 4 -> out.nil();
      case 5 -> {
        out.startObject();
        for (int i = random.nextInt(5); i > 0; i--) {
          out.name(random.nextBoolean() ? NAMES[random.nextInt(NAMES.length)] : string(random));
          value(random, out, depth + 1);
        }
        out.endObject();
      }
      default -> {
        out.startArray();
        for (int i = random.nextInt(5); i > 0; i--) {
          value(random, out, depth + 1);
        }
        out.endArray();
      }
    }
  }

  private static String string(Random random) {
    StringBuilder s = new StringBuilder();
    int length = random.nextInt(random.nextInt(10) == 0 ? 600 : 20);
    for (int i = 0; i < length; i++) {
      s.append(pick(random));
    }
    return s.toString();
  }

  /** A piece of text: mostly ASCII letters, also every kind of char that is escaped or takes more bytes. */
  private static String pick(Random random) {
    int pick = random.nextInt(20);
    if (pick < 10) {
      return String.valueOf((char) ('a' + random.nextInt(26)));
    }
    return switch (pick) {
      case 10 -> String.valueOf((char) random.nextInt(0x20));
      case 11 -> "\"";
      case 12 -> "\\";
      case 13 -> "\u007f/";
      case 14 -> "é";
      case 15 -> "\u2028語";
      case 16 -> "😀";
      case 17 -> String.valueOf((char) (0x80 + random.nextInt(0x780)));
      case 18 -> String.valueOf((char) (0x800 + random.nextInt(0xd000)));
      default -> " ";
    };
  }
}
