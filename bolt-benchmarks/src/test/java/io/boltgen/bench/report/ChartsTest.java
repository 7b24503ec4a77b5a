package io.boltgen.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the charts' tests of the drawn PNGs cannot see: where the x axis puts its ticks. */
class ChartsTest {

  private static List<Charts.Panel> upTo(double x) {
    return List.of(new Charts.Panel("calls/s", false, Map.of("a", List.of(new double[] {1, 5}, new double[] {x, 9}))),
        new Charts.Panel("p99", true, Map.of("a", List.of(new double[] {2, Double.NaN}))));
  }

  @Test
  void aTickAtEveryPowerOfTwoUpTo16384AndOfFourBeyond() {
    assertThat(Charts.tickPowers(upTo(4096))).isEqualTo(1);
    assertThat(Charts.tickPowers(upTo(16384))).isEqualTo(1);
    assertThat(Charts.tickPowers(upTo(16385))).isEqualTo(2);
    assertThat(Charts.tickPowers(upTo(1 << 20))).isEqualTo(2);
    assertThat(Charts.tickPowers(List.of())).as("no data").isEqualTo(1);
  }
}
