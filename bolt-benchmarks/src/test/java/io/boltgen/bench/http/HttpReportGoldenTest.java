package io.boltgen.bench.http;

import io.boltgen.bench.http.HttpBench.Case;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.report.Golden;
import io.boltgen.bench.report.Spread;
import io.boltgen.bench.run.HttpWindow;
import io.boltgen.bench.scenario.QuietPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The http report rendered from fixed results must come out as in its golden files, to the character: a full run
 * (three rounds, a case not measured, errors, a noisy window, both codecs), a run whose cases failed with one codec
 * measured, and a run without codecs.
 */
class HttpReportGoldenTest {

  private static final Map<String, String> MACHINE = Golden.machine("memory", "kernel");

  private static final Instant STARTED = Instant.parse("2026-12-03T01:02:03Z");

  private static HttpBench.Settings settings(int rounds, CodecBench.Settings jmh, List<String> caveats) {
    return new HttpBench.Settings(List.of(Case.values()), rounds, Duration.ofSeconds(5), Duration.ofMillis(2500), 64, 2,
        100, QuietPolicy.DEFAULT, List.of("-Xmx1g"), Path.of("logs"), "127.0.0.1", Path.of("/usr/bin/wrk"), jmh,
        Path.of("docs/benchmarks-http.md"), "java -jar bolt-benchmarks/target/bolt-benchmarks.jar http", caveats);
  }

  private static HttpWindow window(Case c, int round, double rate) {
    boolean errors = c == Case.HTTP_PROTO && round == 2;
    boolean noisy = c == Case.NETTY_HTTP && round == 3;
    double r = rate * (1 + 0.04 * round - 0.01 * round * round);
    return new HttpWindow(c.id, round, Math.round(r * 2.5), 2.5, r, 1_000_000 * 64 / r, 2_400_000 * 64 / r,
        12.5 + round, 30.25 - round, 9.5, errors ? 3 : 0, errors ? "non-2xx 2 | timeouts 1" : "",
        noisy ? 14.5 : 0.5 * round, noisy ? 3 : round == 1 ? 2 : 1, noisy);
  }

  private static Map<String, CodecBench.Score> ops(double ns, double bytes) {
    Map<String, CodecBench.Score> ops = new LinkedHashMap<>();
    ops.put("encode", score(ns * 0.4, bytes * 0.3));
    ops.put("decode", score(ns * 0.6, bytes * 0.7));
    ops.put("roundTrip", score(ns, bytes));
    return ops;
  }

  private static CodecBench.Score score(double ns, double bytes) {
    return new CodecBench.Score(Spread.of(List.of(ns * 0.98, ns, ns * 1.07)), Spread.of(List.of(bytes, bytes, bytes)));
  }

  private static Map<Case, String> bodies() {
    Map<Case, String> bodies = new EnumMap<>(Case.class);
    bodies.put(Case.HTTP_JSON, "142 B of JSON");
    bodies.put(Case.HTTP_PROTO, "103 B of protobuf");
    bodies.put(Case.NETTY_HTTP, "100 B raw");
    return bodies;
  }

  private static List<HttpBench.Round> rounds(int n) {
    List<HttpBench.Round> rounds = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      rounds.add(new HttpBench.Round(i, List.of(Case.values()), "0." + i + " 0.5 0.6", "1." + i + " 0.7 0.8"));
    }
    return rounds;
  }

  @Test
  void aFullRun() {
    List<HttpWindow> windows = new ArrayList<>();
    for (int round = 1; round <= 3; round++) {
      windows.add(window(Case.HTTP_JSON, round, 61_000));
      windows.add(window(Case.HTTP_PROTO, round, 72_500));
      windows.add(window(Case.NETTY_HTTP, round, 101_000));
    }
    Map<String, Map<String, CodecBench.Score>> codecs = new LinkedHashMap<>();
    codecs.put("protobuf", ops(1_250, 2_712));
    codecs.put("json", ops(2_480, 6_144));
    HttpBench.Result r = new HttpBench.Result(windows, rounds(3), Map.of(Case.BOLT, "no Bolt client JVM"), bodies(),
        codecs, Map.of("protobuf", 633, "json", 1_021), List.of("bolt: the client JVM did not start; log: x.log"),
        List.of("shorter windows"));
    HttpBench.Settings s = settings(3, new CodecBench.Settings(3, 3, 5, 1000, List.of("-Xmx1g"), null),
        List.of("shorter windows"));
    Golden.check("http-full.md", HttpReport.markdown(s, r, MACHINE, "1.00 2.00 3.00", STARTED,
        Duration.ofSeconds(612)));
    Golden.check("http-full-console.txt", HttpReport.console(s, r));
    StringBuilder lines = new StringBuilder();
    windows.forEach(w -> lines.append(HttpReport.describe(w.caseId(), w)).append('\n'));
    Golden.check("http-progress.txt", lines.toString());
  }

  @Test
  void aRunWhoseCasesFailedWithOneCodecAndARunWithoutCodecs() {
    List<HttpWindow> windows = List.of(window(Case.HTTP_JSON, 1, 58_000), window(Case.BOLT, 1, 120_000));
    HttpBench.Result failed = new HttpBench.Result(windows, rounds(1), Map.of(), bodies(),
        Map.of("protobuf", ops(1_250, 2_712)), Map.of("protobuf", 633), List.of("http-proto: wrk failed"), List.of());
    HttpBench.Settings s = settings(1, new CodecBench.Settings(1, 1, 1, 100, List.of(), null), List.of());
    Golden.check("http-failed.md", HttpReport.markdown(s, failed, MACHINE, "1.00 2.00 3.00", STARTED,
        Duration.ofSeconds(45)));
    Golden.check("http-failed-console.txt", HttpReport.console(s, failed));

    HttpBench.Result none = new HttpBench.Result(List.of(), List.of(), Map.of(), Map.of(), null, Map.of(), List.of(),
        List.of());
    HttpBench.Settings noJmh = settings(2, null, List.of());
    Golden.check("http-nothing.md", HttpReport.markdown(noJmh, none, MACHINE, "1.00 2.00 3.00", STARTED,
        Duration.ofSeconds(5)));
    Golden.check("http-nothing-console.txt", HttpReport.console(noJmh, none));
  }
}
