package io.boltgen.bench.mesh;

import static io.boltgen.bench.mesh.MeshBench.*;
import static java.nio.charset.StandardCharsets.UTF_8;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.run.Loads;
import io.boltgen.bench.run.CpuWindow;
import io.boltgen.bench.run.Runner;
import io.boltgen.bench.run.Session;
import io.boltgen.bench.run.Wrk;
import io.boltgen.bench.run.WrkLoad;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.Scenario;
import io.boltgen.bench.scenario.Scenario.Slot;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.testing.EtcdProcess;
import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The measuring of one mesh run: etcd and the providers it starts, then the scenario of its modes ({@link Modes}) and
 * the freeze.
 */
public final class MeshRun {
  final Settings s;
  final EtcdProcess etcd;
  final MeshProviders providers;
  final Path script;
  final PrintStream out;

  MeshRun(Settings s, EtcdProcess etcd, MeshProviders providers, Path script, PrintStream out) {
    this.s = s;
    this.etcd = etcd;
    this.providers = providers;
    this.script = script;
    this.out = out;
  }

  /** Runs {@code s}, printing progress and the tables to {@code out}, writing the report if {@code s.outDir()}. */
  public static Result execute(Settings s, PrintStream out) throws Exception {
    Session session = Session.begin("boltgen mesh benchmark", "; about " + Fmt.duration(estimate(s))
        + " unless windows are measured again; child logs: " + s.logDir(), s.caveats(), out);
    Files.createDirectories(s.logDir());
    List<Window> points = new ArrayList<>();
    FreezeResult freeze = null;
    boolean pinned;
    try (EtcdProcess etcd = EtcdProcess.start().keepLogAt(s.logDir().resolve("etcd.log"));
        MeshProviders providers = MeshProviders.start(etcd.clientUrl(), THREADS, DELAY_MILLIS, s.leaseSeconds(),
            s.jvmFlags(), s.logDir())) {
      out.println("  etcd pid " + etcd.pid() + " at " + etcd.clientUrl());
      pinned = providers.all().get(0).pinned;
      for (MeshProviders.Provider p : providers.all()) {
        out.printf("  provider %s: pid %d, weight %d%s%n", p.name, p.pid, p.weight, p.pinned ? ", taskset -c 0" : "");
      }
      awaitRegistered(etcd, providers.all().size(), Duration.ofSeconds(30));
      MeshRun run = new MeshRun(s, etcd, providers, Wrk.writeScript(s.logDir().resolve("mesh.lua"),
          Wrk.randomTextScript(s.seed(), DirectClient.MAX_TEXT)), out);
      Runner.Outcome<Window> outcome = Runner.run(new Modes(s), run::start, out, MeshReport::describe);
      outcome.failures().forEach(session::recordFailure);
      points.addAll(outcome.windows());
      if (s.freeze() != null) {
        try {
          freeze = run.freeze();
        } catch (Exception e) {
          session.failed("freeze: " + e.getMessage());
        }
      }
    }
    Result result = new Result(points, freeze, pinned, HashServiceBolt.METHOD_HASH.httpPath(), session.failures(),
        session.caveats());
    session.summary("\n" + MeshReport.console(s, result));
    if (s.outDir() != null) {
      Path chart = s.outDir().resolve("img").resolve("mesh-qps.png");
      Files.createDirectories(chart.getParent());
      MeshReport.chart(chart, s, result);
      out.println("wrote " + chart.toAbsolutePath());
      session.write(s.outDir().resolve("benchmarks-mesh.md"), MeshReport.markdown(s, result, session.machine(),
          MachineInfo.loadAverage(), session.started(), session.took()));
    } else {
      out.println("no report written (not a full run; --out DIR writes one)");
    }
    session.finish();
    return result;
  }

  private static void awaitRegistered(EtcdProcess etcd, int n, Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    int seen;
    while ((seen = etcd.count(REGISTERED)) < n) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(seen + " of " + n + " providers registered in etcd after " + bound.toSeconds()
            + " s");
      }
      TimeUnit.MILLISECONDS.sleep(50); // polling etcd: registration has no event to wait on from here
    }
  }

  /** A way of calling the providers: through a gateway of {@code policy}, or the direct client ({@code policy} null). */
  record Mode(BalancingPolicy policy) implements Scenario.Part {
    @Override
    public String system() {
      return policy == null ? DIRECT : id(policy);
    }
  }

  /** A stage per mode, a fresh gateway per policy, then the direct client; in each a window per connection count. */
  record Modes(Settings s) implements Scenario<Mode> {
    @Override
    public List<Stage<Mode>> stages() {
      List<Mode> modes = new ArrayList<>(s.policies().stream().map(Mode::new).toList());
      if (s.direct()) {
        modes.add(new Mode(null));
      }
      return modes.stream().map(m -> new Stage<>(m.policy() == null ? "direct" : "gateway", 1, List.of(m),
          s.connections().stream().map(c -> new Slot(m.system(), new Point("c" + c, false, c, 1, 0, ""), 1, false))
              .toList())).toList();
    }

    @Override
    public String header() {
      return "through the gateway per policy (" + String.join(", ", s.policies().stream().map(MeshBench::id).toList())
          + ")" + (s.direct() ? " and the direct client" : "") + " at " + s.connections() + " connections";
    }

    @Override
    public Duration estimate() {
      return MeshBench.estimate(s);
    }
  }

  /** Starts {@code mode}: a fresh gateway, or the direct client. */
  Runner.Started<Window> start(Mode mode, String stage) throws Runner.Failed, InterruptedException {
    try {
      return mode.policy() == null ? new Direct() : new Gateway(mode.policy());
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new Runner.Failed((mode.policy() == null ? "direct client: " : "gateway, " + mode.system() + ": ")
          + e.getMessage());
    }
  }

  /** A gateway of one policy, loaded by wrk. */
  final class Gateway implements Runner.Started<Window> {
    final BalancingPolicy policy;
    final ReadyProcess process;
    final String url;

    Gateway(BalancingPolicy policy) throws Exception {
      this.policy = policy;
      this.process = startGateway(policy);
      this.url = "http://127.0.0.1:" + process.port() + HashServiceBolt.METHOD_HASH.httpPath();
    }

    @Override
    public Window measure(Slot slot) throws Runner.Failed, InterruptedException {
      int c = slot.point().connections();
      try {
        warmUp(url, c, "gateway-" + id(policy) + "-c" + c);
        return quietest(() -> gatewayWindow(id(policy), c, url, process.pid()));
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        throw new Runner.Failed("gateway, " + id(policy) + ", " + c + " connections: " + e.getMessage());
      }
    }

    @Override
    public Runner.Failed exited() {
      return process.isAlive() ? null : new Runner.Failed("the gateway (" + id(policy) + ") exited; log: "
          + process.logFile());
    }

    @Override
    public void close() {
      try {
        process.close();
      } catch (IOException e) {
        out.println("  closing the gateway (pid " + process.pid() + ") failed: " + e);
      }
    }
  }

  /** A gateway of {@code policy}, started and its first answer checked; closed again if anything fails. */
  ReadyProcess startGateway(BalancingPolicy policy) throws Exception {
    Path log = s.logDir().resolve("gateway-" + id(policy) + ".log");
    ReadyProcess gateway;
    try {
      gateway = ReadyProcess.launcher(ReadyProcess.java(s.jvmFlags(), "io.boltgen.gateway.GatewayMain",
          List.of("--registry", "etcd://127.0.0.1:" + URI.create(etcd.clientUrl()).getPort(), "--port", "0", "--host",
              "127.0.0.1", "--service", "mesh.Hash:1.0", "--policy", id(policy)))).log(log)
          .readyTimeout(Duration.ofSeconds(60)).start();
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("the gateway did not start: " + e.getMessage() + "; log: " + log, e);
    }
    try {
      String url = "http://127.0.0.1:" + gateway.port() + HashServiceBolt.METHOD_HASH.httpPath();
      out.printf("  gateway, %s: pid %d, %s%n", id(policy), gateway.pid(), url);
      String hash = Integer.toString("boltgen".hashCode());
      String problem = WrkLoad.firstCall(url, "application/json", "{\"text\": \"boltgen\"}".getBytes(UTF_8),
          (status, type, body) -> new String(body, UTF_8).contains(hash) ? null
              : "the answer holds no " + hash + ": " + new String(body, UTF_8));
      if (problem != null) {
        throw new IOException("the gateway's first answer is wrong: " + problem + "; log " + log + ", last lines:\n"
            + gateway.tail());
      }
      return gateway;
    } catch (Exception e) {
      gateway.close();
      throw e;
    }
  }

  /** wrk's warm-up run, unmeasured. */
  void warmUp(String url, int connections, String tag) throws Exception {
    Wrk.Report r = wrk(connections, s.warmup(), url, tag + "-warmup");
    out.printf(Locale.ROOT, "  %s: warm-up %s req/s%s%n", tag, Fmt.rate(r.requestsPerSecond()),
        r.errors() == 0 ? "" : ", errors: " + r.errorText());
  }

  Wrk.Report wrk(int connections, Duration duration, String url, String tag) throws Exception {
    try (Wrk.Run run = Wrk.start(s.wrk(), s.wrkThreads(), connections, duration, script, url,
        s.logDir().resolve(tag + "-wrk.txt"))) {
      return run.finish();
    }
  }

  Window gatewayWindow(String mode, int connections, String url, long gatewayPid) throws Exception {
    List<MeshProviders.Stats> s0 = providers.stats();
    CpuWindow cpu = CpuWindow.start(bench(gatewayPid), gatewayPid);
    Wrk.Report r = wrk(connections, s.duration(), url, "gateway-" + mode + "-c" + connections);
    CpuWindow.Cost cost = cpu.end(r.requests());
    List<MeshProviders.Stats> s1 = providers.stats();
    return point(mode, connections, r.requests(), r.requestsPerSecond(), r.p50Us(), r.p99Us(), r.maxUs(), r.errors(),
        r.errorText(), s0, s1, cost);
  }

  /** The direct client in this JVM: a load per connection count, warmed up, then its window. */
  final class Direct implements Runner.Started<Window> {
    final DirectClient client = new DirectClient(etcd.clientUrl(), BalancingPolicy.LEAST_PENDING, s.seed());
    final long self = ProcessHandle.current().pid();

    Direct() throws Exception {
      try {
        client.awaitInstances(providers.all().size(), Duration.ofSeconds(30));
        int hash = client.hashOf("boltgen");
        if (hash != "boltgen".hashCode()) {
          throw new IOException("the direct client's first call answered " + hash + ", not " + "boltgen".hashCode());
        }
      } catch (Exception e) {
        client.close();
        throw e;
      }
      out.println("  direct client: this JVM (pid " + self + "), " + DirectClient.TARGET + ", least-pending");
    }

    @Override
    public Window measure(Slot slot) throws Runner.Failed, InterruptedException {
      int c = slot.point().connections();
      Loads.Load load = Loads.start(client.callers(c), false, c, 1);
      Window point;
      try {
        TimeUnit.NANOSECONDS.sleep(s.warmup().toNanos()); // the warm-up: the callers run meanwhile
        out.printf("  direct-c%d: warmed up for %s s%n", c, Fmt.seconds(s.warmup()));
        point = quietest(() -> window(load, c));
      } catch (InterruptedException e) {
        load.stop();
        throw e;
      } catch (Exception e) {
        load.stop();
        throw new Runner.Failed("direct client, " + c + " connections: " + e.getMessage());
      }
      try {
        load.stopOrFail("direct client, " + c + " connections");
      } catch (IllegalStateException e) {
        throw new Runner.Failed(e.getMessage());
      }
      return point;
    }

    private Window window(Loads.Load load, int c) throws Exception {
      List<MeshProviders.Stats> s0 = providers.stats();
      Loads.Taken w = load.window(s.duration(), bench(-1), self);
      List<MeshProviders.Stats> s1 = providers.stats();
      return point(DIRECT, c, w.calls(), w.calls() / w.seconds(), w.us(50), w.us(99), w.us(100), w.errors(),
          w.firstError(), s0, s1, w.cost());
    }

    @Override
    public void close() {
      client.close();
    }
  }

  /** The freeze: SIGSTOP and SIGCONT of the large provider under load through a fresh default gateway. */
  FreezeResult freeze() throws Exception {
    Freeze f = s.freeze();
    try (ReadyProcess gateway = startGateway(BalancingPolicy.LEAST_PENDING)) {
      String url = "http://127.0.0.1:" + gateway.port() + HashServiceBolt.METHOD_HASH.httpPath();
      warmUp(url, f.connections(), "freeze-c" + f.connections());
      MeshProviders.Provider large = providers.large();
      List<MeshProviders.Provider> all = providers.all();
      List<MeshProviders.Stats> s0 = providers.stats();
      long[] last = new long[all.size()];
      long[] refused0 = new long[all.size()];
      for (int i = 0; i < all.size(); i++) {
        last[i] = s0.get(i).answered();
        refused0[i] = s0.get(i).refused();
      }
      CpuWindow cpu = CpuWindow.start(bench(gateway.pid()));
      out.printf("  freeze: %d connections for %s s; SIGSTOP of the large provider (pid %d) at %s s, SIGCONT at %s s%n",
          f.connections(), Fmt.seconds(f.run()), large.pid, Fmt.seconds(f.at()), Fmt.seconds(f.at().plus(f.length())));
      List<Sample> samples = new ArrayList<>();
      boolean frozen = false;
      double stoppedAt = Double.NaN;
      double continuedAt = Double.NaN;
      int mostAtOnce = 0;
      int minRegistered = Integer.MAX_VALUE;
      int registered = -1;
      Wrk.Report report;
      try (Wrk.Run wrk = Wrk.start(s.wrk(), s.wrkThreads(), f.connections(), f.run(), script, url,
          s.logDir().resolve("freeze-wrk.txt"))) {
        long t0 = System.nanoTime();
        try {
          for (int k = 0; ; k++) {
            long due = t0 + k * SAMPLE.toNanos();
            long wait = due - System.nanoTime();
            if (wait > 0) {
              TimeUnit.NANOSECONDS.sleep(wait); // the sampling period
            }
            double t = (System.nanoTime() - t0) / 1e9;
            long sum = 0;
            for (int i = 0; i < all.size(); i++) {
              if (!(frozen && all.get(i) == large)) {
                MeshProviders.Stats st = all.get(i).stats(Duration.ofMillis(200));
                if (st != null) {
                  last[i] = st.answered();
                  mostAtOnce = Math.max(mostAtOnce, st.mostAtOnce());
                }
              }
              sum += last[i];
            }
            if (k % 4 == 0) {
              registered = etcd.count(REGISTERED);
              if (registered >= 0) {
                minRegistered = Math.min(minRegistered, registered);
              }
            }
            // the signals go after the counts are read: the calls the large provider answered up to SIGSTOP count
            // before it, and those it finishes once continued count after SIGCONT
            if (!frozen && Double.isNaN(stoppedAt) && t >= secs(f.at())) {
              large.process.signal("STOP");
              frozen = true;
              stoppedAt = t;
            } else if (frozen && t >= secs(f.at().plus(f.length()))) {
              large.process.signal("CONT");
              frozen = false;
              continuedAt = t;
            }
            samples.add(new Sample(t, sum, k % 4 == 0 ? registered : -1, frozen));
            if (!wrk.isAlive() || t > secs(f.run()) + 30) {
              break;
            }
          }
        } finally {
          if (frozen) {
            large.process.signal("CONT");
          }
        }
        report = wrk.finish();
      }
      double other = cpu.end(0).otherPercent();
      List<MeshProviders.Stats> s1 = providers.stats();
      long refused = 0;
      for (int i = 0; i < all.size(); i++) {
        refused += s1.get(i).refused() - refused0[i];
        mostAtOnce = Math.max(mostAtOnce, s1.get(i).mostAtOnce());
      }
      double before = rate(samples, secs(f.at()) / 2, stoppedAt);
      double during = rate(samples, stoppedAt, continuedAt);
      double duringMin = Double.NaN;
      for (Sample a : samples) {
        // whole seconds within the freeze, give or take half a sampling period
        if (a.seconds() >= stoppedAt && a.seconds() + 1 <= continuedAt + secs(SAMPLE) / 2) {
          double r = rate(samples, a.seconds(), a.seconds() + 1);
          duringMin = Double.isNaN(duringMin) ? r : Math.min(duringMin, r);
        }
      }
      double recovery = Double.NaN;
      for (Sample a : samples) {
        if (a.seconds() >= continuedAt && a.seconds() + 1 <= samples.get(samples.size() - 1).seconds()) {
          double r = rate(samples, a.seconds(), a.seconds() + 1);
          if (Math.abs(r - before) <= 0.05 * before) {
            recovery = a.seconds() - continuedAt;
            break;
          }
        }
      }
      FreezeResult result = new FreezeResult(f, report, samples, stoppedAt, continuedAt, before, during, duringMin,
          recovery, mostAtOnce, refused, minRegistered == Integer.MAX_VALUE ? -1 : minRegistered,
          other);
      out.println("  " + MeshReport.describe(result));
      return result;
    }
  }

  /** A window by the one quiet rule ({@link QuietPolicy#quietest}). */
  Window quietest(QuietPolicy.Attempt<Window, Exception> window) throws Exception {
    return s.quiet().quietest(window, Window::otherCpuPercent, Window::attempts, p -> p.mode() + "-c" + p.connections(),
        line -> out.println("  " + line));
  }

  Window point(String mode, int connections, long requests, double qps, double p50, double p99, double max,
      long errors, String errorText, List<MeshProviders.Stats> s0, List<MeshProviders.Stats> s1, CpuWindow.Cost cost) {
    List<Long> calls = new ArrayList<>();
    int most = 0;
    long refused = 0;
    for (int i = 0; i < s0.size(); i++) {
      calls.add(s1.get(i).answered() - s0.get(i).answered());
      most = Math.max(most, s1.get(i).mostAtOnce());
      refused += s1.get(i).refused() - s0.get(i).refused();
    }
    return new Window(mode, connections, requests, cost.seconds(), qps, p50, p99, max, errors, errorText, calls, most,
        refused, cost.subjectUs().get(0), cost.machineBusyPercent(), cost.otherPercent(), 1, false);
  }

  /** The benchmark's processes besides this JVM: etcd, the providers, and the gateway ({@code gateway}, or -1). */
  List<Long> bench(long gateway) {
    List<Long> bench = new ArrayList<>();
    bench.add(etcd.pid());
    providers.all().forEach(p -> bench.add(p.pid));
    if (gateway >= 0) {
      bench.add(gateway);
    }
    return bench;
  }
}
