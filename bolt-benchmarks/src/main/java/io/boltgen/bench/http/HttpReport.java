package io.boltgen.bench.http;

import io.boltgen.bench.http.HttpBench.Case;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.report.CodecReport;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.Markdown;
import io.boltgen.bench.report.Quiet;
import io.boltgen.bench.report.Spread;
import io.boltgen.bench.report.Table;
import io.boltgen.bench.run.HttpWindow;
import io.boltgen.bench.service.EchoServiceBolt;
import io.boltgen.bench.system.Systems;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code http} command's report, docs/benchmarks-http.md: machine, how quiet it was, settings, one row per case
 * (median over rounds, range in brackets), the targets, and the JSON against protobuf codec table.
 */
public final class HttpReport {

  private HttpReport() {}

  /** One progress line for a window. */
  public static String describe(String label, HttpWindow w) {
    return String.format(java.util.Locale.ROOT, "%-22s %9s calls/s  p50 %9s  p99 %9s  server %6s µs/call  machine %6s"
            + " µs/call  errors %d%s%s", label, Fmt.rate(w.callsPerSecond()), Fmt.micros(w.p50Us()),
        Fmt.micros(w.p99Us()), Fmt.num(w.serverCpuUs(), 1), Fmt.num(w.machineCpuUs(), 1), w.errors(),
        w.errorText().isEmpty() ? "" : " (" + w.errorText() + ")", w.noisy() ? "  NOISY" : "");
  }

  /** The report. */
  public static String markdown(HttpBench.Settings s, HttpBench.Result r, Map<String, String> machine,
      String loadAverageEnd, Instant started, Duration took) {
    StringBuilder md = new StringBuilder();
    md.append(Markdown.head("Benchmarks: boltgen over HTTP (JSON and protobuf) beside Bolt and raw Netty HTTP",
        HttpReport.class, r.caveats(), r.failures(), started, took, s.command()));
    md.append(Markdown.machine(machine, loadAverageEnd));
    quiet(md, s, r);
    settings(md, s, r);
    results(md, r);
    targets(md, r);
    codecs(md, r);
    return md.toString();
  }

  private static void quiet(StringBuilder md, HttpBench.Settings s, HttpBench.Result r) {
    md.append("### How quiet it was\n\n");
    md.append(Quiet.method(" per measured window", true, "the benchmark's processes (`/proc/<pid>/stat`: the server"
        + " JVM, and wrk or the Bolt client JVM)", s.quiet(), "."));
    Table t = Quiet.byRun("round");
    for (HttpBench.Round round : r.rounds()) {
      Quiet.row(t, Integer.toString(round.round()), String.join(", ", round.order().stream().map(c -> c.id).toList()),
          quiet(r.windows().stream().filter(w -> w.round() == round.round()).toList()), round.loadAverageStart(),
          round.loadAverageEnd());
    }
    if (!r.rounds().isEmpty()) {
      Quiet.row(t, "all", "", quiet(r.windows()), r.rounds().get(0).loadAverageStart(),
          r.rounds().get(r.rounds().size() - 1).loadAverageEnd());
    }
    md.append(t.markdown()).append('\n');
  }

  private static List<Quiet> quiet(List<HttpWindow> ws) {
    return ws.stream().map(w -> new Quiet(w.otherCpuPercent(), w.noisy(), w.attempts())).toList();
  }

  private static void settings(StringBuilder md, HttpBench.Settings s, HttpBench.Result r) {
    CodecBench.Settings j = s.jmh();
    md.append(Markdown.fill("http-settings.md", "rounds", s.rounds(), "host", s.host(), "warmup",
        Fmt.seconds(s.warmup()), "measure", Fmt.seconds(s.measure()), "threads", s.threads(), "connections",
        s.connections(), "path", EchoServiceBolt.METHOD_ECHO.httpPath(), "boltPoint", s.boltPoint().id(), "payload",
        s.payloadBytes(), "boltgenHttp", Systems.byId("boltgen-http").description(), "nettyHttp",
        Systems.byId("netty-http").description(), "bodies", String.join("; ", r.bodies().entrySet().stream()
            .map(e -> e.getKey().label + ": " + e.getValue()).toList()), "jvmFlags", String.join(" ", s.jvmFlags()),
        "jmh", j == null ? "" : CodecReport.settings(j, false)));
  }

  private static void results(StringBuilder md, HttpBench.Result r) {
    md.append("## Results\n\n");
    Table t = new Table("lrrrrrr", "system/case", "calls/s", "p50", "p99", "server CPU µs/call", "machine CPU µs/call",
        "errors").spaced();
    for (Case c : Case.values()) {
      List<HttpWindow> ws = r.windows().stream().filter(w -> w.caseId().equals(c.id)).toList();
      if (r.notMeasured().containsKey(c)) {
        t.row(c.label, "not measured: " + r.notMeasured().get(c), "", "", "", "", "");
      } else if (ws.isEmpty() && r.bodies().containsKey(c)) {
        t.row(c.label, "failed (see above)", "", "", "", "", "");
      } else if (!ws.isEmpty()) {
        t.row(c.label, Spread.over(ws, HttpWindow::callsPerSecond).format(Fmt::rate),
            Spread.over(ws, HttpWindow::p50Us).format(Fmt::micros),
            Spread.over(ws, HttpWindow::p99Us).format(Fmt::micros),
            Spread.over(ws, HttpWindow::serverCpuUs).format(v -> Fmt.num(v, 1)),
            Spread.over(ws, HttpWindow::machineCpuUs).format(v -> Fmt.num(v, 1)),
            Markdown.errors(ws.stream().mapToLong(HttpWindow::errors).sum(), ws.stream().map(HttpWindow::errorText)
                .filter(e -> !e.isEmpty()).findFirst().orElse("")));
      }
    }
    md.append(t.markdown());
    md.append('\n');
    for (HttpWindow w : r.windows()) {
      if (w.noisy()) {
        md.append("NOISY: ").append(w.caseId()).append(" in round ").append(w.round()).append(": other processes took ")
            .append(Fmt.percent(w.otherCpuPercent())).append(" of a core in every attempt (").append(w.attempts())
            .append("); the quietest is kept.  \n");
      }
    }
    if (r.windows().stream().anyMatch(HttpWindow::noisy)) {
      md.append('\n');
    }
  }

  /** The per-round ratios of boltgen HTTP/JSON's calls/s to raw Netty HTTP's. */
  static Spread httpVsNetty(HttpBench.Result r) {
    List<Double> ratios = new ArrayList<>();
    for (HttpBench.Round round : r.rounds()) {
      HttpWindow json = window(r, round, Case.HTTP_JSON);
      HttpWindow netty = window(r, round, Case.NETTY_HTTP);
      if (json != null && netty != null && netty.callsPerSecond() > 0) {
        ratios.add(json.callsPerSecond() / netty.callsPerSecond());
      }
    }
    return Spread.of(ratios);
  }

  private static HttpWindow window(HttpBench.Result r, HttpBench.Round round, Case c) {
    return r.windows().stream().filter(w -> w.round() == round.round() && w.caseId().equals(c.id)).findFirst()
        .orElse(null);
  }

  /** JSON's round trip time over protobuf's (medians over forks); NaN without both. */
  static double jsonVsProtobuf(HttpBench.Result r) {
    if (r.codecs() == null || !r.codecs().containsKey("json") || !r.codecs().containsKey("protobuf")) {
      return Double.NaN;
    }
    CodecBench.Score json = r.codecs().get("json").get("roundTrip");
    CodecBench.Score proto = r.codecs().get("protobuf").get("roundTrip");
    return json == null || proto == null ? Double.NaN : json.nanos().median() / proto.nanos().median();
  }

  private static void targets(StringBuilder md, HttpBench.Result r) {
    Spread http = httpVsNetty(r);
    double codec = jsonVsProtobuf(r);
    md.append("## Targets\n\n").append(new Table("lrrl", "measure", "value", "target", "met")
        .row("boltgen HTTP/JSON calls/s ÷ raw Netty HTTP calls/s (median of per-round ratios, range)", http.ratio(),
            "≥ " + Fmt.ratio(HttpBench.TARGET_HTTP_VS_NETTY),
            http.n() == 0 ? "not measured" : http.median() >= HttpBench.TARGET_HTTP_VS_NETTY ? "met" : "NOT met")
        .row("JSON codec time ÷ protobuf codec time (encode + decode of the Order, round trip)", Fmt.ratio(codec),
            "≤ " + Fmt.ratio(HttpBench.TARGET_JSON_VS_PROTOBUF),
            Double.isNaN(codec) ? "not measured" : codec <= HttpBench.TARGET_JSON_VS_PROTOBUF ? "met" : "NOT met")
        .markdown()).append('\n');
  }

  private static void codecs(StringBuilder md, HttpBench.Result r) {
    md.append(Markdown.resource("http-codecs.md"));
    if (r.codecs() == null) {
      md.append("Not measured.\n");
      return;
    }
    Table t = new Table("lrrrrr", "codec", "encode ns/op", "decode ns/op", "round trip ns/op", "round trip B/op",
        "encoded bytes").spaced();
    for (String codec : List.of("protobuf", "json")) {
      Map<String, CodecBench.Score> ops = r.codecs().get(codec);
      if (ops == null) {
        t.row(codec, "not measured", "", "", "", "");
        continue;
      }
      Integer size = r.codecSizes().get(codec);
      t.row(codec, nanos(ops.get("encode")), nanos(ops.get("decode")), nanos(ops.get("roundTrip")),
          ops.get("roundTrip") == null ? "" : Fmt.num(ops.get("roundTrip").bytes().median(), 0),
          size == null ? "" : size);
    }
    md.append(t.markdown()).append('\n');
  }

  private static String nanos(CodecBench.Score score) {
    return score == null ? "" : score.nanos().format(v -> Fmt.num(v, 0));
  }

  /** The results and targets, for the console. */
  public static String console(HttpBench.Settings s, HttpBench.Result r) {
    StringBuilder md = new StringBuilder();
    results(md, r);
    targets(md, r);
    if (r.codecs() != null) {
      codecs(md, r);
    }
    return md.toString();
  }
}
