package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.http.HttpBench;
import io.boltgen.bench.jmh.JsonCodecBenchmark;
import io.netty.util.ResourceLeakDetector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code http} command as a user runs it, with 1 s windows and one round: a boltgen server JVM with http(true)
 * loaded by wrk with JSON and with protobuf bodies, the same server loaded by the Bolt client JVM, a raw Netty HTTP
 * echo loaded by wrk, a tiny in-process JMH pass of the JSON and protobuf codecs, the report written. It checks that
 * every row measured something without an error, never how fast.
 */
class HttpBenchmarkSmokeTest {

  @Test
  @Timeout(120)
  void measuresEveryCaseWithoutErrorsAndReports(@TempDir Path dir) throws Exception {
    Path report = dir.resolve("benchmarks-http.md");
    List<String> argv = new ArrayList<>(List.of("http", "--warmup", "1", "--measure", "1", "--rounds", "1",
        "--quiet-repeats", "0", "--jvm-flags", String.join(" ", BenchmarkSmokeTest.SMALL_JVMS),
        "--log-dir", dir.resolve("logs").toString(), "--jmh-forks", "0", "--jmh-warmup", "1", "--jmh-iterations", "1",
        "--jmh-time", "0.1", "--out", report.toString()));
    assertThat(JsonCodecBenchmark.jsonMarshaller()).as("the generated JSON codec of the benchmark's Order").isNotNull();

    // as in BenchmarkSmokeTest: the in-process JMH pass must not time paranoid leak detection, nor wait for JMH's lock
    ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    String ignoreLock = System.setProperty("jmh.ignoreLock", "true");
    int exit;
    try {
      exit = Main.commandLine().execute(argv.toArray(String[]::new));
    } finally {
      ResourceLeakDetector.setLevel(level);
      if (ignoreLock == null) {
        System.clearProperty("jmh.ignoreLock");
      } else {
        System.setProperty("jmh.ignoreLock", ignoreLock);
      }
    }

    String md = Files.readString(report, StandardCharsets.UTF_8);
    assertThat(exit).as("exit code").isZero();
    assertThat(md).contains("## Machine").contains("### How quiet it was").contains("## Targets")
        .contains("Not a full measurement").contains(" http --warmup 1 --measure 1 --rounds 1");
    for (HttpBench.Case c : HttpBench.Case.values()) {
      String row = md.lines().filter(l -> l.startsWith("| " + c.label + " |")).findFirst().orElse(null);
      assertThat(row).as("the row of " + c.label).isNotNull();
      List<String> cells = List.of(row.substring(2, row.length() - 2).split(" \\| ", -1));
      assertThat(rate(cells.get(1))).as(c.label + " calls/s").isPositive();
      assertThat(cells.get(6)).as(c.label + " errors").isEqualTo("0");
      assertThat(Double.parseDouble(cells.get(4))).as(c.label + " server CPU µs/call").isPositive();
      assertThat(Double.parseDouble(cells.get(5))).as(c.label + " machine CPU µs/call").isPositive();
    }
    assertThat(md).contains("| protobuf |").contains("| json |").doesNotContain("not measured");
  }

  /** {@code 812}, {@code 53.1k}, {@code 1.52M} as a number. */
  private static double rate(String cell) {
    String s = cell.trim().toLowerCase(Locale.ROOT);
    double scale = s.endsWith("k") ? 1e3 : s.endsWith("m") ? 1e6 : 1;
    return Double.parseDouble(scale == 1 ? s : s.substring(0, s.length() - 1)) * scale;
  }
}
