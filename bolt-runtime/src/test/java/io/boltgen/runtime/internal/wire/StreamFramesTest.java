package io.boltgen.runtime.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The credit a stream's request and its control frames carry: 1 to 1,024, anything else none. */
class StreamFramesTest {

  @Test
  void aRequestAsksForOneToTheMostCredit() {
    assertThat(StreamFrames.initialCredit(Map.of(StreamFrames.HEADER, "16"))).isEqualTo(16);
    assertThat(StreamFrames.initialCredit(Map.of(StreamFrames.HEADER, "1"))).isEqualTo(1);
    assertThat(StreamFrames.initialCredit(Map.of(StreamFrames.HEADER, "1024"))).isEqualTo(StreamFrames.MAX_CREDIT);
    assertThat(StreamFrames.initialCredit(Map.of(StreamFrames.HEADER, "1025"))).as("just over the most").isZero();
    assertThat(StreamFrames.initialCredit(Map.of(StreamFrames.HEADER, "0"))).isZero();
    assertThat(StreamFrames.initialCredit(Map.of(StreamFrames.HEADER, "99999"))).isZero();
    assertThat(StreamFrames.initialCredit(Map.of(StreamFrames.HEADER, "-1"))).isZero();
    assertThat(StreamFrames.initialCredit(Map.of(StreamFrames.HEADER, ""))).isZero();
    assertThat(StreamFrames.initialCredit(Map.of())).as("a request that asks no stream").isZero();
  }

  @Test
  void aControlFrameGrantsCreditOnlyAsCredit() {
    assertThat(StreamFrames.grantedCredit(Map.of(StreamFrames.HEADER, StreamFrames.CREDIT, StreamFrames.COUNT, "8")))
        .isEqualTo(8);
    assertThat(StreamFrames.grantedCredit(Map.of(StreamFrames.HEADER, StreamFrames.CREDIT, StreamFrames.COUNT,
        "1025"))).isZero();
    assertThat(StreamFrames.grantedCredit(Map.of(StreamFrames.HEADER, StreamFrames.CANCEL, StreamFrames.COUNT, "8")))
        .isZero();
    assertThat(StreamFrames.grantedCredit(Map.of(StreamFrames.HEADER, StreamFrames.CREDIT))).isZero();
  }
}
