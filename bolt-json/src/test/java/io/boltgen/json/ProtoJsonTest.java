package io.boltgen.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Whole documents through {@link ProtoJson} with a hand-written marshaller: documents longer than the buffers (read
 * whole, written in pieces), one read inside another on the same thread (each with its own buffer), and a stream
 * that fails.
 */
class ProtoJsonTest {

  /** {@code ["a", "b", …]} as a list. */
  private static final JsonMarshaller<List<String>> STRINGS = JsonMarshaller.of("test.Strings", (value, out) -> {
    out.writeStartArray();
    for (String s : value) {
      out.writeString(s);
    }
    out.writeEndArray();
  }, ProtoJsonTest::readStrings);

  private static List<String> readStrings(JsonReader r) {
    List<String> values = new ArrayList<>();
    for (boolean more = r.beginArray(); more; more = r.nextElement()) {
      if (!r.isNull()) {
        values.add(r.readString());
      }
    }
    return values;
  }

  @Test
  void documentsOfEverySizeRoundTrip() {
    for (int count : new int[] {0, 1, 100, 5_000, 200_000}) {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        values.add(i % 7 == 0 ? "é\"" + i : "v" + i);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ProtoJson.write(STRINGS, values, out);
      assertThat(out.size()).as("%d values", count).isGreaterThan(count * 3);
      assertThat(ProtoJson.read(STRINGS, new ByteArrayInputStream(out.toByteArray()), false)).isEqualTo(values);
    }
    // after a document past the kept buffer's size, a small one still reads (the long buffer was dropped)
    assertThat(read("[\"x\"]")).containsExactly("x");
  }

  @Test
  void aDocumentReadInsideAnotherHasItsOwnBuffer() {
    JsonMarshaller<List<String>> outer = JsonMarshaller.of("test.Outer", (value, out) -> out.writeNull(), r -> {
      List<String> values = new ArrayList<>();
      for (String name = r.beginMap(); name != null; name = r.nextKey()) {
        String inner = r.readString();
        values.addAll(read(inner)); // the outer document's bytes must stay as they are meanwhile
        values.add(name);
      }
      return values;
    });
    String doc = "{\"first\": \"[\\\"a\\\", \\\"b\\\"]\", \"second\": \"[\\\"c\\\"]\"}";
    assertThat(ProtoJson.read(outer, new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)), false))
        .containsExactly("a", "b", "first", "c", "second");
  }

  @Test
  void aFailingStreamIsAnUncheckedIoException() {
    InputStream failing = new InputStream() {
      @Override
      public int read() throws IOException {
        throw new IOException("gone");
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        throw new IOException("gone");
      }
    };
    assertThatThrownBy(() -> ProtoJson.read(STRINGS, failing, false)).isInstanceOf(UncheckedIOException.class)
        .hasRootCauseMessage("gone");
    assertThat(read("[]")).isEmpty();
  }

  @Test
  void aDocumentThatIsNotJsonOrNotTheMessageSaysWhere() {
    assertThatThrownBy(() -> read("[\"a\", 1]")).isInstanceOf(ProtoJsonException.class)
        .hasMessage("field \"[1]\": expected a string, got a number");
    assertThatThrownBy(() -> read("[\"a\" \"b\"]")).isInstanceOf(ProtoJsonException.class)
        .hasMessage("field \"[0]\": malformed JSON at offset 5: unexpected character '\"': expected ',' or ']' after an array"
            + " element");
    assertThatThrownBy(() -> read("  ")).isInstanceOf(ProtoJsonException.class)
        .hasMessage("malformed JSON: no JSON value");
    assertThatThrownBy(() -> read("[] []")).isInstanceOf(ProtoJsonException.class)
        .hasMessage("malformed JSON at offset 3: unexpected text after the JSON value");
  }

  private static List<String> read(String doc) {
    return ProtoJson.read(STRINGS, new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)), false);
  }
}
