package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.compile.CompileCost;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The compile-cost command on one service, once: its sources compile cleanly with and without the processor
 * (under {@code -Xlint:all}), and the report says what was generated. It checks what was measured, never how
 * fast.
 */
class CompileCostTest {

  @Test
  void compilesWithAndWithoutTheProcessorAndReports() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = CompileCost.run(new CompileCost.Settings(1, 1), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isZero();
    assertThat(out).contains("1 services of 8 methods and 5 records (7 source files), 1 pairs")
        .contains("| first pair (cold JVM) |")
        // holder, stub, skeleton, protobuf codecs, JSON codecs, provider
        .containsPattern("Generated: 6 files, [0-9]+ lines");
  }
}
