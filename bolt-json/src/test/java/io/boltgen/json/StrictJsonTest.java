package io.boltgen.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JsonParser;
import tools.jackson.core.json.JsonFactory;

/** The rules by which boltgen reads JSON: RFC 8259 exactly, one value, no duplicate names, bounded nesting. */
class StrictJsonTest {

  private static final JsonFactory FOUR_DEEP = StrictJson.factory(4);

  /** Reads {@code text} through to its last token, as a reader of any value would. */
  private static String read(String text) {
    return StrictJson.read(FOUR_DEEP, text, json -> {
      json.skipChildren();
      return "read";
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", " ", "\n\t", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "'x'", "\"unterminated", "01", "1.",
      "-", ".5", "1e", "+1", "tru", "nul", "{\"a\":1} x", "[1 2]", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"",
      "\"tab\there\"", "{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":1}", "NaN", "Infinity", "-Infinity", "0x10", "// c\n1",
      "/* c */ 1", "# c\n1", "[1]]", "{} {}", "1 2", "\"a\" \"b\"", "\ufeff1", "[1,,2]", "[,1]", "{\"a\"}",
      "1\u0000", "\u001e1"})
  void refusesWhatIsNotStrictJsonSayingWhere(String text) {
    assertThatThrownBy(() -> read(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching("(?s)malformed JSON at offset \\d+: .+");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-0", "1.5e-3", "true", "null", "\"\"", " {\"a\":[1,{\"b\":null}]} \r\n", "[]",
      "\"\\u00e9\\ud83d\\ude00\\/\"", "[[[[]]]]"})
  void readsWhatIsStrictJson(String text) {
    assertThat(read(text)).isEqualTo("read");
  }

  @Test
  void saysWhatIsWrongAndWhere() {
    assertThatThrownBy(() -> read("  ")).hasMessage("malformed JSON at offset 2: no JSON value");
    assertThatThrownBy(() -> read("{} []"))
        .hasMessage("malformed JSON at offset 3: unexpected text after the JSON value");
    assertThatThrownBy(() -> read("{\"a\":1,\"a\":2}")).hasMessageStartingWith("malformed JSON at offset ")
        .hasMessageContaining("Duplicate").hasMessageContaining("\"a\"");
  }

  @Test
  void refusesNestingDeeperThanTheBoundWithoutNamingJacksonsInsides() {
    assertThatThrownBy(() -> read("[[[[[]]]]]")).hasMessageStartingWith("malformed JSON at offset ")
        .hasMessageContaining("nesting depth (5) exceeds the maximum allowed (4)")
        .hasMessageNotContaining("StreamReadConstraints");
    String hostile = "[".repeat(1_000_000);
    assertThatThrownBy(() -> read(hostile)).hasMessageContaining("exceeds the maximum allowed (4)");
  }

  @Test
  void refusesNumbersLongerThanTheBound() {
    String longest = "1".repeat(StrictJson.MAX_NUMBER_LENGTH);
    assertThat(read(longest)).isEqualTo("read");
    assertThat(read("[" + longest + "]")).isEqualTo("read");
    assertThatThrownBy(() -> read("[" + longest + "1]")).hasMessageStartingWith("malformed JSON at offset ")
        .hasMessageContaining("(1001)");
  }

  @Test
  void whatTheReaderRefusesPassesThroughAsItSaidIt() {
    assertThatThrownBy(() -> StrictJson.read(FOUR_DEEP, "{}", json -> {
      throw new IllegalArgumentException("\"address\" must be a string");
    })).hasMessage("\"address\" must be a string");
    // and the reader's own misuse of the parser is a malformed text, never a Jackson exception
    assertThatThrownBy(() -> StrictJson.read(FOUR_DEEP, "\"x\"", JsonParser::getIntValue))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("malformed JSON at offset ");
  }
}
