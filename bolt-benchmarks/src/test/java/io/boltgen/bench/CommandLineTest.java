package io.boltgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.bench.mesh.MeshBench;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command line as the documentation shows it: every command line of the benchmark in README, docs/benchmarks.md
 * (its "Running it" section as the next run will write it too), docs/scaling.md, docs/performance.md and run.sh is
 * parsed as written and made into the plan it would run, so that no documented command can drift from the options.
 */
class CommandLineTest {

  /** A command of the benchmark's jar (or of an older or newer build of it, or of run.sh), up to the line's end. */
  private static final Pattern COMMAND = Pattern.compile(
      "(?:java -jar (?:\\S*bolt-benchmarks\\.jar|old\\.jar|new\\.jar|<jar>)|bolt-benchmarks/run\\.sh)((?: [^`\\n]*)?)");

  /** The command lines of {@code text}, each as the words a shell would pass (quotes removed, lines continued). */
  static List<List<String>> commands(String text) {
    List<List<String>> commands = new ArrayList<>();
    Matcher m = COMMAND.matcher(text.replace("\\\n", " "));
    while (m.find()) {
      String rest = m.group(1).replaceAll("\\s+#.*$", "").trim(); // a comment after the command
      List<String> words = new ArrayList<>();
      Matcher w = Pattern.compile("'([^']*)'|\"([^\"]*)\"|(\\S+)").matcher(rest);
      while (w.find()) {
        words.add(w.group(1) != null ? w.group(1) : w.group(2) != null ? w.group(2) : w.group(3));
      }
      if (!words.contains("$@")) { // run.sh passing its own arguments on
        commands.add(words);
      }
    }
    return commands;
  }

  private static String read(String file) throws IOException {
    return Files.readString(Invocation.repoRoot().resolve(file), StandardCharsets.UTF_8);
  }

  @Test
  void everyDocumentedCommandParsesIntoAPlan() throws IOException {
    String running;
    try (var in = Bench.class.getResourceAsStream("report/benchmarks-running.md")) {
      running = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String[][] sources = {{"README.md", null}, {"docs/benchmarks.md", null}, {"docs/scaling.md", null},
        {"docs/performance.md", null}, {"bolt-benchmarks/run.sh", null}, {"benchmarks-running.md", running},
        {"docs/observability.md", null}, {"docs/generated-code.md", null}, {"docs/benchmarks-http.md", null},
        {"docs/benchmarks-mesh.md", null}, {"docs/benchmarks-sofarpc.md", null}, {"docs/benchmarks-cluster.md", null},
        {"docs/benchmarks-tls.md", null}, {"docs/benchmarks-virtual-threads.md", null}};
    int[] least = {0, 14, 1, 4, 4, 12, 1, 1, 1, 1, 1, 1, 1, 1};
    for (int i = 0; i < sources.length; i++) {
      String text = sources[i][1] != null ? sources[i][1] : read(sources[i][0]);
      List<List<String>> commands = commands(text);
      assertThat(commands).as(sources[i][0]).hasSizeGreaterThanOrEqualTo(least[i]);
      for (List<String> argv : commands) {
        // a command that runs a plan makes it (nothing runs); the others must parse
        Main.plan(argv.toArray(String[]::new));
      }
    }
    assertThat(commands("""
        java -jar bolt-benchmarks/target/bolt-benchmarks.jar load --systems boltgen \\
            --server-jvm-args "-XX:StartFlightRecording=filename=s.jfr" --runs 1   # one run
        """))
        .containsExactly(List.of("load", "--systems", "boltgen", "--server-jvm-args",
            "-XX:StartFlightRecording=filename=s.jfr", "--runs", "1"));
  }

  @Test
  void aFullRunWritesTheDocsAndASubsetDoesNot() {
    Bench.Plan full = Main.plan();
    assertThat(full.caveats()).isEmpty();
    assertThat(full.load().runs()).isEqualTo(3);
    assertThat(full.jmh().forks()).isEqualTo(3);
    assertThat(full.docs().toString()).endsWith("docs/benchmarks.md");
    assertThat(full.scalingDocs().toString()).endsWith("docs/scaling.md");
    assertThat(full.scaling().windows()).isEqualTo(3 * 19);
    assertThat(full.load().windows()).isEqualTo(3 * 17 * 5);

    // a selection holding every Targets comparator: a full report, with the scaling curves
    Bench.Plan chosen = Main.plan("all", "--systems", "boltgen,boltgen-io,sofabolt-fc,sofabolt-io,grpc-direct,netty",
        "--warmup", "5", "--measure", "5", "--scaling-warmup", "2", "--scaling-measure", "4");
    assertThat(chosen.caveats()).isEmpty();
    assertThat(chosen.docs()).isNotNull();
    assertThat(chosen.load().windows()).isEqualTo(3 * 6 * 5);

    Bench.Plan one = Main.plan("load", "--systems", "boltgen", "--workloads", "async-256", "--payloads", "100", "--runs",
        "1");
    assertThat(one.docs()).isNull();
    assertThat(one.jmh()).isNull();
    assertThat(one.caveats()).contains("a subset of the systems, cases or codecs");
    assertThat(one.command()).endsWith(" load --systems boltgen --workloads async-256 --payloads 100 --runs 1");

    Bench.Plan quick = Main.plan("--quick");
    assertThat(quick.load().runs()).isEqualTo(1);
    assertThat(quick.caveats()).containsExactly("--quick: one run with short windows and one JMH fork");
    assertThat(Main.plan("scaling", "--inflight", "1,4").scalingDocs()).isNull();
    assertThat(Main.plan("scaling").scalingDocs().toString()).endsWith("docs/scaling.md");
    assertThat(Main.plan("cluster", "--rounds", "1").caveats()).hasSize(1);
  }

  @Test
  void meshMakesTheReportsSettingsByDefaultAndSaysWhatASmallerRunLeavesOut() {
    MeshBench.Settings full = MeshBenchmarkSmokeTest.settings("mesh");
    assertThat(full.caveats()).isEmpty();
    assertThat(full.connections()).containsExactly(128, 256, 512);
    assertThat(full.policies()).containsExactly(BalancingPolicy.LEAST_PENDING, BalancingPolicy.ROUND_ROBIN,
        BalancingPolicy.WEIGHTED_RANDOM);
    assertThat(full.direct()).isTrue();
    assertThat(full.warmup()).isEqualTo(Duration.ofSeconds(10));
    assertThat(full.duration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(full.freeze()).isEqualTo(new MeshBench.Freeze(512, Duration.ofSeconds(10), Duration.ofSeconds(10),
        Duration.ofSeconds(40)));
    assertThat(full.leaseSeconds()).isEqualTo(10);
    assertThat(full.outDir().toString()).endsWith("docs");
    assertThat(full.command()).endsWith(" mesh");
    assertThat(MeshBench.estimate(full)).as("12 points of 40 s, 6 JVMs started, the freeze").isEqualTo(Duration.ofSeconds(
        12 * 40 + 5 * 6 + 10 + 40 + 5));

    MeshBench.Settings smoke = MeshBenchmarkSmokeTest.settings("mesh", "--smoke");
    assertThat(smoke.connections()).containsExactly(8, 16);
    assertThat(smoke.policies()).containsExactly(BalancingPolicy.LEAST_PENDING);
    assertThat(smoke.freeze()).isEqualTo(new MeshBench.Freeze(16, Duration.ofSeconds(1), Duration.ofSeconds(1),
        Duration.ofSeconds(4)));
    assertThat(smoke.caveats()).hasSize(1);
    assertThat(smoke.outDir()).as("a partial run leaves docs/ alone unless --out says where").isNull();

    MeshBench.Settings some = MeshBenchmarkSmokeTest.settings("mesh", "--connections", "64", "--policies",
        "round-robin,WEIGHTED_RANDOM", "--no-direct", "--no-freeze", "--duration", "5", "--out", "x");
    assertThat(some.connections()).containsExactly(64);
    assertThat(some.policies()).containsExactly(BalancingPolicy.ROUND_ROBIN, BalancingPolicy.WEIGHTED_RANDOM);
    assertThat(some.direct()).isFalse();
    assertThat(some.freeze()).isNull();
    assertThat(some.caveats()).hasSize(4);
    assertThat(some.outDir()).isEqualTo(java.nio.file.Path.of("x"));

    StringWriter err = new StringWriter();
    assertThat(Main.commandLine().setErr(new PrintWriter(err, true)).execute("mesh", "--policies", "fastest"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("error: unknown policy fastest; known: ").contains("least-pending");
    assertThat(run("help", "mesh")).contains("--connections=LIST", "--warmup=S", "--duration=S", "--policies=LIST",
        "--[no-]freeze", "--freeze-at=S", "--lease-ttl=S", "--smoke", "--out=DIR");
  }

  @Test
  void helpListsTheCommandsAndEachCommandItsOptions() {
    // every command, and every option of each
    assertThat(run("help")).startsWith("Usage: java -jar bolt-benchmarks.jar [OPTIONS] [COMMAND]")
        .contains("  load ", "  scaling ", "  jmh ", "  cluster ", "  mesh ", "  sofarpc ", "  compile ", "  server ", "  systems ")
        .contains("--scaling-systems=LIST", "--slow-ms=M", "--policies=LIST", "--services=N", "--port=P")
        .doesNotContainPattern("(?m)^  client ").doesNotContain("--warmup-points");
    assertThat(run("help", "load")).contains("--quiet-threshold=PCT", "--quiet-repeats=N", "--warmup-pass=S",
        "--keep-server", "--quiet-threshold=PCT");
    assertThat(run("help", "scaling")).contains("--scaling-measure=S", "--connections=LIST", "--systems=LIST");
    assertThat(run("all", "--help")).contains("--scaling-systems=LIST", "--jmh-include=REGEX");
    for (String command : List.of("cluster", "http", "sofarpc")) {
      assertThat(run("help", command)).contains("--out=FILE", "docs/benchmarks-" + command + ".md)", "--no-docs");
    }
  }

  @Test
  void aCommandLineItCannotRunIsAnsweredWithWhatIsWrongAndStatus2() {
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine().setErr(new PrintWriter(err, true));
    assertThat(cl.execute("load", "--sytems", "boltgen")).isEqualTo(2);
    assertThat(err.toString()).startsWith("error: Unknown options: '--sytems', 'boltgen'")
        .contains("Possible solutions: --systems", "('java -jar bolt-benchmarks.jar help load' lists its options)")
        .doesNotContain("Usage:");
    err.getBuffer().setLength(0);
    assertThat(cl.execute("load", "--systems", "thrift", "--no-docs")).isEqualTo(2);
    assertThat(err.toString()).contains("error: unknown system thrift");
  }

  private static String run(String... argv) {
    StringWriter out = new StringWriter();
    java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
    java.io.PrintStream err = System.err;
    System.setErr(new java.io.PrintStream(warnings, true, StandardCharsets.UTF_8)); // where picocli warns
    try {
      assertThat(Main.commandLine().setOut(new PrintWriter(out, true)).execute(argv)).isZero();
    } finally {
      System.setErr(err);
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8)).as("picocli's warnings").isEmpty();
    return out.toString();
  }
}
