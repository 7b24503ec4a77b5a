package io.boltgen.bench.sofarpc;

import io.boltgen.bench.report.Golden;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.sofarpc.SofaRpcBench.Case;
import io.boltgen.bench.sofarpc.SofaRpcBench.Window;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sofarpc report rendered from fixed results must come out as in its golden files, to the character: a full run
 * (both serializers, three rounds, a noisy window, one measured again, errors, a side not measured, caveats and
 * failures) and a run of one round of one serializer.
 */
class SofaRpcReportGoldenTest {

  private static final Map<String, String> MACHINE = Golden.machine("memory", "kernel");

  private static final Instant STARTED = Instant.parse("2026-12-04T05:06:07Z");

  private static SofaRpcBench.Settings settings(List<String> serializers, int rounds, List<String> caveats) {
    return new SofaRpcBench.Settings(serializers, rounds, Duration.ofSeconds(10), Duration.ofMillis(2500), 32, 128,
        "peer.jar", QuietPolicy.DEFAULT, List.of("-Xmx1g", "-XX:+UseG1GC"), Path.of("logs"),
        Path.of("docs/benchmarks-sofarpc.md"), "java -jar bolt-benchmarks/target/bolt-benchmarks.jar sofarpc", caveats);
  }

  private static Window window(Case c, String side, int round, int k) {
    boolean boltgen = side.equals(SofaRpcBench.BOLTGEN);
    double rate = (c.sync() ? 21_000 : 64_000) * (boltgen ? 1.4 : 1.0) * (1 + 0.05 * round - 0.02 * k);
    long errors = c.serializer().equals("hessian2") && !boltgen && round == 2 ? 4 : 0;
    boolean noisy = k == 3 && round == 1;
    return new Window(c, side, round, Math.round(rate * 2.5), errors, errors > 0 ? "TIMEOUT x" : "", 2.5,
        c.concurrency() * 1e6 / rate, 3.1 * c.concurrency() * 1e6 / rate, (boltgen ? 18.5 : 27.0) - round,
        noisy ? 12.5 : round == 3 ? Double.NaN : 0.75 * round, noisy ? 3 : k == 1 && round == 2 ? 2 : 1, noisy);
  }

  @Test
  void aFullRun() {
    SofaRpcBench.Settings s = settings(SofaRpcBench.SERIALIZERS, 3, List.of("shorter windows"));
    List<Window> windows = new ArrayList<>();
    for (int round = 1; round <= 3; round++) {
      int k = 0;
      for (Case c : s.cases()) {
        windows.add(window(c, SofaRpcBench.BOLTGEN, round, k));
        if (k != 2) {
          windows.add(window(c, SofaRpcBench.SOFARPC, round, k));
        }
        k++;
      }
    }
    SofaRpcBench.Result r = new SofaRpcBench.Result(windows, List.of("hessian2 sync-32 sofarpc: consumer failed"),
        List.of("shorter windows"));
    Golden.check("sofarpc-full.md", SofaRpcReport.markdown(s, r, MACHINE, "1.00 2.00 3.00", STARTED,
        Duration.ofSeconds(1234)));
    Golden.check("sofarpc-full-console.txt", SofaRpcReport.console(s, r));
    StringBuilder lines = new StringBuilder();
    windows.forEach(w -> lines.append(SofaRpcReport.describe(w)).append('\n'));
    Golden.check("sofarpc-progress.txt", lines.toString());
  }

  @Test
  void aRunOfOneRound() {
    SofaRpcBench.Settings s = settings(List.of("protobuf"), 1, List.of());
    List<Window> windows = new ArrayList<>();
    for (Case c : s.cases()) {
      windows.add(window(c, SofaRpcBench.SOFARPC, 1, 0));
      windows.add(window(c, SofaRpcBench.BOLTGEN, 1, 0));
    }
    SofaRpcBench.Result r = new SofaRpcBench.Result(windows, List.of(), List.of());
    Golden.check("sofarpc-one-round.md", SofaRpcReport.markdown(s, r, MACHINE, "1.00 2.00 3.00", STARTED,
        Duration.ofSeconds(44)));
    Golden.check("sofarpc-one-round-console.txt", SofaRpcReport.console(s, r));
  }
}
