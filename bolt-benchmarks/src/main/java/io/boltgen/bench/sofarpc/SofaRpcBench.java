package io.boltgen.bench.sofarpc;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.report.SofaRpcReport;
import io.boltgen.bench.run.ProcStat;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.runtime.BoltClient;
import io.boltgen.testing.ReadyProcess;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The {@code sofarpc} command: one SOFARPC 5.13.2 provider (bolt-sofarpc-peer, its own JVM), called by a boltgen
 * client in this JVM (the generated {@code @SofaRpcService} stubs) and by a SOFARPC consumer in a JVM of its own
 * ({@code PeerMain bench}), with the same loads: per serializer (protobuf {@code EchoService.echo}, Hessian2
 * {@code GreetService.greet}) sync with threads calling back to back and async with calls in flight. In each round
 * every case runs on both sides, one after the other, the order of the cases rotating and the side going first
 * alternating from round to round. Each window: a warm-up, then the measured window (calls/s, p50/p99, the client
 * process's CPU per call, other processes' CPU); a window in which other processes took more than the quiet policy
 * allows is measured again. Then the report ({@link SofaRpcReport}).
 */
public final class SofaRpcBench {

  public static final int DEFAULT_ROUNDS = 3;
  public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(10);
  public static final Duration DEFAULT_MEASURE = Duration.ofSeconds(10);
  public static final int DEFAULT_THREADS = 32;
  // below the 200 business threads of a SOFARPC provider (no queue): more calls in flight than that are refused
  // SERVER_THREADPOOL_BUSY by the provider, whichever client sends them
  public static final int DEFAULT_IN_FLIGHT = 128;
  public static final List<String> SERIALIZERS = List.of("protobuf", "hessian2");
  public static final String BOLTGEN = "boltgen";
  public static final String SOFARPC = "sofarpc";

  /**
   * What to run.
   *
   * @param serializers protobuf and/or hessian2, in order
   * @param threads the sync load's threads; {@code inFlight} the async load's calls in flight
   * @param peerClasspath bolt-sofarpc-peer's class path (the text of its target/peer.classpath)
   * @param jvmFlags the flags of the provider's and the consumer's JVMs
   * @param out where the report goes, or null for none
   */
  public record Settings(List<String> serializers, int rounds, Duration warmup, Duration measure, int threads,
      int inFlight, String peerClasspath, QuietPolicy quiet, List<String> jvmFlags, Path logDir, Path out,
      String command, List<String> caveats) {
    public Settings {
      serializers = List.copyOf(serializers);
      jvmFlags = List.copyOf(jvmFlags);
      caveats = List.copyOf(caveats);
      if (serializers.isEmpty() || !SERIALIZERS.containsAll(serializers) || rounds < 1 || threads < 1 || inFlight < 1) {
        throw new IllegalArgumentException("sofarpc needs serializers of " + SERIALIZERS + ", at least one round, one"
            + " thread and one call in flight");
      }
    }

    /** The cases of a round, before rotation: per serializer, sync then async. */
    public List<Case> cases() {
      List<Case> cases = new ArrayList<>();
      for (String s : serializers) {
        cases.add(new Case(s, true, threads));
        cases.add(new Case(s, false, inFlight));
      }
      return cases;
    }
  }

  /** One serializer under one load. */
  public record Case(String serializer, boolean sync, int concurrency) {
    /** {@code sync-32}, {@code async-128}. */
    public String load() {
      return (sync ? "sync-" : "async-") + concurrency;
    }

    public String id() {
      return serializer + " " + load();
    }
  }

  /**
   * One measured window of one side.
   *
   * @param side {@link #BOLTGEN} or {@link #SOFARPC}
   * @param cpuUsPerCall the client process's CPU (all threads) per answered call
   * @param otherCpuPercent other processes' CPU in the window (machine busy time minus this JVM, the provider's and
   *     the consumer's), % of one core; NaN if unknown
   */
  public record Window(Case c, String side, int round, long calls, long errors, String firstError, double seconds,
      double p50Us, double p99Us, double cpuUsPerCall, double otherCpuPercent, int attempts, boolean noisy) {
    public double rate() {
      return seconds > 0 ? calls / seconds : 0;
    }

    Window attempts(int n, boolean isNoisy) {
      return new Window(c, side, round, calls, errors, firstError, seconds, p50Us, p99Us, cpuUsPerCall, otherCpuPercent,
          n, isNoisy);
    }
  }

  /** What came out. */
  public record Result(List<Window> windows, List<String> failures, List<String> caveats) {}

  @FunctionalInterface
  interface Attempt {
    Window measure() throws Exception;
  }

  private SofaRpcBench() {}

  /** The class path in {@code file} (bolt-sofarpc-peer/target/peer.classpath); fails saying how to make it. */
  public static String peerClasspath(Path file) {
    return SofaPeer.classpath(file);
  }

  /** How long {@code s} takes when no window is measured again: every window's warm-up and measure, and JVM starts. */
  public static Duration estimate(Settings s) {
    return s.warmup().plus(s.measure()).multipliedBy(2L * s.cases().size() * s.rounds()).plusSeconds(10);
  }

  /** Runs {@code s}, printing progress and the tables to {@code out}, writing the report if {@code s.out()}. */
  public static Result execute(Settings s, PrintStream out) throws Exception {
    Instant started = Instant.now();
    Map<String, String> machine = MachineInfo.read();
    out.println("boltgen against SOFARPC 5.13.2 on " + machine.get("CPU") + ", " + machine.get("cores") + "; load average "
        + machine.get("load average at start") + "; about " + Fmt.duration(estimate(s)) + " unless windows are measured"
        + " again; logs: " + s.logDir());
    List<String> caveats = new ArrayList<>(s.caveats());
    double busy = ProcStat.otherCpuPercent(Duration.ofSeconds(1));
    if (busy > ProcStat.BUSY_PERCENT) {
      caveats.add(String.format(Locale.ROOT, "the machine was busy when it started (other processes took %.0f%% of a"
          + " core over 1 s): other work shared the CPUs", busy));
    }
    Files.createDirectories(s.logDir());
    List<Window> windows = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    try (ReadyProcess provider = SofaPeer.provider(s.peerClasspath(), s.jvmFlags(), s.logDir());
        ReadyProcess consumer = SofaPeer.consumer(s.peerClasspath(), s.jvmFlags(), s.logDir(),
            "127.0.0.1:" + provider.port());
        BoltClient client = BoltClient.builder().build()) {
      String address = "127.0.0.1:" + provider.port();
      out.printf("  SOFARPC provider: pid %d at %s; SOFARPC consumer: pid %d; boltgen client: this JVM (pid %d)%n",
          provider.pid(), address, consumer.pid(), ProcessHandle.current().pid());
      Sides sides = new Sides(s, client, address, provider.pid(), consumer);
      List<Case> cases = s.cases();
      for (int round = 1; round <= s.rounds(); round++) {
        for (int k = 0; k < cases.size(); k++) {
          Case c = cases.get((k + round - 1) % cases.size());
          boolean boltgenFirst = round % 2 == 1;
          for (String side : boltgenFirst ? List.of(BOLTGEN, SOFARPC) : List.of(SOFARPC, BOLTGEN)) {
            int r = round;
            try {
              Window w = quietest(s.quiet(), out, () -> side.equals(BOLTGEN) ? sides.boltgen(c, r) : sides.sofarpc(c, r));
              windows.add(w);
              if (w.errors() > 0 || w.calls() == 0) {
                failures.add(String.format(Locale.ROOT, "%s, %s, round %d: %d calls, %d errors %s", side, c.id(), r,
                    w.calls(), w.errors(), w.firstError()));
              }
            } catch (Exception e) {
              failures.add(side + ", " + c.id() + ", round " + r + ": " + e);
              out.println("  FAILED " + side + ", " + c.id() + ", round " + r + ": " + e);
            }
          }
        }
      }
    }
    Result result = new Result(windows, failures, caveats);
    Duration took = Duration.between(started, Instant.now());
    out.print("\n" + SofaRpcReport.console(s, result));
    if (!failures.isEmpty()) {
      out.println("\nFAILURES:");
      failures.forEach(f -> out.println("  " + f));
    }
    if (!caveats.isEmpty()) {
      out.println("\nNot a full measurement: " + String.join("; ", caveats));
    }
    if (s.out() != null) {
      Path parent = s.out().toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Files.writeString(s.out(), SofaRpcReport.markdown(s, result, machine, MachineInfo.loadAverage(), started, took),
          StandardCharsets.UTF_8);
      out.println("wrote " + s.out().toAbsolutePath());
    } else {
      out.println("no report written (not a full run; --out FILE writes one)");
    }
    out.println("took " + Fmt.duration(took));
    return result;
  }

  /** A window measured again while others took more CPU than {@code quiet} allows; the quietest kept. */
  static Window quietest(QuietPolicy quiet, PrintStream out, Attempt attempt) throws Exception {
    Window kept = null;
    for (int n = 1; ; n++) {
      Window w = attempt.measure();
      boolean noisy = quiet.noisy(w.otherCpuPercent());
      if (noisy && (kept == null || w.otherCpuPercent() < kept.otherCpuPercent())) {
        kept = w;
      }
      boolean again = noisy && quiet.again(w.otherCpuPercent(), n);
      Window done = !noisy ? w.attempts(n, false) : again ? null : kept.attempts(n, true);
      if (noisy) {
        out.printf(Locale.ROOT, "  %s %s: other processes took %.1f%% of a core in the window%s%n", w.side(),
            w.c().id(), w.otherCpuPercent(), again ? "; measuring again" : "; keeping the quietest, marked noisy");
      }
      if (done != null) {
        out.println("  " + SofaRpcReport.describe(done));
        return done;
      }
    }
  }

  /** The two sides' windows: the boltgen client in this JVM and the SOFARPC consumer's JVM. */
  private static final class Sides {
    final Settings s;
    final Map<String, BoltgenLoad.Call[]> calls = new LinkedHashMap<>();
    final long providerPid;
    final ReadyProcess consumer;

    Sides(Settings s, BoltClient client, String address, long providerPid, ReadyProcess consumer) {
      this.s = s;
      this.providerPid = providerPid;
      this.consumer = consumer;
      calls.put("protobuf", Workload.echo(client, address));
      calls.put("hessian2", Workload.greet(client, address));
    }

    Window boltgen(Case c, int round) throws Exception {
      long self = ProcessHandle.current().pid();
      BoltgenLoad load = BoltgenLoad.start(calls.get(c.serializer())[c.sync() ? 0 : 1], c.sync(), c.concurrency());
      try {
        Thread.sleep(s.warmup().toMillis()); // the warm-up: the load runs meanwhile
        ProcStat.Sample o0 = ProcStat.take(self, providerPid, consumer.pid());
        long cpu0 = ProcStat.cpuNanos(self);
        load.reset();
        Thread.sleep(s.measure().toMillis()); // the measured window
        BoltgenLoad.Window w = load.take();
        long cpu1 = ProcStat.cpuNanos(self);
        ProcStat.Sample o1 = ProcStat.take(self, providerPid, consumer.pid());
        Histogram h = w.nanos();
        boolean any = h.getTotalCount() > 0;
        return new Window(c, BOLTGEN, round, w.calls(), w.errors(), w.firstError(), w.seconds(),
            any ? h.getValueAtPercentile(50) / 1000.0 : Double.NaN, any ? h.getValueAtPercentile(99) / 1000.0 : Double.NaN,
            cpu0 < 0 || cpu1 < 0 || w.calls() == 0 ? Double.NaN : (cpu1 - cpu0) / 1000.0 / w.calls(),
            ProcStat.otherPercent(o0, o1, ProcStat.clockTicksPerSecond()), 1, false);
      } finally {
        load.stop();
      }
    }

    Window sofarpc(Case c, int round) throws Exception {
      long self = ProcessHandle.current().pid();
      consumer.send(c.serializer() + " " + (c.sync() ? "sync" : "async") + " " + c.concurrency() + " "
          + s.warmup().toMillis() + " " + s.measure().toMillis());
      Duration bound = s.warmup().plus(s.measure()).plusSeconds(60);
      next(consumer, "MEASURING", bound);
      ProcStat.Sample o0 = ProcStat.take(self, providerPid, consumer.pid());
      String result = next(consumer, "RESULT ", bound);
      ProcStat.Sample o1 = ProcStat.take(self, providerPid, consumer.pid());
      Map<String, String> f = Workload.fields(result);
      long n = Long.parseLong(f.get("calls"));
      long cpu = Long.parseLong(f.get("cpuns"));
      return new Window(c, SOFARPC, round, n, Long.parseLong(f.get("errors")), f.getOrDefault("error", ""),
          Double.parseDouble(f.get("seconds")), Double.parseDouble(f.get("p50us")), Double.parseDouble(f.get("p99us")),
          cpu < 0 || n == 0 ? Double.NaN : cpu / 1000.0 / n, ProcStat.otherPercent(o0, o1,
              ProcStat.clockTicksPerSecond()), 1, false);
    }

    /** The consumer's next line starting with {@code prefix} (its logs come in between), within {@code bound}. */
    private static String next(ReadyProcess p, String prefix, Duration bound) throws InterruptedException {
      long deadline = System.nanoTime() + bound.toNanos();
      while (true) {
        String line = p.nextLine(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        if (line == null) {
          throw new IllegalStateException("the SOFARPC consumer printed no " + prefix.trim() + " line (exited, or"
              + " silent for " + bound.toSeconds() + " s):\n" + p.tail());
        }
        if (line.startsWith(prefix)) {
          return line;
        }
        if (line.startsWith("BAD ")) {
          throw new IllegalStateException("the SOFARPC consumer did not understand: " + line);
        }
      }
    }
  }
}
