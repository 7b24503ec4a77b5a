package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The JSON reader is strict and reads what the gateway writes; quoting escapes so every string round-trips. */
class JsonTest {

  @Test
  void readsAGatewayReply() {
    Map<String, Object> reply = Json.parseObject("{\"result\":{\"header\":{\"cluster_id\":\"324952591200643719\","
        + "\"revision\":\"5\"},\"events\":[{\"type\":\"DELETE\",\"kv\":{\"key\":\"cC9h\",\"mod_revision\":\"5\"}}]}}\n");
    Map<String, Object> result = Json.object(reply, "result");
    assertThat(Json.int64(Json.object(result, "header"), "revision")).isEqualTo(5);
    assertThat(Json.int64(Json.object(result, "header"), "cluster_id")).isEqualTo(324952591200643719L);
    assertThat(Json.array(result, "events")).hasSize(1);
    assertThat(Json.bool(result, "created")).isFalse(); // absent: proto3's default
    assertThat(Json.int64(result, "compact_revision")).isZero();
  }

  @Test
  void readsEveryKindOfValue() {
    @SuppressWarnings("unchecked") List<Object> numbers = (List<Object>) Json.parse(" [1, -2, 0, 3.5, 1e3, -0.25E-1] ");
    assertThat(numbers).containsExactly(1L, -2L, 0L, 3.5, 1000.0, -0.025);
    @SuppressWarnings("unchecked") List<Object> others = (List<Object>) Json.parse("[true,false,null,\"x\",{},[]]");
    assertThat(others).containsExactly(true, false, null, "x", Map.of(), List.of());
    assertThat(Json.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    assertThat(Json.parse("92233720368547758070")).isInstanceOf(Double.class);
  }

  @Test
  void readsEscapes() {
    assertThat(Json.parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\""))
        .isEqualTo("a\"b\\c/d\b\f\n\r\té😀");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "'x'", "\"unterminated", "01", "1.", "-",
      ".5", "1e", "+1", "tru", "nul", "{\"a\":1} x", "[1 2]", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"",
      "\"tab\there\"", "{\"a\":1,\"a\":2}", "NaN", "Infinity", "// c\n1", "[1]]"})
  void refusesWhatIsNotStrictJson(String text) {
    assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("bad JSON");
  }

  @Test
  void refusesNestingDeeperThanTheBound() {
    String ok = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
    assertThat(Json.parse(ok)).isInstanceOf(List.class);
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertThatThrownBy(() -> Json.parse(deep)).hasMessageContaining("nested deeper");
  }

  @Test
  void aMemberOfTheWrongTypeIsNamed() {
    Map<String, Object> o = Json.parseObject("{\"kvs\":{},\"ID\":true,\"key\":1,\"more\":\"yes\"}");
    assertThatThrownBy(() -> Json.array(o, "kvs")).hasMessageContaining("\"kvs\" is a object");
    assertThatThrownBy(() -> Json.int64(o, "ID")).hasMessageContaining("\"ID\"");
    assertThatThrownBy(() -> Json.string(o, "key", "")).hasMessageContaining("\"key\"");
    assertThatThrownBy(() -> Json.bool(o, "more")).hasMessageContaining("\"more\"");
    assertThatThrownBy(() -> Json.parseObject("[]")).hasMessageContaining("expected a JSON object");
    assertThatThrownBy(() -> Json.int64(Json.parseObject("{\"ID\":\"12x\"}"), "ID")).hasMessageContaining("12x");
  }

  @Test
  void everyStringRoundTrips() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x300; c++) {
      all.append(c);
    }
    all.append("\u2028\u2029😀").append('\ud800').append("x").append('\udc00');
    String text = all.toString();
    String quoted = Json.quote(text);
    assertThat(quoted.chars().noneMatch(c -> c < 0x20)).isTrue();
    assertThat(Json.parse(quoted)).isEqualTo(text);
    // lone surrogates are written escaped, so the UTF-8 bytes carry them intact
    assertThat(quoted).contains("\\ud800").contains("\\udc00").contains("😀");
  }
}
