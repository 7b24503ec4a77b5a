package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.fuzz.FrameFuzz;
import io.boltgen.bench.fuzz.FrameMutator;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The decoder fuzzer, seeded, in the suite: 50,000 mutated and valid frames through real sockets into a
 * real server, with the leak detector at paranoid (the suite's setting; a leak fails this class). No
 * connection may stall, the ordinary client calling alongside must never fail, and every connection must
 * be closed in the end. The long run (a million frames and more) is {@code bolt-benchmarks.jar fuzz}.
 */
class FrameFuzzTest {

  @Test
  void fiftyThousandFuzzedFramesNeitherStallNorLeakNorDisturbOtherCallers() throws Exception {
    FrameFuzz.Report report = FrameFuzz.run(FrameFuzz.Settings.of(20261130L, 50_000), null);
    System.out.println("fuzz: " + report);
    assertThat(report.frames()).isEqualTo(50_000);
    assertThat(report.stalls()).as("connections neither answered nor closed").isZero();
    assertThat(report.probes()).isPositive();
    assertThat(report.probeFailures()).as("failed calls of the ordinary client").isZero();
    assertThat(report.serverConnectionsAfter()).as("server connections left open").isZero();
  }

  @Test
  void theSameSeedGivesTheSameFrames() {
    FrameMutator a = new FrameMutator(7);
    FrameMutator b = new FrameMutator(7);
    for (int i = 0; i < 1_000; i++) {
      assertThat(Arrays.equals(a.next(), b.next())).isTrue();
    }
  }
}
