package io.boltgen.bench.mesh;

import io.boltgen.bench.mesh.MeshBench.FreezeResult;
import io.boltgen.bench.mesh.MeshBench.Window;
import io.boltgen.bench.mesh.MeshBench.Sample;
import io.boltgen.bench.report.Charts;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.Markdown;
import io.boltgen.bench.report.Quiet;
import io.boltgen.bench.report.Table;
import io.boltgen.bench.run.ProcStat;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code mesh} command's report, docs/benchmarks-mesh.md, and its chart, docs/img/mesh-qps.png: machine, how
 * quiet it was, settings (how the capacities 1:2:3 were made), a table per scenario with the ratio to the physical
 * ceiling, the contest's published figures beside ours, and the freeze with its timeline.
 */
public final class MeshReport {

  /** The contest's published figures at 512 connections (the seed of this benchmark). */
  static final double NETTY_AGENT_QPS = 6_850;
  static final double C_AGENT_QPS = 7_144;

  private MeshReport() {}

  /** What a point is called in tables and the chart. */
  static String label(String mode) {
    return mode.equals(MeshBench.DIRECT) ? "direct boltgen client" : "gateway, " + mode;
  }

  /** One progress line for a point. */
  public static String describe(Window p) {
    return String.format(Locale.ROOT, "%s-c%d: %s req/s (%s of ceiling)  p50 %s  p99 %s  max %s  errors %d%s  shares"
            + " %s  most at once %d  %s %s µs/req  machine busy %s  other CPU %s%s", p.mode(), p.connections(),
        qps(p.qps()), percent(p.qps() / p.ceiling()), Fmt.micros(p.p50Us()), Fmt.micros(p.p99Us()),
        Fmt.micros(p.maxUs()), p.errors(), p.errorText().isEmpty() ? "" : " (" + p.errorText() + ")", shares(p),
        p.mostAtOnce(), p.mode().equals(MeshBench.DIRECT) ? "client CPU" : "gateway CPU",
        Fmt.num(p.cpuUsPerRequest(), 1), Fmt.percent(p.machineBusyPercent()), Fmt.percent(p.otherCpuPercent()),
        p.noisy() ? "  NOISY" : "");
  }

  /** One progress line for the freeze. */
  public static String describe(FreezeResult f) {
    return String.format(Locale.ROOT, "freeze: %s req/s by wrk, errors %d%s; providers' calls/s before %s, while"
            + " stopped %s (lowest second %s), back within 5%% %s after SIGCONT; fewest registered %d",
        qps(f.wrk().requestsPerSecond()), f.wrk().errors(),
        f.wrk().errors() == 0 ? "" : " (" + f.wrk().errorText() + ")", qps(f.before()), qps(f.during()),
        qps(f.duringMin()), recovery(f), f.minRegistered());
  }

  /** The policies' ids, then {@link MeshBench#DIRECT} when the direct client ran. */
  private static List<String> modes(MeshBench.Settings s) {
    List<String> modes = new ArrayList<>(s.policies().stream().map(MeshBench::id).toList());
    if (s.direct()) {
      modes.add(MeshBench.DIRECT);
    }
    return modes;
  }

  /** The chart: QPS against connections, one line per policy, the direct client, and the ceiling. */
  public static void chart(Path file, MeshBench.Settings s, MeshBench.Result r) throws IOException {
    Map<String, List<double[]>> lines = new LinkedHashMap<>();
    for (String mode : modes(s)) {
      List<double[]> line = new ArrayList<>();
      for (Window p : r.points()) {
        if (p.mode().equals(mode)) {
          line.add(new double[] {p.connections(), p.qps()});
        }
      }
      lines.put(label(mode), line);
    }
    List<double[]> ceiling = new ArrayList<>();
    s.connections().forEach(c -> ceiling.add(new double[] {c, MeshBench.ceiling(c)}));
    lines.put("ceiling (connections ÷ 50 ms)", ceiling);
    Charts.write(file, "mesh-agent contest on loopback: requests/s against connections", List.of(
        "3 providers (50 ms per call, 200 threads each, weights 100/200/300), the gateway in its own JVM, wrk"
            + " -t" + s.wrkThreads() + " with random JSON texts; " + Fmt.seconds(s.duration())
            + " s measured per point"),
        "connections (wrk's; the direct client's calls in flight)",
        List.of(new Charts.Panel("requests/s", false, lines)));
  }

  /** The report. */
  public static String markdown(MeshBench.Settings s, MeshBench.Result r, Map<String, String> machine,
      String loadAverageEnd, Instant started, Duration took) {
    StringBuilder md = new StringBuilder();
    md.append(Markdown.head("Benchmarks: the mesh-agent contest on loopback (gateway, three providers in etcd, wrk)",
        MeshReport.class, r.caveats(), r.failures(), started, took, s.command()));
    md.append(Markdown.fill("mesh-intro.md", "cores", machine.get("cores")));
    md.append(Markdown.machine(machine, loadAverageEnd));
    quiet(md, s, r);
    settings(md, s, r);
    md.append("## Results\n\n![requests/s against connections](img/mesh-qps.png)\n\n");
    results(md, s, r);
    contest(md, r);
    freeze(md, s, r);
    return md.toString();
  }

  /** The results, the contest's figures and the freeze, for the console. */
  public static String console(MeshBench.Settings s, MeshBench.Result r) {
    StringBuilder md = new StringBuilder();
    results(md, s, r);
    contest(md, r);
    if (r.freeze() != null) {
      md.append(describe(r.freeze())).append("\n");
    }
    return md.toString();
  }

  private static void quiet(StringBuilder md, MeshBench.Settings s, MeshBench.Result r) {
    md.append("### How quiet it was\n\n");
    md.append(Quiet.method(", sampled over every measured window during the run", true, "the benchmark's processes"
        + " (`/proc/<pid>/stat`: etcd, the three providers, the gateway, and the harness JVM with the wrk runs it"
        + " reaped; the direct client runs in the harness JVM)", s.quiet(),
        ". The freeze run is one window of its own."));
    Table t = new Table("lrrrl", "window", "other CPU", "machine busy", "measured again", "noisy");
    List<Quiet> all = new ArrayList<>();
    for (Window p : r.points()) {
      t.row(label(p.mode()) + ", " + p.connections() + " connections", Fmt.percent(p.otherCpuPercent()),
          Fmt.percent(p.machineBusyPercent()), p.attempts() - 1, p.noisy() ? "NOISY" : "");
      all.add(new Quiet(p.otherCpuPercent(), p.noisy(), p.attempts()));
    }
    if (r.freeze() != null) {
      t.row("freeze run", Fmt.percent(r.freeze().otherCpuPercent()), "", "", "");
      all.add(new Quiet(r.freeze().otherCpuPercent(), false, 1));
    }
    t.row("all windows: mean / max", Fmt.percent(Quiet.mean(all)) + " / " + Fmt.percent(Quiet.max(all)), "", "", "");
    md.append(t.markdown()).append('\n');
  }

  private static void settings(StringBuilder md, MeshBench.Settings s, MeshBench.Result r) {
    md.append(Markdown.fill("mesh-settings.md", "lease", s.leaseSeconds(), "delay", MeshBench.DELAY_MILLIS, "threads",
        MeshBench.THREADS, "pinned", r.pinned() ? "the small provider pinned to CPU 0 with `taskset -c 0` (the others"
            + " run on every CPU)" : "the small provider NOT pinned: there was no `taskset` on the PATH",
        "perProvider", String.format(Locale.ROOT, "%,d", MeshBench.THREADS * 1000 / MeshBench.DELAY_MILLIS),
        "policies", String.join(", ", s.policies().stream().map(MeshBench::id).toList()), "route", r.route(),
        "wrkThreads", s.wrkThreads(), "seed", s.seed(), "warmup", Fmt.seconds(s.warmup()), "duration",
        Fmt.seconds(s.duration()), "direct", !s.direct() ? "" : "- Direct client: the same closed loop without HTTP or"
            + " the gateway: a boltgen client in the harness JVM resolving `etcd:///mesh.Hash:1.0` (least-pending)"
            + " keeps <connections> async `hash` calls in flight, each caller issuing its next call when the answer"
            + " came, with random texts as above (caller i seeded " + s.seed() + " + i); latency of the answered calls"
            + " in an HdrHistogram; the same warm-up and window; its callers keep running from warm-up through the"
            + " window.\n", "ceilings", String.join(", ", s.connections().stream()
            .map(c -> String.format(Locale.ROOT, "%,.0f", MeshBench.ceiling(c))).toList()),
        "jvmFlags", String.join(" ", s.jvmFlags())));
  }

  private static void results(StringBuilder md, MeshBench.Settings s, MeshBench.Result r) {
    for (String mode : modes(s)) {
      boolean direct = mode.equals(MeshBench.DIRECT);
      md.append("### ").append(direct ? "Direct boltgen client (no HTTP, no gateway)" : "Through the gateway, "
          + mode + (mode.equals(MeshBench.id(BalancingPolicy.LEAST_PENDING)) ? " (the default)" : "")).append("\n\n");
      Table t = new Table("rrrrrrrrrrr", "connections", "QPS", "of ceiling", "p50", "p99", "max", "errors",
          "share small / medium / large", "most at once", direct ? "client CPU µs/call" : "gateway CPU µs/request",
          "machine busy").spaced();
      List<Window> ps = r.points().stream().filter(p -> p.mode().equals(mode)).toList();
      ps.forEach(p -> t.row(p.connections(), qps(p.qps()) + (p.noisy() ? " NOISY" : ""),
          percent(p.qps() / p.ceiling()), Fmt.micros(p.p50Us()), Fmt.micros(p.p99Us()), Fmt.micros(p.maxUs()),
          Markdown.errors(p.errors(), p.errorText()), shares(p),
          p.mostAtOnce() > MeshBench.THREADS ? "**" + p.mostAtOnce() + " (over " + MeshBench.THREADS + ")**"
              : p.mostAtOnce(), Fmt.num(p.cpuUsPerRequest(), 1), Fmt.percent(p.machineBusyPercent())));
      md.append(t.markdown()).append(ps.isEmpty() ? "\nNot measured (see the failures above).\n" : "").append('\n');
    }
  }

  private static void contest(StringBuilder md, MeshBench.Result r) {
    md.append("### Beside the contest's published figures (512 connections, ceiling 10,240 requests/s)\n\n");
    Table t = new Table("llrr", "agent", "where", "QPS", "of ceiling").spaced();
    double ceiling = MeshBench.ceiling(512);
    t.row("Netty agent (contest, published)", "8 cores", qps(NETTY_AGENT_QPS), percent(NETTY_AGENT_QPS / ceiling));
    t.row("C agent with SIMD (contest, published)", "the contest's machine", qps(C_AGENT_QPS),
        percent(C_AGENT_QPS / ceiling));
    List<Window> at512 = r.points().stream().filter(p -> p.connections() == 512).toList();
    at512.forEach(p -> t.row((p.mode().equals(MeshBench.DIRECT) ? "boltgen client, direct (no agent)"
        : "boltgen " + label(p.mode())) + " (this run)", "this machine, " + ProcStat.onlineCpus() + " CPUs",
        qps(p.qps()), percent(p.qps() / ceiling)));
    if (at512.isEmpty()) {
      t.row("boltgen (this run)", "not measured at 512 connections", "", "");
    }
    md.append(t.markdown()).append('\n');
  }

  private static void freeze(StringBuilder md, MeshBench.Settings s, MeshBench.Result r) {
    md.append("## Freeze: the large provider stopped under load\n\n");
    MeshBench.Freeze f = s.freeze();
    if (f == null) {
      md.append("Not run (--no-freeze).\n");
      return;
    }
    md.append(Markdown.fill("mesh-freeze.md", "connections", f.connections(), "run", Fmt.seconds(f.run()), "warmup",
        Fmt.seconds(s.warmup()), "at", Fmt.seconds(f.at()), "length", Fmt.seconds(f.length()), "sample",
        MeshBench.SAMPLE.toMillis(), "lease", s.leaseSeconds()));
    FreezeResult fr = r.freeze();
    if (fr == null) {
      md.append("Failed (see above).\n");
      return;
    }
    Table t = new Table("lr", "measure", "value")
        .row("wrk's requests/s over the whole run", qps(fr.wrk().requestsPerSecond()))
        .row("errors (non-2xx + socket errors, whole run)", fr.wrk().errors() == 0 ? "0"
            : fr.wrk().errors() + " (" + fr.wrk().errorText() + ")")
        .row("p99 / max latency (whole run)", Fmt.micros(fr.wrk().p99Us()) + " / " + Fmt.micros(fr.wrk().maxUs()))
        .row("calls/s before the freeze (second half of the time before it)", qps(fr.before()))
        .row("calls/s while stopped (mean / lowest second)", qps(fr.during()) + " / " + qps(fr.duringMin()))
        .row("back within 5% of the level before, after SIGCONT", recovery(fr))
        .row("fewest instances registered in etcd during the run (lease " + s.leaseSeconds() + " s)",
            fr.minRegistered())
        .row("most calls at once on any provider", fr.mostAtOnce())
        .row("calls refused by a provider's pool", fr.refused());
    md.append(t.markdown()).append("\nTimeline, per second (calls/s from the samples nearest each second):\n\n");
    Table timeline = new Table("rrrl", "second", "calls/s", "registered", "large provider");
    List<Sample> samples = fr.samples();
    double end = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).seconds();
    for (int k = 0; k + 1 <= end + 1e-9; k++) {
      int second = k;
      int registered = samples.stream().filter(x -> x.seconds() >= second - 1e-9 && x.registered() >= 0).findFirst()
          .map(Sample::registered).orElse(-1);
      boolean frozen = samples.stream().anyMatch(x -> x.seconds() >= second && x.seconds() < second + 1 && x.frozen());
      timeline.row(k + "–" + (k + 1), qps(MeshBench.rate(samples, k, k + 1)), registered < 0 ? "" : registered,
          frozen ? "stopped" : "");
    }
    md.append(timeline.markdown()).append('\n');
  }

  private static String recovery(FreezeResult f) {
    return Double.isNaN(f.recoverySeconds()) ? "not within the run"
        : String.format(Locale.ROOT, "%.2f s", f.recoverySeconds());
  }

  private static String shares(Window p) {
    List<String> cells = new ArrayList<>();
    for (int i = 0; i < p.providerCalls().size(); i++) {
      cells.add(Fmt.percent(p.share(i) * 100));
    }
    return String.join(" / ", cells);
  }

  static String qps(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String percent(double ratio) {
    return Fmt.percent(ratio * 100);
  }
}
