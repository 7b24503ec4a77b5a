package io.boltgen.bench.load;

import io.boltgen.bench.report.ClusterReport;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.runtime.cluster.LoadBalancer;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code cluster} case: how the client's balancing policies route around one slow instance among three.
 * Starts the three servers in one server JVM ({@link ClusterServerMain}) and the load in one client JVM
 * ({@link ClusterClientMain}), both children of this JVM (whose own CPU stays out of the way), collects
 * each window's result, and prints the Markdown table ({@link ClusterReport}) with the command that ran it.
 */
public final class ClusterBenchmark {

  private ClusterBenchmark() {}

  /**
   * What came out.
   *
   * @param results every measured window, in the order run
   * @param failures what failed
   * @param report the table over the results
   */
  public record Outcome(List<ClusterResult> results, List<String> failures, ClusterReport report) {}

  /** Runs {@code settings}, printing progress and the table to {@code out}; never throws for a failing child. */
  public static Outcome run(ClusterSettings settings, PrintStream out) throws InterruptedException {
    Map<String, String> machine = MachineInfo.read();
    out.println("boltgen benchmarks on " + machine.get("CPU") + ", " + machine.get("cores") + "; load average "
        + machine.get("load average at start"));
    out.printf(Locale.ROOT, "cluster: %d instances (instance %d answers %d ms late) in one server JVM; %d async callers"
            + " in one client JVM; policies %s; %d round(s) × %d windows of %ss warm-up + %ss measured; about %s."
            + " Child logs: %s%n",
        ClusterSettings.INSTANCES, ClusterSettings.SLOW_INDEX, settings.slowMillis(), settings.concurrency(),
        names(settings.policies()), settings.rounds(), settings.policies().size(), Fmt.seconds(settings.warmup()),
        Fmt.seconds(settings.measure()), Fmt.duration(settings.estimate()), settings.logDir());
    List<ClusterResult> results = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    Instant started = Instant.now();
    String failure = runChildren(settings, out, results);
    if (failure != null) {
      failures.add(failure);
    }
    Duration took = Duration.between(started, Instant.now());
    ClusterReport report = new ClusterReport(settings, results);
    out.println();
    out.print(report.markdown(started, took, machine));
    if (!failures.isEmpty()) {
      out.println("\nFAILURES:");
      failures.forEach(f -> out.println("  " + f));
    }
    if (!settings.caveats().isEmpty()) {
      out.println("\nNot a full measurement: " + String.join("; ", settings.caveats()));
    }
    out.println("took " + Fmt.duration(took));
    return new Outcome(results, failures, report);
  }

  /** Runs the server and client JVMs; returns a failure description, or null. */
  private static String runChildren(ClusterSettings settings, PrintStream out, List<ClusterResult> results)
      throws InterruptedException {
    List<String> serverCommand = Orchestrator.childCommand(settings.jvmFlags(), settings.logDir(), List.of());
    serverCommand.addAll(List.of("cluster-server", "--host", settings.host(),
        "--instances", Integer.toString(ClusterSettings.INSTANCES),
        "--slow-index", Integer.toString(ClusterSettings.SLOW_INDEX),
        "--slow-ms", Long.toString(settings.slowMillis())));
    try (Child server = Child.start("cluster server", serverCommand, settings.logDir().resolve("cluster-server.log"))) {
      String ready = server.next(Duration.ofSeconds(90));
      if (ready == null || !ready.startsWith(Protocol.READY)) {
        return fail(out, "server did not start (" + ready + ")", server);
      }
      String ports = Orchestrator.field(ready, "ports");
      out.printf(Locale.ROOT, "  server pid %s, instances on %s ports %s (the first is the slow one)%n",
          Orchestrator.field(ready, "pid"), settings.host(), ports);

      List<String> clientCommand = Orchestrator.childCommand(settings.jvmFlags(), settings.logDir(), List.of());
      clientCommand.addAll(List.of("cluster-client", "--host", settings.host(), "--ports", ports,
          "--slow-index", Integer.toString(ClusterSettings.SLOW_INDEX), "--policies", names(settings.policies()),
          "--rounds", Integer.toString(settings.rounds()), "--concurrency", Integer.toString(settings.concurrency()),
          "--payload", Integer.toString(settings.payloadBytes()),
          "--warmup-ms", Long.toString(settings.warmup().toMillis()),
          "--measure-ms", Long.toString(settings.measure().toMillis())));
      // the first line comes after the warm-up pass over every policy
      Duration perLine = settings.warmup().multipliedBy(settings.policies().size() + 1L).plus(settings.measure())
          .plusSeconds(90);
      int total = settings.windows();
      try (Child client = Child.start("cluster client", clientCommand, settings.logDir().resolve("cluster-client.log"))) {
        String failure = null;
        while (true) {
          String line = client.next(perLine);
          if (line == null) {
            failure = fail(out, "client stopped answering or exited", client);
            break;
          }
          if (line.startsWith(Protocol.CASE)) {
            String[] parts = line.substring(Protocol.CASE.length()).trim().split(" ");
            out.printf(Locale.ROOT, "  [%2d/%2d] round %s/%d  %-15s ", results.size() + 1, total, parts[1],
                settings.rounds(), parts[0]);
            out.flush();
          } else if (line.startsWith(Protocol.RESULT)) {
            ClusterResult r = ClusterResult.parse(line.substring(Protocol.RESULT.length()).trim());
            results.add(r);
            out.println(ClusterReport.describe(r));
          } else if (line.startsWith(Protocol.FAILED)) {
            out.println();
            failure = fail(out, "client failed: " + line.substring(Protocol.FAILED.length()).trim(), client);
            break;
          } else if (line.startsWith(Protocol.DONE)) {
            break;
          }
        }
        if (!client.waitFor(Duration.ofSeconds(30))) {
          out.println("  the cluster client did not exit in 30 s; stopping it");
        }
        if (failure != null) {
          return failure;
        }
      }
      if (!server.isAlive()) {
        return fail(out, "server exited during the run", server);
      }
    }
    return null;
  }

  private static String fail(PrintStream out, String what, Child child) {
    return child.reportFailure("cluster: " + what, out);
  }

  /** {@code ROUND_ROBIN,LEAST_PENDING}. */
  public static String names(List<LoadBalancer> policies) {
    StringBuilder sb = new StringBuilder();
    for (LoadBalancer p : policies) {
      sb.append(sb.length() > 0 ? "," : "").append(p.name());
    }
    return sb.toString();
  }
}
