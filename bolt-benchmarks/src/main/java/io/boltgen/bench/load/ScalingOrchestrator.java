package io.boltgen.bench.load;

import io.boltgen.bench.report.Fmt;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the scaling curves. Per curve, every system gets a fresh server JVM and a fresh client JVM (a
 * {@link ScaleClientMain}), warmed up once; all of them stay up for the whole curve, and at each point the
 * systems are measured one after another, point k starting with system k mod n ({@link Rotation}), so that
 * slow drift of the machine spreads over all of them. Fresh JVMs per point would each need the ~40 s warm-up of
 * the load matrix; reused ones carry the JIT profile of earlier points of the curve, as a long-lived service
 * does. The idle pairs of the other systems wait meanwhile; what they use shows in the other-CPU figure.
 */
public final class ScalingOrchestrator {

  private final ScalingSettings settings;
  private final PrintStream progress;

  public ScalingOrchestrator(ScalingSettings settings, PrintStream progress) {
    this.settings = settings;
    this.progress = progress;
  }

  /** The results of every point and what failed. */
  public record Outcome(List<PointResult> results, List<String> failures) {}

  /** A system's JVM pair for one curve. */
  private record Pair(EchoSystem system, Child server, Child client) {}

  /** Runs every curve; never throws for a failing system. */
  public Outcome run() throws InterruptedException {
    List<PointResult> results = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    long start = System.nanoTime();
    int total = settings.windows();
    int done = 0;
    progress.printf(Locale.ROOT, "scaling: %d system(s) × %d point(s) in %d curve(s); per curve fresh JVM pairs warmed"
            + " up for %ss, then per point %ss warm-up + %ss measured; about %s. Child logs: %s%n",
        settings.systems().size(), total / Math.max(1, settings.systems().size()), settings.sweeps().size(),
        Fmt.seconds(settings.jvmWarmup()), Fmt.seconds(settings.warmup()), Fmt.seconds(settings.measure()),
        Fmt.duration(settings.estimate()), settings.logDir());
    for (Sweep sweep : settings.sweeps()) {
      List<ScalePoint> points = settings.points(sweep);
      Map<String, Pair> pairs = new LinkedHashMap<>();
      try {
        for (EchoSystem system : settings.systems()) {
          Pair pair = startPair(system, sweep, failures);
          if (pair != null) {
            pairs.put(system.id(), pair);
          }
        }
        for (int k = 0; k < points.size(); k++) {
          ScalePoint point = points.get(k);
          for (EchoSystem system : Rotation.of(settings.systems(), k + 1)) {
            Pair pair = pairs.get(system.id());
            done++;
            if (pair == null) {
              continue;
            }
            progress.printf(Locale.ROOT, "  [%3d/%3d] %-16s %-20s ", done, total, point.label(), system.id());
            progress.flush();
            String failure = measure(pair, point, results);
            if (failure != null) {
              progress.println();
              failures.add(failure);
              pairs.remove(system.id());
              close(pair);
            }
          }
        }
      } finally {
        pairs.values().forEach(ScalingOrchestrator::close);
      }
    }
    progress.printf(Locale.ROOT, "scaling: done in %s%n", Fmt.duration(Duration.ofNanos(System.nanoTime() - start)));
    return new Outcome(results, failures);
  }

  private Pair startPair(EchoSystem system, Sweep sweep, List<String> failures) throws InterruptedException {
    String tag = "scaling-" + sweep.id() + "-" + system.id();
    List<String> serverCommand = Orchestrator.childCommand(settings.jvmFlags(), settings.logDir(), List.of());
    serverCommand.addAll(List.of("server", "--system", system.id(), "--host", settings.host(), "--port", "0"));
    Child server = Child.start(system.id() + " server", serverCommand, settings.logDir().resolve(tag + "-server.log"));
    String ready = server.next(Duration.ofSeconds(90));
    if (ready == null || !ready.startsWith(Protocol.READY)) {
      failures.add(fail(system, sweep, "server did not start (" + ready + ")", server));
      server.close();
      return null;
    }
    String port = Orchestrator.field(ready, "port");
    String pid = Orchestrator.field(ready, "pid");
    List<String> clientCommand = Orchestrator.childCommand(settings.jvmFlags(), settings.logDir(), List.of());
    clientCommand.addAll(List.of("scale-client", "--system", system.id(), "--host", settings.host(), "--port", port,
        "--server-pid", pid, "--server-stats-port", Orchestrator.field(ready, "stats"), "--sweep", sweep.id(),
        "--jvm-warmup-ms", Long.toString(settings.jvmWarmup().toMillis()),
        "--warmup-ms", Long.toString(settings.warmup().toMillis()),
        "--measure-ms", Long.toString(settings.measure().toMillis()),
        "--quiet-threshold", Double.toString(settings.quiet().thresholdPercent()),
        "--quiet-repeats", Integer.toString(settings.quiet().maxRepeats())));
    progress.printf(Locale.ROOT, "  %s %s: server pid %s on %s:%s; warming the JVM pair up for %ss%n", sweep.id(),
        system.id(), pid, settings.host(), port, Fmt.seconds(settings.jvmWarmup()));
    Child client = Child.start(system.id() + " scaling client", clientCommand,
        settings.logDir().resolve(tag + "-client.log"));
    String up = client.next(settings.jvmWarmup().plusSeconds(90));
    if (up == null || !up.startsWith(Protocol.READY)) {
      failures.add(fail(system, sweep, "client did not get ready (" + up + ")", client));
      close(new Pair(system, server, client));
      return null;
    }
    return new Pair(system, server, client);
  }

  /** Asks {@code pair}'s client for {@code point}; returns a failure description, or null. */
  private String measure(Pair pair, ScalePoint point, List<PointResult> results) throws InterruptedException {
    try {
      pair.client().send(Protocol.POINT + " " + point.token());
    } catch (IOException e) {
      return fail(pair.system(), point.sweep(), "client went away: " + e, pair.client());
    }
    // connection set-up, warm-up, and every attempt at the window
    Duration timeout = settings.warmup().plus(settings.measure().multipliedBy(1 + settings.quiet().maxRepeats()))
        .plusMillis(20L * point.connections()).plusSeconds(90);
    while (true) {
      String line = pair.client().next(timeout);
      if (line == null) {
        return fail(pair.system(), point.sweep(), "client stopped answering or exited at " + point.label(), pair.client());
      }
      if (line.startsWith(Protocol.RESULT)) {
        PointResult r = PointResult.parse(line.substring(Protocol.RESULT.length()).trim());
        results.add(r);
        progress.println(describe(r));
        return null;
      }
      if (line.startsWith(Protocol.FAILED)) {
        return fail(pair.system(), point.sweep(), "client failed at " + point.label() + ": "
            + line.substring(Protocol.FAILED.length()).trim(), pair.client());
      }
    }
  }

  /** One point's result, for a progress line. */
  static String describe(PointResult r) {
    Measured m = r.m();
    return String.format(Locale.ROOT, "%9s/s %s p50 %8s  p99 %8s  cpu %6s µs/call  alloc %s + %s /call  conns %d"
            + "  others %s%s%s%s",
        Fmt.rate(r.throughput()), r.point().sweep() == Sweep.PAYLOAD
            ? String.format(Locale.ROOT, "%7.1f MB/s each way ", r.megabytesPerSecondEachWay()) : "",
        Fmt.micros(m.p50Us()), Fmt.micros(m.p99Us()), Fmt.num(r.cpuUs(), 1), Fmt.bytes(m.clientAllocBytes()),
        Fmt.bytes(m.serverAllocBytes()), m.serverConnections(), Fmt.percent(m.otherCpuPercent()),
        m.attempts() > 1 ? "  [" + m.attempts() + " attempts]" : "", m.noisy() ? "  [NOISY]" : "",
        m.errors() > 0 ? "  ERRORS " + m.errors() + " (" + m.firstError() + ")" : "");
  }

  private String fail(EchoSystem system, Sweep sweep, String what, Child child) {
    return child.reportFailure(system.id() + " (" + sweep.id() + " curve): " + what, progress);
  }

  private static void close(Pair pair) {
    pair.client().close();
    pair.server().close();
  }
}
