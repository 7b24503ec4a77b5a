package io.boltgen.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stored form across versions: entries that earlier versions of boltgen (and other tools) wrote are read,
 * the bytes written are exactly those the format's rules give (so an instance written again by this version
 * is the same value), and the reader's rule for each kind of malformed input: truncated, huge numbers,
 * duplicate names, a metadata key that is not Unicode text.
 */
class InstanceRecordCompatibilityTest {

  private static ServiceInstance read(String json) {
    return InstanceRecord.read(json.getBytes(StandardCharsets.UTF_8));
  }

  /** The format's escaping rules, as docs/registry-etcd.md states them, written out for comparison. */
  private static String stored(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
      if (pair) {
        out.append(c).append(s.charAt(++i));
      } else if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if ("\b\f\n\r\t".indexOf(c) >= 0) {
        out.append('\\').append("bfnrt".charAt("\b\f\n\r\t".indexOf(c)));
      } else if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029') {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static String expected(ServiceInstance instance) {
    StringBuilder out = new StringBuilder("{\"address\":").append(stored(instance.hostAndPort()))
        .append(",\"weight\":").append(instance.weight())
        .append(",\"version\":").append(stored(instance.version()))
        .append(",\"zone\":").append(stored(instance.zone())).append(",\"metadata\":{");
    String separator = "";
    for (Map.Entry<String, String> e : new TreeMap<>(instance.metadata()).entrySet()) {
      out.append(separator).append(stored(e.getKey())).append(':').append(stored(e.getValue()));
      separator = ",";
    }
    return out.append("}}").toString();
  }

  /** Text of random characters, weighted toward the ones that need escaping. */
  private static String randomText(Random random, boolean unicodeText) {
    String special = "\"\\/\b\f\n\r\t\u0000\u001f\u007f\u0080\u009f\u2028\u2029é€😀\ud800\udc00 {}[]:,";
    StringBuilder out = new StringBuilder();
    int length = random.nextInt(12);
    for (int i = 0; i < length; i++) {
      int kind = random.nextInt(4);
      if (kind == 0) {
        out.append(special.charAt(random.nextInt(special.length())));
      } else if (kind == 1) {
        out.append((char) random.nextInt(0x10000));
      } else {
        out.append((char) ('a' + random.nextInt(26)));
      }
    }
    String text = out.toString();
    return unicodeText ? text.codePoints().filter(c -> !Character.isSurrogate((char) c) || c > 0xffff)
        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString() : text;
  }

  /** An instance at an IPv4, IPv6 or named address, with random text everywhere text goes. */
  private static ServiceInstance randomInstance(Random random) throws Exception {
    int port = 1 + random.nextInt(65_535);
    InetSocketAddress address = switch (random.nextInt(3)) {
      case 0 -> new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) random.nextInt()}), port);
      case 1 -> new InetSocketAddress(InetAddress.getByName("[fd00::" + Integer.toHexString(port) + "]"), port);
      default -> InetSocketAddress.createUnresolved("inventory-" + random.nextInt(100) + ".internal", port);
    };
    Map<String, String> metadata = new HashMap<>();
    for (int m = random.nextInt(4); m > 0; m--) {
      metadata.put(randomText(random, true), randomText(random, false));
    }
    return new ServiceInstance(address, random.nextInt(ServiceInstance.MAX_WEIGHT + 1), randomText(random, false),
        randomText(random, false), metadata);
  }

  @Test
  void writesExactlyTheBytesTheFormatGivesAndReadsThemBack() throws Exception {
    Random random = new Random(8_259);
    for (int i = 0; i < 3_000; i++) {
      ServiceInstance instance = randomInstance(random);
      byte[] written = InstanceRecord.write(instance);
      assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo(expected(instance));
      assertThat(written).isEqualTo(expected(instance).getBytes(StandardCharsets.UTF_8));
      assertThat(InstanceRecord.read(written)).isEqualTo(instance);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      // as boltgen wrote them before the format was read and written with jackson-core
      "{\"address\":\"10.0.0.7:12200\",\"weight\":250,\"version\":\"1.4.2\",\"zone\":\"zone-b\",\"metadata\":"
          + "{\"rack\":\"r7\"}}",
      "{\"address\":\"[0:0:0:0:0:0:0:1]:1\",\"weight\":0,\"version\":\"del\\u007f ls\\u2028 ps\\u2029 lone\\ud800\","
          + "\"zone\":\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\/\",\"metadata\":{\"\":\"\",\"é\":\"😀\\udc00\"}}",
      // as other tools may write them: whitespace, escaped '/', upper-case hex, fields in any order, nulls,
      // fields of a later version
      """
       {
       "metadata" : { "rack" : "r7" } ,"zone":null, "version":"1\\/2\\u00E9",
       "address": "10.0.0.7:12200", "weight": 100, "later": {"x":[1, -2.5e-3, true, null]} }\r
      """,
  })
  void readsWhatEarlierVersionsAndOtherToolsWrote(String stored) {
    ServiceInstance instance = read(stored);
    assertThat(instance.address().getPort()).isPositive();
    // and reading it again from what this version writes gives the same instance
    assertThat(InstanceRecord.read(InstanceRecord.write(instance))).isEqualTo(instance);
  }

  @Test
  void readsEscapesAsTheCharactersTheyStandFor() {
    ServiceInstance instance = read("{\"address\":\"h:1\",\"version\":\"1\\/2\\u00E9\\ud83d\\ude00\","
        + "\"zone\":\"a\\u2028b\\ud800\",\"metadata\":{\"k\\u00e9\":\"\\\"\\\\\"}}");
    assertThat(instance.version()).isEqualTo("1/2é😀");
    assertThat(instance.zone()).isEqualTo("a\u2028b\ud800");
    assertThat(instance.metadata()).isEqualTo(Map.of("ké", "\"\\"));
  }

  @Test
  void refusesEveryTruncationOfAValidEntry() {
    String whole = new String(InstanceRecord.write(ServiceInstance.of(new InetSocketAddress("10.0.0.7", 12200))
        .withVersion("1.0").withMetadata(Map.of("k", "v"))), StandardCharsets.UTF_8);
    for (int end = 0; end < whole.length(); end++) {
      String truncated = whole.substring(0, end);
      assertThatThrownBy(() -> read(truncated)).as(truncated).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("malformed JSON at offset ");
    }
  }

  @Test
  void refusesHugeNumbersWhereverTheyStand() {
    String digits = "9".repeat(1_001);
    assertThatThrownBy(() -> read("{\"address\":\"h:1\",\"weight\":" + digits + "}"))
        .hasMessageStartingWith("malformed JSON at offset ").hasMessageContaining("(1001)")
        .hasMessageContaining("(1000)").hasMessageNotContaining("StreamReadConstraints");
    assertThatThrownBy(() -> read("{\"address\":\"h:1\",\"later\":-" + digits + "}"))
        .hasMessageStartingWith("malformed JSON at offset ");
    assertThatThrownBy(() -> read("{\"address\":\"h:1\",\"weight\":9223372036854775808}"))
        .hasMessage("\"weight\" must be an integer 0..10000");
    assertThatThrownBy(() -> read("{\"address\":\"h:1\",\"weight\":-9223372036854775809}"))
        .hasMessage("\"weight\" must be an integer 0..10000");
    assertThat(read("{\"address\":\"h:1\",\"weight\":-0,\"later\":" + "9".repeat(1_000) + "}").weight()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"address\":\"h:1\",\"address\":\"h:1\"}",
      "{\"address\":null,\"address\":\"h:1\"}",
      "{\"address\":\"h:1\",\"later\":1,\"later\":1}",
      "{\"address\":\"h:1\",\"later\":{\"x\":[{\"y\":1,\"y\":2}]}}",
      "{\"address\":\"h:1\",\"metadata\":{\"k\":\"v\",\"k\":\"v\"}}"})
  void refusesADuplicateNameAnywhereEvenWithTheSameValue(String json) {
    assertThatThrownBy(() -> read(json)).hasMessageStartingWith("malformed JSON at offset ")
        .hasMessageContaining("Duplicate");
  }

  @Test
  void aMetadataKeyIsUnicodeTextInBothDirections() {
    ServiceInstance instance = ServiceInstance.of(InetSocketAddress.createUnresolved("h", 1));
    assertThatThrownBy(() -> instance.withMetadata(Map.of("lone\ud800", "v")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unpaired surrogate");
    assertThatThrownBy(() -> read("{\"address\":\"h:1\",\"metadata\":{\"lone\\ud800\":\"v\"}}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageMatching(".*(surrogate|Surrogate).*");
    assertThat(instance.withMetadata(Map.of("pair😀", "lone\ud800")).metadata()).containsKey("pair😀");
  }
}
