package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.sofarpc.SofaRpcBench;
import io.boltgen.bench.sofarpc.SofaRpcRun;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code sofarpc} command as a user types it, with tiny windows and loads: a real SOFARPC 5.13.2 provider JVM,
 * the generated boltgen client in this JVM and the SOFARPC consumer JVM, both serializers, sync and async, the report
 * written to a temporary file. It checks that every row recorded calls, no errors and its client's CPU, never how
 * fast.
 */
class SofaRpcBenchmarkSmokeTest {

  @Test
  @Timeout(180)
  void everyRowOfBothSidesAnswersWithoutErrorsAndReports(@TempDir Path dir) throws Exception {
    long t0 = System.nanoTime();
    Path report = dir.resolve("benchmarks-sofarpc.md");
    String[] argv = {"sofarpc", "--rounds", "1", "--warmup", "0.5", "--measure", "1", "--threads", "4", "--in-flight",
        "16", "--quiet-repeats", "0", "--jvm-flags", String.join(" ", BenchmarkSmokeTest.SMALL_JVMS),
        "--peer-classpath", System.getProperty("sofarpc.peer.classpath", "../bolt-sofarpc-peer/target/peer.classpath"),
        "--log-dir", dir.resolve("logs").toString(), "--out", report.toString()};
    SofaRpcBench.Settings settings = settings(argv);
    assertThat(settings.cases()).extracting(SofaRpcBench.Case::id).containsExactly("protobuf sync-4",
        "protobuf async-16", "hessian2 sync-4", "hessian2 async-16");

    SofaRpcBench.Result result = SofaRpcRun.execute(settings, new PrintStream(System.out, true,
        StandardCharsets.UTF_8));

    assertThat(result.failures()).isEmpty();
    assertThat(result.windows()).hasSize(8);
    for (SofaRpcBench.Window w : result.windows()) {
      String row = w.side() + " " + w.c().id();
      assertThat(w.calls()).as(row + " calls").isPositive();
      assertThat(w.errors()).as(row + " errors: " + w.firstError()).isZero();
      assertThat(w.p99Us()).as(row + " p99").isGreaterThanOrEqualTo(w.p50Us()).isPositive();
      assertThat(w.cpuUsPerCall()).as(row + " client CPU per call").isPositive();
    }
    String md = Files.readString(report, StandardCharsets.UTF_8);
    assertThat(md).contains(" sofarpc --rounds 1").contains("## Machine").contains("### How quiet it was")
        .contains("Not a full measurement").contains("### protobuf async-16").contains("### hessian2 sync-4");
    assertThat(md.lines().filter(l -> l.startsWith("| boltgen ÷ SOFARPC |"))).hasSize(4);
    System.out.printf("SofaRpcBenchmarkSmokeTest took %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  /** The settings {@code argv} makes, as the command would run them (nothing runs). */
  static SofaRpcBench.Settings settings(String... argv) {
    CommandLine.ParseResult parsed = Main.commandLine().parseArgs(argv);
    SofaRpc command = (SofaRpc) parsed.subcommand().commandSpec().userObject();
    return command.settings(Invocation.commandLine(argv));
  }
}
