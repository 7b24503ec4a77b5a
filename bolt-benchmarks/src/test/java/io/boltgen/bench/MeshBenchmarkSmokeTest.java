package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.mesh.MeshBench;
import io.boltgen.bench.mesh.MeshRun;
import io.boltgen.bench.run.Wrk;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code mesh} command with {@code --smoke}, as a user would type it: a real etcd, three provider JVMs, the
 * gateway JVM loaded by a real wrk at 8 and 16 connections, the direct client, a 1 s freeze of the large provider,
 * the report and its chart written to a temporary directory. It checks what must hold at any speed: every point
 * answered calls without an error, each took at least the providers' 50 ms, no provider ran more than its 200
 * calls at once, every provider got calls, the freeze was sent and sampled, and the report names the command.
 */
class MeshBenchmarkSmokeTest {

  @Test
  @Timeout(120)
  void runsEveryScenarioWithoutErrorsAndReports(@TempDir Path dir) throws Exception {
    long t0 = System.nanoTime();
    // a real etcd and a real wrk: their absence is a failure that says how to install them, never a skip
    assertThat(onPath("etcd")).as("no etcd on the PATH: run scripts/ensure-etcd.sh (Debian's etcd-server)").isTrue();
    assertThat(onPath("wrk")).as("no wrk on the PATH: " + Wrk.MISSING + ", or scripts/ensure-tools.sh").isTrue();
    Path docs = dir.resolve("docs");
    String[] argv = {"mesh", "--smoke", "--jvm-flags", String.join(" ", BenchmarkSmokeTest.SMALL_JVMS),
        "--quiet-repeats", "0", "--log-dir", dir.resolve("logs").toString(), "--out", docs.toString()};
    MeshBench.Settings settings = settings(argv);
    assertThat(settings.connections()).containsExactly(8, 16);
    assertThat(settings.outDir()).isEqualTo(docs);

    MeshBench.Result result = MeshRun.execute(settings, new PrintStream(System.out, true, StandardCharsets.UTF_8));

    assertThat(result.failures()).isEmpty();
    assertThat(result.points()).extracting(p -> p.mode() + "-c" + p.connections())
        .containsExactly("least-pending-c8", "least-pending-c16", "direct-c8", "direct-c16");
    for (MeshBench.Window p : result.points()) {
      String point = p.mode() + "-c" + p.connections();
      assertThat(p.qps()).as(point + " QPS").isPositive();
      assertThat(p.qps()).as(point + " QPS within the ceiling, 5% for timing").isLessThan(p.ceiling() * 1.05);
      assertThat(p.errors()).as(point + " errors: " + p.errorText()).isZero();
      assertThat(p.p50Us()).as(point + " p50: every call sleeps 50 ms at its provider").isGreaterThanOrEqualTo(50_000);
      assertThat(p.mostAtOnce()).as(point + " most calls at once on a provider").isBetween(1, MeshBench.THREADS);
      assertThat(p.refused()).as(point + " calls refused by a provider's pool").isZero();
      assertThat(p.providerCalls()).as(point + " calls per provider, small to large").hasSize(3)
          .allSatisfy(calls -> assertThat(calls).isPositive());
      assertThat(p.cpuUsPerRequest()).as(point + " CPU per request").isPositive();
      assertThat(p.otherCpuPercent()).as(point + " other processes' CPU, measured").isNotNaN();
    }

    MeshBench.FreezeResult freeze = result.freeze();
    assertThat(freeze).as("the freeze").isNotNull();
    assertThat(freeze.stoppedAt()).as("SIGSTOP sent, seconds into the run").isBetween(1.0, 2.0);
    assertThat(freeze.continuedAt()).as("SIGCONT sent").isBetween(2.0, 3.0);
    assertThat(freeze.samples()).as("a sample every 250 ms of a 4 s run").hasSizeGreaterThanOrEqualTo(12);
    assertThat(freeze.samples()).anyMatch(MeshBench.Sample::frozen);
    assertThat(freeze.wrk().requests()).isPositive();
    assertThat(freeze.before()).as("calls/s before the freeze").isPositive();
    assertThat(freeze.mostAtOnce()).isBetween(1, MeshBench.THREADS);
    assertThat(freeze.minRegistered()).as("instances in etcd: a 10 s lease outlives a 1 s freeze").isEqualTo(3);

    Path md = docs.resolve("benchmarks-mesh.md");
    Path png = docs.resolve("img").resolve("mesh-qps.png");
    String report = Files.readString(md, StandardCharsets.UTF_8);
    assertThat(report).contains(" mesh --smoke --jvm-flags").contains("## Machine").contains("### How quiet it was")
        .contains("Not a full measurement").contains("### Through the gateway, least-pending (the default)")
        .contains("### Direct boltgen client").contains("## Freeze").contains("6,850").contains("7,144")
        .contains("img/mesh-qps.png").contains("weights 100 (small), 200 (medium) and 300 (large)");
    assertThat(report.lines().filter(l -> l.startsWith("| 16 | "))).as("a row at 16 connections per scenario")
        .hasSize(2);
    byte[] head = Arrays.copyOf(Files.readAllBytes(png), 8);
    assertThat(head).as("a PNG").isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
    System.out.printf("MeshBenchmarkSmokeTest took %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  /** The settings {@code argv} makes, as the command would run them (nothing runs). */
  static MeshBench.Settings settings(String... argv) {
    CommandLine.ParseResult parsed = Main.commandLine().parseArgs(argv);
    Mesh mesh = (Mesh) parsed.subcommand().commandSpec().userObject();
    return mesh.settings(Invocation.commandLine(argv));
  }

  private static boolean onPath(String program) {
    return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, program)));
  }
}
