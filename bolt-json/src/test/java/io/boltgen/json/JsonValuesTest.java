package io.boltgen.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The text forms of {@code google.protobuf.Timestamp} and {@code Duration} as protobuf writes them (0, 3, 6 or 9
 * digits of fraction), read back, and their ranges; lone surrogates found (how they are written: JsonWriterTest).
 * (The generated codecs using them are checked against protobuf-java-util's JsonFormat in bolt-processor's
 * JsonInteropTest.)
 */
class JsonValuesTest {

  @Test
  void timestampsAreUtcWithZeroThreeSixOrNineDigitsOfFraction() {
    assertThat(JsonValues.timestampText(0, 0)).isEqualTo("1970-01-01T00:00:00Z");
    assertThat(JsonValues.timestampText(0, 500_000_000)).isEqualTo("1970-01-01T00:00:00.500Z");
    assertThat(JsonValues.timestampText(-1, 1_000)).isEqualTo("1969-12-31T23:59:59.000001Z");
    assertThat(JsonValues.timestampText(0, 1)).isEqualTo("1970-01-01T00:00:00.000000001Z");
    assertThat(JsonValues.timestampText(JsonValues.TIMESTAMP_MIN_SECONDS, 0)).isEqualTo("0001-01-01T00:00:00Z");
    assertThat(JsonValues.timestampText(JsonValues.TIMESTAMP_MAX_SECONDS, 999_999_999))
        .isEqualTo("9999-12-31T23:59:59.999999999Z");
    assertThatThrownBy(() -> JsonValues.timestampText(JsonValues.TIMESTAMP_MAX_SECONDS + 1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the range of google.protobuf.Timestamp");
    assertThatThrownBy(() -> JsonValues.timestampText(JsonValues.TIMESTAMP_MIN_SECONDS - 1, 999_999_999))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JsonValues.timestampText(0, -1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void timestampsReadBackWithAnyOffset() {
    Random random = new Random(0x7157_A4BL);
    for (int i = 0; i < 5_000; i++) {
      long seconds = JsonValues.TIMESTAMP_MIN_SECONDS
          + (long) (random.nextDouble() * (JsonValues.TIMESTAMP_MAX_SECONDS - JsonValues.TIMESTAMP_MIN_SECONDS));
      int nanos = random.nextBoolean() ? 0 : random.nextInt(1_000_000_000);
      assertThat(JsonValues.parseTimestamp(JsonValues.timestampText(seconds, nanos)))
          .isEqualTo(Instant.ofEpochSecond(seconds, nanos));
    }
    assertThat(JsonValues.parseTimestamp("1970-01-01T01:00:00.5+01:00")).isEqualTo(Instant.ofEpochMilli(500));
    assertThat(JsonValues.parseTimestamp("1969-12-31T23:59:59.1-00:01")).isEqualTo(Instant.ofEpochSecond(59, 100_000_000));
    assertThat(JsonValues.parseTimestamp("2024-02-29T10:15:30.12Z")).isEqualTo(Instant.parse("2024-02-29T10:15:30.12Z"));
    for (String bad : new String[] {"", "1970-01-01T00:00:00", "1970-01-01T00:00:00z", "1970-01-01 00:00:00Z",
        "1970-01-01T00:00:00.Z", "1970-01-01T00:00:00.1234567891Z", "1970-01-01T00:00:00+24:00",
        "1970-01-01T00:00:00+1:00", "1970-13-01T00:00:00Z", "1970-01-01T24:00:00Z", "0000-12-31T23:59:59Z",
        "10000-01-01T00:00:00Z", "0001-01-01T00:00:00+00:01", "1970-01-01T00:00:00Z "}) {
      assertThatThrownBy(() -> JsonValues.parseTimestamp(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void durationsAreSecondsWithTheSignOfTheWholeAndZeroThreeSixOrNineDigitsOfFraction() {
    assertThat(JsonValues.durationText(0, 0)).isEqualTo("0s");
    assertThat(JsonValues.durationText(1, 500_000_000)).isEqualTo("1.500s");
    assertThat(JsonValues.durationText(-1, -500_000_000)).isEqualTo("-1.500s");
    assertThat(JsonValues.durationText(0, -1)).isEqualTo("-0.000000001s");
    assertThat(JsonValues.durationText(-JsonValues.DURATION_MAX_SECONDS, -999_999_999))
        .isEqualTo("-315576000000.999999999s");
    assertThatThrownBy(() -> JsonValues.durationText(JsonValues.DURATION_MAX_SECONDS + 1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the range of google.protobuf.Duration");
    assertThatThrownBy(() -> JsonValues.durationText(1, -1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void durationsReadBack() {
    Random random = new Random(0xD0_4A7L);
    for (int i = 0; i < 5_000; i++) {
      long seconds = random.nextLong() % (JsonValues.DURATION_MAX_SECONDS + 1);
      int nanos = random.nextBoolean() ? 0 : random.nextInt(1_000_000_000);
      if (seconds < 0 || (seconds == 0 && random.nextBoolean())) {
        nanos = -nanos;
      }
      assertThat(JsonValues.parseDuration(JsonValues.durationText(seconds, nanos)))
          .isEqualTo(Duration.ofSeconds(seconds, nanos));
    }
    assertThat(JsonValues.parseDuration("1.s")).isEqualTo(Duration.ofSeconds(1));
    assertThat(JsonValues.parseDuration("-0.5s")).isEqualTo(Duration.ofMillis(-500));
    assertThat(JsonValues.parseDuration("-0s")).isEqualTo(Duration.ZERO);
    for (String bad : new String[] {"", "s", "-s", "1", ".5s", "1S", "+1s", "1.5.5s", "1.0000000001s", "1e3s",
        "315576000001s", "9999999999999s", " 1s"}) {
      assertThatThrownBy(() -> JsonValues.parseDuration(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void aLoneSurrogateIsFound() {
    assertThat(JsonValues.loneSurrogate("x\ude00")).isEqualTo(1);
    assertThat(JsonValues.loneSurrogate("\ud83d\ude00\ud83d")).isEqualTo(2);
    assertThat(JsonValues.loneSurrogate("日本 😀")).isEqualTo(-1);
  }
}
