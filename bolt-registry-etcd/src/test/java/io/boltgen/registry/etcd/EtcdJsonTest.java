package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gateway's replies are read by the runtime's strict rules into maps and lists, a wrong member's type is
 * named, and the replies etcd writes (streamed lines, errors, int64 as strings, uint64 IDs) are read as they come.
 */
class EtcdJsonTest {

  @Test
  void readsAGatewayReply() {
    Map<String, Object> reply = EtcdJson.parseObject("{\"result\":{\"header\":{"
        + "\"cluster_id\":\"324952591200643719\",\"revision\":\"5\"},"
        + "\"events\":[{\"type\":\"DELETE\",\"kv\":{\"key\":\"cC9h\",\"mod_revision\":\"5\"}}]}}\n");
    Map<String, Object> result = EtcdJson.object(reply, "result");
    assertThat(EtcdJson.int64(EtcdJson.object(result, "header"), "revision")).isEqualTo(5);
    assertThat(EtcdJson.int64(EtcdJson.object(result, "header"), "cluster_id"))
        .isEqualTo(324952591200643719L);
    assertThat(EtcdJson.array(result, "events")).hasSize(1);
    assertThat(EtcdJson.bool(result, "created")).isFalse(); // absent: proto3's default
    assertThat(EtcdJson.int64(result, "compact_revision")).isZero();
  }

  @Test
  void readsEveryKindOfValue() {
    @SuppressWarnings("unchecked")
    List<Object> numbers = (List<Object>) EtcdJson.parse(" [1, -2, 0, 3.5, 1e3, -0.25E-1] ");
    assertThat(numbers).containsExactly(1L, -2L, 0L, 3.5, 1000.0, -0.025);
    @SuppressWarnings("unchecked")
    List<Object> others = (List<Object>) EtcdJson.parse("[true,false,null,\"x\",{},[]]");
    assertThat(others).containsExactly(true, false, null, "x", Map.of(), List.of());
    assertThat(EtcdJson.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    assertThat(EtcdJson.parse("92233720368547758070")).isInstanceOf(Double.class);
  }

  @Test
  void readsEscapes() {
    assertThat(EtcdJson.parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\""))
        .isEqualTo("a\"b\\c/d\b\f\n\r\té😀");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "{\"a\":1,}", "{a:1}", "01", "\"tab\there\"", "{\"a\":1,\"a\":2}", "NaN", "// c\n1",
      "{\"a\":1} x", "[1]]"})
  void refusesWhatIsNotStrictJson(String text) {
    assertThatThrownBy(() -> EtcdJson.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("malformed JSON at offset ");
  }

  @Test
  void refusesNestingDeeperThanTheBound() {
    String ok = "[".repeat(EtcdJson.MAX_DEPTH) + "]".repeat(EtcdJson.MAX_DEPTH);
    assertThat(EtcdJson.parse(ok)).isInstanceOf(List.class);
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertThatThrownBy(() -> EtcdJson.parse(deep))
        .hasMessageContaining("nesting depth (65) exceeds the maximum allowed (64)");
  }

  @Test
  void aMemberOfTheWrongTypeIsNamed() {
    Map<String, Object> o = EtcdJson.parseObject("{\"kvs\":{},\"ID\":true,\"key\":1,\"more\":\"yes\"}");
    assertThatThrownBy(() -> EtcdJson.array(o, "kvs")).hasMessage("\"kvs\" is an object, not an array");
    assertThatThrownBy(() -> EtcdJson.int64(o, "ID")).hasMessageContaining("\"ID\"");
    assertThatThrownBy(() -> EtcdJson.string(o, "key", "")).hasMessageContaining("\"key\"");
    assertThatThrownBy(() -> EtcdJson.bool(o, "more")).hasMessageContaining("\"more\"");
    assertThatThrownBy(() -> EtcdJson.parseObject("[]")).hasMessageContaining("expected a JSON object");
    assertThatThrownBy(() -> EtcdJson.int64(EtcdJson.parseObject("{\"ID\":\"12x\"}"), "ID"))
        .hasMessageContaining("12x");
  }

  /** The object at {@code path} in the reply {@code json}. */
  private static Map<String, Object> at(String json, String... path) {
    Map<String, Object> object = EtcdJson.parseObject(json);
    for (String name : path) {
      object = EtcdJson.object(object, name);
    }
    return object;
  }

  @Test
  void readsStreamedLinesAndErrorsAsEtcdWritesThem() {
    String created = "{\"result\":{\"header\":{\"cluster_id\":\"14841639068965178418\","
        + "\"member_id\":\"10276657743932975437\",\"revision\":\"9\",\"raft_term\":\"2\"},\"created\":true}}";
    assertThat(EtcdJson.bool(at(created, "result"), "created")).isTrue();
    assertThat(EtcdJson.string(at(created, "result", "header"), "member_id", "")).as("uint64: never a number")
        .isEqualTo("10276657743932975437");
    String closing = "{\"error\":{\"grpc_code\":14,\"http_code\":503,\"message\":\"transport is closing\","
        + "\"http_status\":\"Service Unavailable\"}}";
    assertThat(EtcdJson.int64(at(closing, "error"), "grpc_code")).isEqualTo(14);
    assertThat(EtcdJson.int64(at("{\"ID\":\"-9223372036854775808\"}"), "ID")).isEqualTo(Long.MIN_VALUE);
    assertThatThrownBy(() -> EtcdJson.int64(at("{\"ID\":\"9223372036854775808\"}"), "ID"))
        .hasMessage("\"ID\" is not an int64: \"9223372036854775808\"");
  }

  @Test
  void refusesDuplicateNamesAndHugeNumbersInAReply() {
    assertThatThrownBy(() -> EtcdJson.parseObject("{\"result\":{\"events\":[],\"events\":[]}}"))
        .hasMessageStartingWith("malformed JSON at offset ").hasMessageContaining("Duplicate");
    assertThatThrownBy(() -> EtcdJson.parse("[" + "1".repeat(1_001) + "]"))
        .hasMessageStartingWith("malformed JSON at offset ").hasMessageContaining("(1001)");
    assertThatThrownBy(() -> EtcdJson.parseObject("{\"result\":{\"header\":{\"revision\":\"5\"}}"))
        .as("truncated").hasMessageStartingWith("malformed JSON at offset ");
  }
}
