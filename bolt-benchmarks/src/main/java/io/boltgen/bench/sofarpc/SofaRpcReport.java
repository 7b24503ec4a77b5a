package io.boltgen.bench.sofarpc;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.Markdown;
import io.boltgen.bench.report.Quiet;
import io.boltgen.bench.report.Spread;
import io.boltgen.bench.report.Table;
import io.boltgen.bench.sofarpc.SofaRpcBench.Case;
import io.boltgen.bench.sofarpc.SofaRpcBench.Result;
import io.boltgen.bench.sofarpc.SofaRpcBench.Settings;
import io.boltgen.bench.sofarpc.SofaRpcBench.Window;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The {@code sofarpc} command's tables and docs/benchmarks-sofarpc.md: per serializer and load, the boltgen client
 * beside the SOFARPC consumer (medians over rounds with their ranges) and their ratios, each the median of the
 * per-round paired ratios.
 */
public final class SofaRpcReport {

  private SofaRpcReport() {}

  /** One line per measured window, for the progress output. */
  public static String describe(Window w) {
    return String.format(Locale.ROOT, "%s %s, round %d: %s calls/s, p50 %s, p99 %s, %s µs CPU/call, %d errors,"
        + " others %.1f%% of a core%s", w.side(), w.c().id(), w.round(), Fmt.rate(w.rate()), Fmt.micros(w.p50Us()),
        Fmt.micros(w.p99Us()), Fmt.num(w.cpuUsPerCall(), 1), w.errors(), w.otherCpuPercent(),
        w.noisy() ? " (NOISY)" : w.attempts() > 1 ? " (attempt " + w.attempts() + ")" : "");
  }

  /** The tables, as printed at the end of a run. */
  public static String console(Settings s, Result r) {
    return tables(s, r, "");
  }

  private static String tables(Settings s, Result r, String headingPrefix) {
    StringBuilder md = new StringBuilder();
    for (Case c : s.cases()) {
      Table t = new Table("llllll", "client", "calls/s", "p50", "p99", "client CPU µs/call", "errors");
      List<Window> b = of(r, c, SofaRpcBench.BOLTGEN);
      List<Window> o = of(r, c, SofaRpcBench.SOFARPC);
      row(t, "boltgen client", b);
      row(t, "SOFARPC consumer", o);
      t.row("boltgen ÷ SOFARPC", ratio(b, o, Window::rate), ratio(b, o, Window::p50Us), ratio(b, o, Window::p99Us),
          ratio(b, o, Window::cpuUsPerCall), "");
      List<String> noisy = r.windows().stream().filter(w -> w.c().equals(c) && w.noisy())
          .map(w -> w.side() + " (round " + w.round() + ")").toList();
      md.append(headingPrefix).append(title(c)).append("\n\n").append(t.markdown())
          .append(noisy.isEmpty() ? "" : "\n" + Markdown.list(List.of(Markdown.noisy("took", "", noisy)))).append('\n');
    }
    return md.toString();
  }

  private static String title(Case c) {
    String call = c.serializer().equals("protobuf") ? "protobuf, `EchoService.echo` of a 100-letter text"
        : "Hessian2, `GreetService.greet` of a small Greeting";
    String load = c.sync() ? c.concurrency() + " threads making blocking calls"
        : c.concurrency() + " calls in flight";
    return c.id() + ": " + call + ", " + load;
  }

  private static List<Window> of(Result r, Case c, String side) {
    return r.windows().stream().filter(w -> w.c().equals(c) && w.side().equals(side)).toList();
  }

  private static void row(Table t, String label, List<Window> ws) {
    if (ws.isEmpty()) {
      t.row(label, "not measured", "", "", "", "");
      return;
    }
    t.row(label, Spread.over(ws, Window::rate).format(Fmt::rate), Spread.over(ws, Window::p50Us).format(Fmt::micros),
        Spread.over(ws, Window::p99Us).format(Fmt::micros),
        Spread.over(ws, Window::cpuUsPerCall).format(v -> Fmt.num(v, 1)), ws.stream().mapToLong(Window::errors).sum());
  }

  /** The median (and range) of boltgen's value over SOFARPC's in the same round. */
  private static String ratio(List<Window> b, List<Window> o, ToDoubleFunction<Window> f) {
    return Spread.of(b.stream().flatMap(x -> o.stream().filter(y -> x.round() == y.round())
        .map(y -> f.applyAsDouble(x) / f.applyAsDouble(y))).filter(Double::isFinite).toList()).ratio();
  }

  /** The whole of docs/benchmarks-sofarpc.md. */
  public static String markdown(Settings s, Result r, Map<String, String> machine, String loadAverageEnd,
      Instant started, Duration took) {
    StringBuilder md = new StringBuilder();
    md.append(Markdown.head("SOFARPC: a boltgen client beside a SOFARPC consumer, against one SOFARPC provider",
        SofaRpcReport.class, r.caveats(), r.failures(), started, took, s.command()));
    md.append(Markdown.machine(machine, loadAverageEnd));
    md.append("### How quiet it was\n\n").append(Quiet.method(" per measured window", false, "the benchmark JVM, the"
        + " provider's and the consumer's", s.quiet(), " under its table."));
    Table quiet = new Table("llllll", "side", "windows", "other CPU mean", "other CPU max", "kept noisy",
        "measured again");
    for (String side : List.of(SofaRpcBench.BOLTGEN, SofaRpcBench.SOFARPC)) {
      String[] c = Quiet.cells(r.windows().stream().filter(w -> w.side().equals(side))
          .map(w -> new Quiet(w.otherCpuPercent(), w.noisy(), w.attempts())).toList());
      quiet.row(side, c[0], c[1], c[2], c[3], c[4]);
    }
    md.append(quiet.markdown());
    md.append('\n').append(Markdown.fill("sofarpc-settings.md", "threads", s.threads(), "inFlight", s.inFlight(),
        "rounds", s.rounds(), "warmup", Fmt.seconds(s.warmup()), "measure", Fmt.seconds(s.measure()), "jvmFlags",
        String.join(" ", s.jvmFlags()), "partial", Markdown.partial(r.caveats())));
    md.append(tables(s, r, "### "));
    md.append(Markdown.resource("sofarpc-running.md"));
    return md.toString();
  }
}
