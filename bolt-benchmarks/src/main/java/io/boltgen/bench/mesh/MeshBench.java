package io.boltgen.bench.mesh;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.report.MeshReport;
import io.boltgen.bench.run.ProcStat;
import io.boltgen.bench.run.Wrk;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The {@code mesh} command: the 2018 Alibaba mesh-agent contest on loopback. One etcd, three provider JVMs of
 * {@link HashService} (50 ms per call, 200 threads each, capacities 1:2:3), and the gateway ({@code GatewayMain}) as a
 * JVM of its own, loaded by wrk with random JSON texts at each connection count, once per balancing policy (a fresh
 * gateway per policy); the same closed loop through a boltgen client in this JVM (no HTTP); then the freeze: the
 * large provider stopped (SIGSTOP) and continued (SIGCONT) under load, throughput sampled every 250 ms. Then the
 * report ({@link MeshReport}). Everything started is stopped at the end, also on failure.
 */
public final class MeshBench {

  public static final List<Integer> DEFAULT_CONNECTIONS = List.of(128, 256, 512);
  public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(10);
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);
  public static final List<BalancingPolicy> DEFAULT_POLICIES = List.of(BalancingPolicy.LEAST_PENDING,
      BalancingPolicy.ROUND_ROBIN, BalancingPolicy.WEIGHTED_RANDOM);
  public static final Freeze DEFAULT_FREEZE = new Freeze(512, Duration.ofSeconds(10), Duration.ofSeconds(10),
      Duration.ofSeconds(40));
  public static final long DEFAULT_LEASE_SECONDS = 10;
  public static final long DEFAULT_SEED = 42;
  public static final int DEFAULT_WRK_THREADS = 2;
  /** Each provider's pool, and its stated maxConcurrentCalls. */
  public static final int THREADS = 200;
  /** Each call's work at the provider. */
  public static final long DELAY_MILLIS = 50;
  /** The freeze's sampling period. */
  public static final Duration SAMPLE = Duration.ofMillis(250);
  /** The mode of the direct client's points. */
  public static final String DIRECT = "direct";
  /** The key prefix the providers are registered under (EtcdRegistry's default layout). */
  static final String REGISTERED = "/boltgen/services/mesh.Hash:1.0/";

  /**
   * The freeze scenario: under {@code connections} through the gateway (default policy) for {@code run}, the large
   * provider stopped at {@code at} for {@code length}.
   */
  public record Freeze(int connections, Duration at, Duration length, Duration run) {
    public Freeze {
      if (connections < 1 || at.isNegative() || length.isNegative() || at.plus(length).compareTo(run) >= 0) {
        throw new IllegalArgumentException("the freeze must end before its run: at " + at.toMillis() + " ms for "
            + length.toMillis() + " ms in a run of " + run.toMillis() + " ms");
      }
    }
  }

  /**
   * What to run.
   *
   * @param connections wrk's connections, and the direct client's calls in flight, per point
   * @param policies the gateway's balancing policies, one gateway each
   * @param direct whether to measure the direct client
   * @param freeze the freeze, or null for none
   * @param leaseSeconds the providers' etcd lease
   * @param seed the random texts' seed (wrk thread n: seed + n; direct caller i: seed + i)
   * @param outDir where the report and its chart go, or null for none
   * @param command the command line, for the report
   * @param caveats why this is not the full measurement
   */
  public record Settings(List<Integer> connections, Duration warmup, Duration duration, List<BalancingPolicy> policies,
      boolean direct, Freeze freeze, long leaseSeconds, int wrkThreads, long seed, Path wrk, QuietPolicy quiet,
      List<String> jvmFlags, Path logDir, Path outDir, String command, List<String> caveats) {

    public Settings {
      connections = List.copyOf(connections);
      policies = List.copyOf(policies);
      jvmFlags = List.copyOf(jvmFlags);
      caveats = List.copyOf(caveats);
      if (connections.isEmpty() || connections.stream().anyMatch(c -> c < wrkThreads) || wrkThreads < 1
          || (policies.isEmpty() && !direct && freeze == null) || leaseSeconds < 1) {
        throw new IllegalArgumentException("mesh needs connection counts of at least wrk's threads each, something to"
            + " measure (a policy, the direct client or the freeze) and a lease of at least 1 s");
      }
    }
  }

  /**
   * One measured point.
   *
   * @param mode the policy's id ({@code least-pending}) through the gateway, or {@link #DIRECT}
   * @param requests answered in the window (wrk's requests, whatever their status; the direct client's answers)
   * @param providerCalls calls each provider answered in the window, small to large
   * @param mostAtOnce the most calls any provider ran at once in the window
   * @param refused calls the providers' pools refused in the window
   * @param cpuUsPerRequest the gateway's CPU per request (the direct client's own for {@link #DIRECT})
   * @param machineBusyPercent all CPUs' busy time in the window, % of all of them
   * @param otherCpuPercent processes other than the benchmark's, % of one core
   */
  public record Point(String mode, int connections, long requests, double seconds, double qps, double p50Us,
      double p99Us, double maxUs, long errors, String errorText, List<Long> providerCalls, int mostAtOnce, long refused,
      double cpuUsPerRequest, double machineBusyPercent, double otherCpuPercent, int attempts, boolean noisy) {

    public Point {
      providerCalls = List.copyOf(providerCalls);
    }

    /** The physical ceiling: every connection one call per 50 ms. */
    public double ceiling() {
      return MeshBench.ceiling(connections);
    }

    /** Provider {@code i}'s share of the window's calls (NaN without calls). */
    public double share(int i) {
      long all = providerCalls.stream().mapToLong(Long::longValue).sum();
      return all == 0 ? Double.NaN : providerCalls.get(i) / (double) all;
    }

    Point attempts(int n, boolean isNoisy) {
      return new Point(mode, connections, requests, seconds, qps, p50Us, p99Us, maxUs, errors, errorText, providerCalls,
          mostAtOnce, refused, cpuUsPerRequest, machineBusyPercent, otherCpuPercent, n, isNoisy);
    }
  }

  /**
   * One sample of the freeze's timeline.
   *
   * @param seconds since the measured wrk run started
   * @param answered the providers' answered calls summed (a frozen provider's last count)
   * @param registered instances registered in etcd, or -1 when not asked in this sample
   * @param frozen whether the large provider was stopped from this sample on (the signals are sent right after the
   *     counts are read)
   */
  public record Sample(double seconds, long answered, int registered, boolean frozen) {}

  /**
   * What the freeze measured.
   *
   * @param stoppedAt when SIGSTOP was sent, seconds into the run
   * @param continuedAt when SIGCONT was sent
   * @param before calls/s over the second half of the time before the freeze
   * @param during calls/s while the large provider was stopped
   * @param duringMin the lowest 1-second rate while it was stopped
   * @param recoverySeconds after SIGCONT, when the next second's rate was first within 5% of {@code before}; NaN if
   *     never within the run
   * @param mostAtOnce the most calls any provider ran at once during the run
   * @param minRegistered the fewest instances etcd listed during the run
   */
  public record FreezeResult(Freeze freeze, Wrk.Report wrk, List<Sample> samples, double stoppedAt, double continuedAt,
      double before, double during, double duringMin, double recoverySeconds, int mostAtOnce, long refused,
      int minRegistered, double otherCpuPercent) {

    public FreezeResult {
      samples = List.copyOf(samples);
    }
  }

  /**
   * What came out.
   *
   * @param pinned whether the small provider ran under {@code taskset -c 0}
   * @param route the gateway's route of {@code hash}
   */
  public record Result(List<Point> points, FreezeResult freeze, boolean pinned, String route, List<String> failures,
      List<String> caveats) {}

  private MeshBench() {}

  /** Calls per second of {@code connections} closed loops of 50 ms each. */
  public static double ceiling(int connections) {
    return connections * 1000.0 / DELAY_MILLIS;
  }

  /** How long {@code s} takes when no window is measured again: the loads, and 5 s per JVM started. */
  public static Duration estimate(Settings s) {
    Duration point = s.warmup().plus(s.duration());
    int points = s.connections().size() * (s.policies().size() + (s.direct() ? 1 : 0));
    Duration total = point.multipliedBy(points).plusSeconds(5L * (3 + s.policies().size()));
    if (s.freeze() != null) {
      total = total.plus(s.warmup()).plus(s.freeze().run()).plusSeconds(5);
    }
    return total;
  }

  /** The id of {@code policy} on the gateway's command line: {@code least-pending}. */
  public static String id(BalancingPolicy policy) {
    return policy.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Runs {@code s}, printing progress and the tables to {@code out}, writing the report if {@code s.outDir()}. */
  public static Result execute(Settings s, PrintStream out) throws Exception {
    Instant started = Instant.now();
    Map<String, String> machine = MachineInfo.read();
    out.println("boltgen mesh benchmark on " + machine.get("CPU") + ", " + machine.get("cores") + "; load average "
        + machine.get("load average at start") + "; about " + Fmt.duration(estimate(s)) + " unless windows are measured"
        + " again; child logs: " + s.logDir());
    List<String> caveats = new ArrayList<>(s.caveats());
    double busy = ProcStat.otherCpuPercent(Duration.ofSeconds(1));
    if (busy > ProcStat.BUSY_PERCENT) {
      caveats.add(String.format(Locale.ROOT, "the machine was busy when it started (other processes took %.0f%% of a"
          + " core over 1 s): other work shared the CPUs", busy));
    }
    Files.createDirectories(s.logDir());
    List<Point> points = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    FreezeResult freeze = null;
    boolean pinned;
    try (MeshProcesses procs = new MeshProcesses()) {
      MeshEtcd etcd = procs.start(() -> MeshEtcd.start(s.logDir(), Duration.ofSeconds(30)));
      out.println("  etcd pid " + etcd.pid() + " at " + etcd.url());
      MeshProviders providers = procs.start(() -> MeshProviders.start(etcd.url(), THREADS, DELAY_MILLIS,
          s.leaseSeconds(), s.jvmFlags(), s.logDir()));
      pinned = providers.all().get(0).pinned;
      for (MeshProviders.Provider p : providers.all()) {
        out.printf("  provider %s: pid %d, weight %d%s%n", p.name, p.pid, p.weight, p.pinned ? ", taskset -c 0" : "");
      }
      awaitRegistered(etcd, providers.all().size(), Duration.ofSeconds(30));
      Run run = new Run(s, procs, etcd, providers, MeshWrk.writeScript(s.logDir().resolve("mesh.lua"), s.seed()), out);
      for (BalancingPolicy policy : s.policies()) {
        try {
          run.gateway(policy);
        } catch (Exception e) {
          failures.add("gateway, " + id(policy) + ": " + e.getMessage());
          out.println("  FAILED gateway, " + id(policy) + ": " + e.getMessage());
        }
      }
      if (s.direct()) {
        try {
          run.direct();
        } catch (Exception e) {
          failures.add("direct client: " + e.getMessage());
          out.println("  FAILED direct client: " + e.getMessage());
        }
      }
      if (s.freeze() != null) {
        try {
          freeze = run.freeze();
        } catch (Exception e) {
          failures.add("freeze: " + e.getMessage());
          out.println("  FAILED freeze: " + e.getMessage());
        }
      }
      points.addAll(run.points);
    }
    Result result = new Result(points, freeze, pinned, HashServiceBolt.METHOD_HASH.httpPath(), failures, caveats);
    Duration took = Duration.between(started, Instant.now());
    out.print("\n" + MeshReport.console(s, result));
    if (!failures.isEmpty()) {
      out.println("\nFAILURES:");
      failures.forEach(f -> out.println("  " + f));
    }
    if (!caveats.isEmpty()) {
      out.println("\nNot a full measurement: " + String.join("; ", caveats));
    }
    if (s.outDir() != null) {
      Path md = s.outDir().resolve("benchmarks-mesh.md");
      Path chart = s.outDir().resolve("img").resolve("mesh-qps.png");
      Files.createDirectories(chart.getParent());
      MeshReport.chart(chart, s, result);
      Files.writeString(md, MeshReport.markdown(s, result, machine, MachineInfo.loadAverage(), started, took),
          StandardCharsets.UTF_8);
      out.println("wrote " + md.toAbsolutePath() + " and " + chart.toAbsolutePath());
    } else {
      out.println("no report written (not a full run; --out DIR writes one)");
    }
    out.println("took " + Fmt.duration(took));
    return result;
  }

  private static void awaitRegistered(MeshEtcd etcd, int n, Duration bound) throws InterruptedException {
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

  /** CPU accounting at one instant: the machine's busy ticks, the benchmark's processes', one subject's. */
  private record Cpu(long nanos, long busy, long bench, long subject) {}

  /** The measuring of one run: its processes and the points so far. */
  private static final class Run {
    final Settings s;
    final MeshProcesses procs;
    final MeshEtcd etcd;
    final MeshProviders providers;
    final Path script;
    final PrintStream out;
    final List<Point> points = new ArrayList<>();
    final int cpus = onlineCpus();
    final long ticks = ProcStat.clockTicksPerSecond();

    Run(Settings s, MeshProcesses procs, MeshEtcd etcd, MeshProviders providers, Path script, PrintStream out) {
      this.s = s;
      this.procs = procs;
      this.etcd = etcd;
      this.providers = providers;
      this.script = script;
      this.out = out;
    }

    /** Every point of {@code policy} through a fresh gateway. */
    void gateway(BalancingPolicy policy) throws Exception {
      ReadyProcess gateway = startGateway(policy);
      try {
        String url = "http://127.0.0.1:" + gateway.port() + HashServiceBolt.METHOD_HASH.httpPath();
        for (int c : s.connections()) {
          warmUp(url, c, "gateway-" + id(policy) + "-c" + c);
          points.add(quietest(() -> gatewayWindow(id(policy), c, url, gateway.pid())));
        }
      } finally {
        procs.close(gateway);
      }
    }

    ReadyProcess startGateway(BalancingPolicy policy) throws Exception {
      Path log = s.logDir().resolve("gateway-" + id(policy) + ".log");
      ReadyProcess gateway;
      try {
        gateway = procs.start(() -> ReadyProcess.launcher(ReadyProcess.java(s.jvmFlags(),
            "io.boltgen.gateway.GatewayMain", List.of("--registry", etcd.uri(), "--port", "0", "--host", "127.0.0.1",
                "--service", "mesh.Hash:1.0", "--policy", id(policy)))).log(log).readyTimeout(Duration.ofSeconds(60))
            .start());
      } catch (Exception e) {
        throw new IOException("the gateway did not start: " + e.getMessage() + "; log: " + log, e);
      }
      String url = "http://127.0.0.1:" + gateway.port() + HashServiceBolt.METHOD_HASH.httpPath();
      out.printf("  gateway, %s: pid %d, %s%n", id(policy), gateway.pid(), url);
      String problem = firstCall(url);
      if (problem != null) {
        throw new IOException("the gateway's first answer is wrong: " + problem + "; " + MeshProcesses.tail(log));
      }
      return gateway;
    }

    /** wrk's warm-up run, unmeasured. */
    void warmUp(String url, int connections, String tag) throws Exception {
      Wrk.Report r = wrk(connections, s.warmup(), url, tag + "-warmup");
      out.printf(Locale.ROOT, "  %s: warm-up %s req/s%s%n", tag, Fmt.rate(r.requestsPerSecond()),
          r.errors() == 0 ? "" : ", errors: " + r.errorText());
    }

    Wrk.Report wrk(int connections, Duration duration, String url, String tag) throws Exception {
      MeshWrk run = procs.start(() -> MeshWrk.start(s.wrk(), s.wrkThreads(), connections, duration, script, url,
          s.logDir().resolve(tag + "-wrk.txt")));
      try {
        return run.finish();
      } finally {
        procs.close(run);
      }
    }

    Point gatewayWindow(String mode, int connections, String url, long gatewayPid) throws Exception {
      List<MeshProviders.Stats> s0 = providers.stats();
      Cpu c0 = cpu(gatewayPid, false);
      Wrk.Report r = wrk(connections, s.duration(), url, "gateway-" + mode + "-c" + connections);
      Cpu c1 = cpu(gatewayPid, false);
      List<MeshProviders.Stats> s1 = providers.stats();
      return point(mode, connections, r.requests(), r.requestsPerSecond(), r.p50Us(), r.p99Us(), r.maxUs(), r.errors(),
          r.errorText(), s0, s1, c0, c1);
    }

    /** The direct client's points, its callers kept running from one window to the next of the same count. */
    void direct() throws Exception {
      try (DirectLoad direct = new DirectLoad(etcd.url(), BalancingPolicy.LEAST_PENDING, s.seed())) {
        direct.awaitInstances(providers.all().size(), Duration.ofSeconds(30));
        int hash = direct.hashOf("boltgen");
        if (hash != "boltgen".hashCode()) {
          throw new IOException("the direct client's first call answered " + hash + ", not " + "boltgen".hashCode());
        }
        long self = ProcessHandle.current().pid();
        out.println("  direct client: this JVM (pid " + self + "), " + DirectLoad.TARGET + ", least-pending");
        for (int c : s.connections()) {
          DirectLoad.Running load = direct.start(c);
          try {
            TimeUnit.NANOSECONDS.sleep(s.warmup().toNanos()); // the warm-up: the callers run meanwhile
            out.printf("  direct-c%d: warmed up for %s s%n", c, Fmt.seconds(s.warmup()));
            points.add(quietest(() -> {
              List<MeshProviders.Stats> s0 = providers.stats();
              Cpu c0 = cpu(self, true);
              load.reset();
              TimeUnit.NANOSECONDS.sleep(s.duration().toNanos()); // the measured window
              DirectLoad.Window w = load.take();
              Cpu c1 = cpu(self, true);
              List<MeshProviders.Stats> s1 = providers.stats();
              Histogram h = w.histogram();
              boolean any = h.getTotalCount() > 0;
              return point(DIRECT, c, w.calls(), w.calls() / w.seconds(), any ? h.getValueAtPercentile(50) : Double.NaN,
                  any ? h.getValueAtPercentile(99) : Double.NaN, any ? h.getMaxValue() : Double.NaN, w.errors(),
                  w.firstError(), s0, s1, c0, c1);
            }));
          } finally {
            load.stop();
          }
        }
      }
    }

    /** The freeze: SIGSTOP and SIGCONT of the large provider under load through a fresh default gateway. */
    FreezeResult freeze() throws Exception {
      Freeze f = s.freeze();
      ReadyProcess gateway = startGateway(BalancingPolicy.LEAST_PENDING);
      try {
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
        Cpu c0 = cpu(gateway.pid(), false);
        out.printf("  freeze: %d connections for %s s; SIGSTOP of the large provider (pid %d) at %s s, SIGCONT at %s s%n",
            f.connections(), Fmt.seconds(f.run()), large.pid, Fmt.seconds(f.at()), Fmt.seconds(f.at().plus(f.length())));
        MeshWrk wrk = procs.start(() -> MeshWrk.start(s.wrk(), s.wrkThreads(), f.connections(), f.run(), script,
            url, s.logDir().resolve("freeze-wrk.txt")));
        long t0 = System.nanoTime();
        List<Sample> samples = new ArrayList<>();
        boolean frozen = false;
        double stoppedAt = Double.NaN;
        double continuedAt = Double.NaN;
        int mostAtOnce = 0;
        int minRegistered = Integer.MAX_VALUE;
        int registered = -1;
        Wrk.Report report;
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
              MeshProcesses.signal(large.pid, "STOP");
              frozen = true;
              stoppedAt = t;
            } else if (frozen && t >= secs(f.at().plus(f.length()))) {
              MeshProcesses.signal(large.pid, "CONT");
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
            MeshProcesses.signal(large.pid, "CONT");
          }
        }
        try {
          report = wrk.finish();
        } finally {
          procs.close(wrk);
        }
        Cpu c1 = cpu(gateway.pid(), false);
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
            other(c0, c1));
        out.println("  " + MeshReport.describe(result));
        return result;
      } finally {
        procs.close(gateway);
      }
    }

    /** A window measured again while others took more CPU than the quiet policy allows; the quietest kept. */
    Point quietest(Window window) throws Exception {
      Point kept = null;
      QuietPolicy quiet = s.quiet();
      for (int attempt = 1; ; attempt++) {
        Point p = window.measure();
        if (!quiet.noisy(p.otherCpuPercent())) {
          Point done = p.attempts(attempt, false);
          out.println("  " + MeshReport.describe(done));
          return done;
        }
        if (kept == null || p.otherCpuPercent() < kept.otherCpuPercent()) {
          kept = p;
        }
        boolean again = quiet.again(p.otherCpuPercent(), attempt);
        out.printf(Locale.ROOT, "  %s-c%d: other processes took %.1f%% of a core in the window%s%n", p.mode(),
            p.connections(), p.otherCpuPercent(), again ? "; measuring again" : "; keeping the quietest, marked noisy");
        if (!again) {
          Point done = kept.attempts(attempt, true);
          out.println("  " + MeshReport.describe(done));
          return done;
        }
      }
    }

    Point point(String mode, int connections, long requests, double qps, double p50, double p99, double max,
        long errors, String errorText, List<MeshProviders.Stats> s0, List<MeshProviders.Stats> s1, Cpu c0, Cpu c1) {
      List<Long> calls = new ArrayList<>();
      int most = 0;
      long refused = 0;
      for (int i = 0; i < s0.size(); i++) {
        calls.add(s1.get(i).answered() - s0.get(i).answered());
        most = Math.max(most, s1.get(i).mostAtOnce());
        refused += s1.get(i).refused() - s0.get(i).refused();
      }
      double seconds = (c1.nanos() - c0.nanos()) / 1e9;
      boolean known = c0.subject() >= 0 && c1.subject() >= 0 && requests > 0;
      double cpuPerRequest = known ? (c1.subject() - c0.subject()) / (double) ticks * 1e6 / requests : Double.NaN;
      double busyPercent = c0.busy() >= 0 && c1.busy() >= 0
          ? (c1.busy() - c0.busy()) / (double) ticks / seconds / cpus * 100 : Double.NaN;
      return new Point(mode, connections, requests, seconds, qps, p50, p99, max, errors, errorText, calls, most, refused,
          cpuPerRequest, busyPercent, other(c0, c1), 1, false);
    }

    /** Other processes' CPU between {@code c0} and {@code c1}, % of one core; NaN if unknown. */
    double other(Cpu c0, Cpu c1) {
      double seconds = (c1.nanos() - c0.nanos()) / 1e9;
      if (c0.busy() < 0 || c1.busy() < 0 || c0.bench() < 0 || c1.bench() < 0 || seconds <= 0) {
        return Double.NaN;
      }
      return Math.max(0, (c1.busy() - c0.busy()) - (c1.bench() - c0.bench())) / (double) ticks / seconds * 100;
    }

    /**
     * The machine's busy ticks, the benchmark's (etcd, providers, the gateway, this JVM with the children it reaped:
     * wrk runs that ended), and {@code subject}'s (this JVM's own when {@code self}).
     */
    Cpu cpu(long subject, boolean self) {
      long me = ProcessHandle.current().pid();
      List<Long> pids = new ArrayList<>();
      pids.add(etcd.pid());
      providers.all().forEach(p -> pids.add(p.pid));
      if (!self) {
        pids.add(subject);
      }
      long bench = ProcStat.readProcessAndChildrenTicks(me);
      for (long pid : pids) {
        long t = ProcStat.readProcessTicks(pid);
        bench = bench < 0 || t < 0 ? -1 : bench + t;
      }
      return new Cpu(System.nanoTime(), ProcStat.readBusyTicks(), bench, ProcStat.readProcessTicks(subject));
    }
  }

  /** One measured window. */
  @FunctionalInterface
  private interface Window {
    Point measure() throws Exception;
  }

  /** Calls per second between {@code from} and {@code to} seconds by the samples nearest after each; NaN if none. */
  public static double rate(List<Sample> samples, double from, double to) {
    Sample a = null;
    Sample b = null;
    for (Sample x : samples) {
      if (a == null && x.seconds() >= from - 1e-9) {
        a = x;
      }
      if (b == null && x.seconds() >= to - 1e-9) {
        b = x;
      }
    }
    if (b == null && !samples.isEmpty()) {
      b = samples.get(samples.size() - 1);
    }
    if (a == null || b == null || b.seconds() <= a.seconds()) {
      return Double.NaN;
    }
    return (b.answered() - a.answered()) / (b.seconds() - a.seconds());
  }

  /**
   * The wrk to run: {@code explicit}, or wrk on the PATH, installed first with {@code scripts/apt-install.sh wrk} of
   * the repository {@code root} when there is none; fails saying {@link Wrk#MISSING} when there still is none.
   */
  public static Path wrk(String explicit, Path root) {
    try {
      return Wrk.find(explicit, System.getenv("PATH"));
    } catch (IllegalArgumentException missing) {
      if (explicit != null || !install(root, "scripts/apt-install.sh", "wrk")) {
        throw missing;
      }
      return Wrk.find(null, System.getenv("PATH"));
    }
  }

  /** Makes sure there is an etcd, running {@code scripts/ensure-etcd.sh} of {@code root} when there is none. */
  public static void ensureEtcd(Path root) {
    try {
      MeshEtcd.find(System.getenv("PATH"));
    } catch (IllegalStateException missing) {
      if (!install(root, "scripts/ensure-etcd.sh")) {
        throw missing;
      }
      MeshEtcd.find(System.getenv("PATH"));
    }
  }

  /** Runs {@code bash root/script args} (at most 10 minutes), its output on standard error; whether it succeeded. */
  private static boolean install(Path root, String script, String... args) {
    if (root == null || !Files.isRegularFile(root.resolve(script))) {
      return false;
    }
    List<String> command = new ArrayList<>(List.of("bash", root.resolve(script).toString()));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT)
          .start();
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static double secs(Duration d) {
    return d.toMillis() / 1000.0;
  }

  /** CPUs in /proc/stat (cpu0, cpu1, …), else the JVM's count. */
  public static int onlineCpus() {
    try {
      long n = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu[0-9]+ .*")).count();
      return n > 0 ? (int) n : Runtime.getRuntime().availableProcessors();
    } catch (IOException e) {
      return Runtime.getRuntime().availableProcessors();
    }
  }

  /** Sends {@code {"text": "boltgen"}}; null when the answer is 200 with the text's hash in it. */
  static String firstCall(String url) throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
        .build();
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"boltgen\"}")).build();
    try {
      HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (answer.statusCode() != 200) {
        return "status " + answer.statusCode() + ": " + answer.body();
      }
      return answer.body().contains(Integer.toString("boltgen".hashCode())) ? null
          : "the answer holds no " + "boltgen".hashCode() + ": " + answer.body();
    } catch (IOException e) {
      return "no answer: " + e;
    }
  }
}
