package io.boltgen.bench.mesh;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.run.Wrk;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The freeze's arithmetic on fixed samples: a rate between two times is taken from the samples at or just after
 * each, and the Lua script wrk runs draws a new text per request with a per-thread seed.
 */
class MeshTimelineTest {

  /** 100 calls per 250 ms sample (400/s), but 40 per sample from 1 s to 2 s. */
  private static List<MeshBench.Sample> samples() {
    List<MeshBench.Sample> samples = new ArrayList<>();
    long answered = 0;
    for (int k = 0; k <= 16; k++) {
      double t = k * 0.25;
      samples.add(new MeshBench.Sample(t, answered, -1, t >= 1 && t < 2));
      answered += t >= 1 && t < 2 ? 40 : 100;
    }
    return samples;
  }

  @Test
  void aRateIsTheCallsBetweenTheSamplesAtEachEndOverTheirTime() {
    List<MeshBench.Sample> samples = samples();
    assertThat(MeshBench.rate(samples, 0, 1)).isEqualTo(400);
    assertThat(MeshBench.rate(samples, 1, 2)).isEqualTo(160);
    assertThat(MeshBench.rate(samples, 0.1, 1)).as("from the sample at 0.25 s").isEqualTo(400);
    assertThat(MeshBench.rate(samples, 3, 10)).as("up to the last sample").isEqualTo(400);
    assertThat(MeshBench.rate(samples, 5, 6)).as("no sample after 5 s").isNaN();
    assertThat(MeshBench.rate(List.of(), 0, 1)).isNaN();
  }

  @Test
  void theScriptPostsARandomTextOfOneTo64LettersAndDigitsSeededPerThread() {
    String lua = Wrk.randomTextScript(7, 64);
    assertThat(lua).contains("wrk.method = \"POST\"").contains("wrk.headers[\"Content-Type\"] = \"application/json\"")
        .contains("math.randomseed(7 + number)").contains("math.random(1, 64)")
        .contains("function request()").contains("\"{\\\"text\\\": \\\"\" .. table.concat(chars) .. \"\\\"}\"");
  }

  @Test
  void theCeilingIsEveryConnectionOneCallPer50Ms() {
    assertThat(MeshBench.ceiling(128)).isEqualTo(2_560);
    assertThat(MeshBench.ceiling(256)).isEqualTo(5_120);
    assertThat(MeshBench.ceiling(512)).isEqualTo(10_240);
  }
}
