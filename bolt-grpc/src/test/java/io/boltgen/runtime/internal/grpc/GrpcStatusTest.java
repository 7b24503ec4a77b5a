package io.boltgen.runtime.internal.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What gRPC's trailers say of a status: the message's percent-encoding, the timeout's units, the detail's reason. */
class GrpcStatusTest {

  @Test
  void aReasonIsTheExceptionsNameInUpperSnakeCase() {
    assertThat(GrpcStatus.reason("UnknownSkuException")).isEqualTo("UNKNOWN_SKU_EXCEPTION");
    assertThat(GrpcStatus.reason("UnknownSKUException")).isEqualTo("UNKNOWN_SKU_EXCEPTION");
    assertThat(GrpcStatus.reason("HTTP2Failure")).isEqualTo("HTTP2_FAILURE");
    assertThat(GrpcStatus.reason("Out$Of$Stock")).isEqualTo("OUT_OF_STOCK");
    assertThat(GrpcStatus.reason("X")).isEqualTo("X");
  }

  @Test
  void aMessageIsPercentEncodedUtf8() {
    assertThat(GrpcStatus.encodeMessage("no such SKU: kiwi")).isEqualTo("no such SKU: kiwi");
    assertThat(GrpcStatus.encodeMessage("100% é\n")).isEqualTo("100%25 %C3%A9%0A");
    assertThat(GrpcStatus.encodeMessage("x".repeat(5000))).isEqualTo("x".repeat(1021) + "%E2%80%A6");
    // cut at whole code points, however long each one's UTF-8 is
    assertThat(GrpcStatus.encodeMessage("é".repeat(1000))).isEqualTo("%C3%A9".repeat(510) + "%E2%80%A6");
    assertThat(GrpcStatus.cut("🌍".repeat(300), 1024)).isEqualTo("🌍".repeat(255) + "…");
    assertThat(GrpcStatus.cut("short", 1024)).isEqualTo("short");
  }

  @Test
  void aTimeoutIsRoundedUpToAMillisecondInEveryUnit() {
    assertThat(GrpcCalls.parseTimeout("1H")).isEqualTo(3_600_000);
    assertThat(GrpcCalls.parseTimeout("2M")).isEqualTo(120_000);
    assertThat(GrpcCalls.parseTimeout("3S")).isEqualTo(3_000);
    assertThat(GrpcCalls.parseTimeout("250m")).isEqualTo(250);
    assertThat(GrpcCalls.parseTimeout("1500u")).isEqualTo(2);
    assertThat(GrpcCalls.parseTimeout("1n")).isEqualTo(1);
    assertThat(GrpcCalls.parseTimeout("0S")).isEqualTo(1);
    assertThat(GrpcCalls.parseTimeout("99999999H")).isEqualTo(99_999_999L * 3_600_000);
    assertThat(GrpcCalls.parseTimeout("123456789S")).isEqualTo(-1);
    assertThat(GrpcCalls.parseTimeout("S")).isEqualTo(-1);
    assertThat(GrpcCalls.parseTimeout("10s")).isEqualTo(-1);
    assertThat(GrpcCalls.parseTimeout("-1S")).isEqualTo(-1);
  }
}
