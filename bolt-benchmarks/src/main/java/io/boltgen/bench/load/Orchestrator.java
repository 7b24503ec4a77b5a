package io.boltgen.bench.load;

import io.boltgen.bench.load.boltgen.BenchTls;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.LoadReport;
import io.boltgen.bench.report.MachineInfo;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs the load matrix: for each run, for each system, a server JVM and a client JVM (the client runs every
 * case in turn over one connection, then the first again), and collects the results. Systems are interleaved
 * within each run, and the order rotates from run to run ({@link Rotation}), so slow drift of the machine
 * spreads over all of them instead of favouring one, and no system always goes first. A system that fails is
 * reported and skipped; the others go on.
 */
public final class Orchestrator {

  private final LoadSettings settings;
  private final PrintStream progress;
  private final BufferedReader console;

  public Orchestrator(LoadSettings settings, PrintStream progress) {
    this.settings = settings;
    this.progress = progress;
    this.console = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
  }

  /**
   * One run of the matrix, for the report's account of how quiet the machine was.
   *
   * @param run the run (1-based)
   * @param order the systems' ids in the order they ran
   * @param loadAverageStart the 1, 5 and 15 minute load averages when the run started
   * @param loadAverageEnd the same when it ended
   */
  public record RunInfo(int run, List<String> order, String loadAverageStart, String loadAverageEnd) {}

  /** The results of the matrix (repeats of the first case included), its runs, and what failed. */
  public record Outcome(List<CaseResult> results, List<RunInfo> runs, List<String> failures) {

    /** The results without the repeats of each client's first case. */
    public List<CaseResult> measured() {
      List<CaseResult> out = new ArrayList<>();
      for (CaseResult r : results) {
        if (!r.repeat()) {
          out.add(r);
        }
      }
      return out;
    }
  }

  /** Runs everything; never throws for a failing system. */
  public Outcome run() throws InterruptedException {
    List<CaseResult> results = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    List<RunInfo> runs = new ArrayList<>();
    int total = settings.windows();
    int[] done = {0};
    long start = System.nanoTime();
    progress.printf(Locale.ROOT, "load: %d system(s) × (%d case(s) + the first again) × %d run(s) = %d windows of %ss"
            + " warm-up + %ss measured, after a %ss warm-up pass per client; windows where other processes took more"
            + " than %s%% of a core measured again up to %d time(s); about %s. Child logs: %s%n",
        settings.systems().size(), settings.cases().size(), settings.runs(), total, Fmt.seconds(settings.warmup()),
        Fmt.seconds(settings.measure()), Fmt.seconds(settings.warmUpPass()), Fmt.num(settings.quiet().thresholdPercent(), 1),
        settings.quiet().maxRepeats(), Fmt.duration(settings.estimate()), settings.logDir());
    for (int run = 1; run <= settings.runs(); run++) {
      List<EchoSystem> order = Rotation.of(settings.systems(), run);
      String loadStart = MachineInfo.loadAverage();
      List<String> ids = new ArrayList<>();
      for (EchoSystem system : order) {
        ids.add(system.id());
        String failure = runSystem(system, run, results, done, total, start);
        if (failure != null) {
          failures.add(failure);
          done[0] += settings.windowsPerClient() - countFor(results, system.id(), run);
        }
      }
      runs.add(new RunInfo(run, ids, loadStart, MachineInfo.loadAverage()));
    }
    progress.printf(Locale.ROOT, "load: done in %s%n", Fmt.duration(Duration.ofNanos(System.nanoTime() - start)));
    return new Outcome(results, runs, failures);
  }

  private static int countFor(List<CaseResult> results, String system, int run) {
    int n = 0;
    for (CaseResult r : results) {
      if (r.system().equals(system) && r.run() == run) {
        n++;
      }
    }
    return n;
  }

  /** Runs one system's cases once; returns a failure description, or null. */
  private String runSystem(EchoSystem system, int run, List<CaseResult> results, int[] done, int total, long start)
      throws InterruptedException {
    String tag = "run" + run + "-" + system.id();
    List<String> serverCommand = command(settings.serverJvmArgs());
    serverCommand.addAll(List.of("server", "--system", system.id(), "--host", settings.host(), "--port", "0"));
    try (Child server = Child.start(system.id() + " server", serverCommand, settings.logDir().resolve(tag + "-server.log"))) {
      String ready = server.next(Duration.ofSeconds(90));
      if (ready == null || !ready.startsWith(Protocol.READY)) {
        return fail(system, run, "server did not start (" + ready + ")", server);
      }
      int port = Integer.parseInt(field(ready, "port"));
      long pid = Long.parseLong(field(ready, "pid"));
      int statsPort = Integer.parseInt(field(ready, "stats"));
      progress.printf(Locale.ROOT, "  run %d/%d %s: server pid %d on %s:%d (%s)%n", run, settings.runs(), system.id(),
          pid, settings.host(), port, system.description());

      List<String> clientCommand = command(settings.clientJvmArgs());
      clientCommand.addAll(List.of("client", "--system", system.id(), "--host", settings.host(),
          "--port", Integer.toString(port), "--server-pid", Long.toString(pid),
          "--server-stats-port", Integer.toString(statsPort), "--run", Integer.toString(run),
          "--cases", cases(), "--warmup-ms", Long.toString(settings.warmup().toMillis()),
          "--measure-ms", Long.toString(settings.measure().toMillis()),
          "--warmup-pass-ms", Long.toString(settings.warmUpPass().toMillis()),
          "--quiet-threshold", Double.toString(settings.quiet().thresholdPercent()),
          "--quiet-repeats", Integer.toString(settings.quiet().maxRepeats())));
      // the first line comes after the warm-up pass over every case; a noisy window may be measured 1 + repeats times
      Duration perLine = settings.warmup().plus(settings.measure().multipliedBy(1 + settings.quiet().maxRepeats()))
          .plus(settings.warmUpPass()).plusSeconds(90);
      try (Child client = Child.start(system.id() + " client", clientCommand, settings.logDir().resolve(tag + "-client.log"))) {
        String failure = null;
        while (true) {
          String line = client.next(perLine);
          if (line == null) {
            failure = fail(system, run, "client stopped answering or exited", client);
            break;
          }
          if (line.startsWith(Protocol.CASE)) {
            String[] words = line.substring(Protocol.CASE.length()).trim().split(" ");
            LoadCase c = LoadCase.parse(words[0]);
            String label = c.label() + (words.length > 1 && words[1].equals("repeat") ? " again" : "");
            progress.printf(Locale.ROOT, "  [%3d/%3d] run %d/%d  %-19s %-22s ", done[0] + 1, total, run, settings.runs(),
                system.id(), label);
            progress.flush();
          } else if (line.startsWith(Protocol.RESULT)) {
            CaseResult r = CaseResult.parse(line.substring(Protocol.RESULT.length()).trim());
            results.add(r);
            done[0]++;
            progress.println(describe(r) + eta(done[0], total, start));
          } else if (line.startsWith(Protocol.FAILED)) {
            progress.println();
            failure = fail(system, run, "client failed: " + line.substring(Protocol.FAILED.length()).trim(), client);
            break;
          } else if (line.startsWith(Protocol.DONE)) {
            break;
          }
        }
        if (!client.waitFor(Duration.ofSeconds(30))) {
          progress.printf("  %s client did not exit in 30 s; stopping it%n", system.id());
        }
        if (failure != null) {
          return failure;
        }
      }
      if (!server.isAlive()) {
        return fail(system, run, "server exited during the run", server);
      }
      if (settings.keepServer()) {
        progress.printf(Locale.ROOT, "  %s server still running: pid %d on %s:%d. Press Enter to stop it and go on.%n",
            system.id(), pid, settings.host(), port);
        try {
          console.readLine();
        } catch (IOException e) {
          // no console: go on
        }
      }
    }
    return null;
  }

  private String fail(EchoSystem system, int run, String what, Child child) {
    return child.reportFailure(system.id() + " (run " + run + "): " + what, progress);
  }

  /** One result, for a progress line. */
  public static String describe(CaseResult r) {
    return String.format(Locale.ROOT, "%9s/s  p50 %8s  p99 %8s  p99.9 %8s  cpu %6s µs/call  others %s%s%s%s",
        Fmt.rate(r.throughput()), Fmt.micros(r.p50Us()), Fmt.micros(r.p99Us()), Fmt.micros(r.p999Us()),
        Fmt.num(r.cpuUs(), 1), Fmt.percent(r.otherCpuPercent()),
        r.attempts() > 1 ? "  [" + r.attempts() + " attempts]" : "", r.noisy() ? "  [NOISY]" : "",
        r.clientJitPercent() > LoadReport.JIT_WARNING_PERCENT
            ? String.format(Locale.ROOT, "  [client JIT %.0f%% of window]", r.clientJitPercent()) : "",
        r.errors() > 0 ? "  ERRORS " + r.errors() + " (" + r.firstError() + ")" : "");
  }

  private static String eta(int done, int total, long start) {
    if (done >= total) {
      return "";
    }
    long elapsed = System.nanoTime() - start;
    return "  (ETA " + Fmt.duration(Duration.ofNanos(elapsed / done * (total - done))) + ")";
  }

  private String cases() {
    StringBuilder sb = new StringBuilder();
    for (LoadCase c : settings.cases()) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(c.token());
    }
    return sb.toString();
  }

  /** The value of {@code key=value} in a protocol line such as {@code READY port=… pid=…}. */
  static String field(String line, String key) {
    for (String part : line.split(" ")) {
      if (part.startsWith(key + "=")) {
        return part.substring(key.length() + 1);
      }
    }
    throw new IllegalArgumentException("no " + key + " in " + line);
  }

  /** {@code java <flags> <extra> -cp <this class path> io.boltgen.bench.Main}. */
  private List<String> command(List<String> extra) {
    return childCommand(settings.jvmFlags(), settings.logDir(), extra);
  }

  /**
   * The command line of a child JVM of the benchmarks (the load matrix's, the cluster case's):
   * {@code java <jvmFlags> <extra> -cp <this class path> io.boltgen.bench.Main}, to which the caller appends
   * the child's command and options.
   */
  static List<String> childCommand(List<String> jvmFlags, Path logDir, List<String> extra) {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBinary());
    cmd.addAll(jvmFlags);
    cmd.add("-Dlogging.path=" + logDir.toAbsolutePath()); // where SOFABolt's own log files go
    // where a boltgen-tls server writes the certificates it generates and its client reads the CA
    cmd.add("-D" + BenchTls.DIR_PROPERTY + "=" + logDir.resolve("tls").toAbsolutePath());
    cmd.addAll(extra);
    cmd.add("-cp");
    cmd.add(classPath());
    cmd.add("io.boltgen.bench.Main");
    return cmd;
  }

  /** The java launcher of this JVM. */
  public static String javaBinary() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** This JVM's class path, made absolute. */
  public static String classPath() {
    StringBuilder sb = new StringBuilder();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      if (sb.length() > 0) {
        sb.append(File.pathSeparatorChar);
      }
      sb.append(Path.of(entry).toAbsolutePath());
    }
    return sb.toString();
  }
}
