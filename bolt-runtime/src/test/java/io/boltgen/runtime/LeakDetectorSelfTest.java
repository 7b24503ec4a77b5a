package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.testing.LeakRecorder;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Proves the build's leak check is armed: a buffer dropped without release is reported. */
class LeakDetectorSelfTest {

  @Test
  void anUnreleasedBufferIsReported() {
    assertThat(LeakRecorder.isInstalled()).isTrue();
    LeakRecorder.collect(); // start clean
    leakOne();
    List<String> leaks = new ArrayList<>();
    for (int attempt = 0; attempt < 20 && leaks.isEmpty(); attempt++) {
      leaks.addAll(LeakRecorder.collect());
    }
    // collect() hands the report to this test, so the class itself does not fail
    assertThat(leaks).anySatisfy(leak -> assertThat(leak).contains("LEAK").contains("leakOne"));
  }

  private static void leakOne() {
    ByteBufAllocator.DEFAULT.directBuffer(16).writeLong(42); // never released
  }
}
