package io.boltgen.bench.mesh;

import io.boltgen.bench.run.Protocol;
import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The three provider JVMs of the {@code mesh} benchmark ({@link HashProviderMain}), the contest's capacities
 * 1:2:3: registry weights 100, 200 and 300, and the small one pinned to CPU 0 with {@code taskset -c 0} where there
 * is a taskset. Each is asked for its counters over its standard input ({@link #stats}).
 */
final class MeshProviders implements AutoCloseable {

  /** The provider's answer to {@code stats ID}. */
  static final String STATS = "STATS";

  /** The providers' names and weights, small to large. */
  static final List<String> NAMES = List.of("small", "medium", "large");
  static final List<Integer> WEIGHTS = List.of(100, 200, 300);

  /**
   * A provider's counters.
   *
   * @param answered calls answered since it started
   * @param mostAtOnce the most calls running at once since the previous {@code stats}
   * @param peak the most calls running at once since it started
   * @param refused calls its pool refused (answered SERVER_THREADPOOL_BUSY) since it started
   */
  record Stats(long answered, int mostAtOnce, int peak, long refused) {}

  /** One provider JVM. */
  static final class Provider {
    final String name;
    final int weight;
    final boolean pinned;
    final ReadyProcess process;
    final long pid;
    private long nextId;

    Provider(String name, int weight, boolean pinned, ReadyProcess process) {
      this.name = name;
      this.weight = weight;
      this.pinned = pinned;
      this.process = process;
      this.pid = Long.parseLong(Protocol.fields(process.readyLine()).get("pid"));
    }

    /** Its counters now, or null when it did not answer within {@code timeout} (frozen, or gone). */
    synchronized Stats stats(Duration timeout) throws IOException, InterruptedException {
      String id = Long.toString(++nextId);
      process.send("stats " + id);
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        String line = process.nextLine(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        if (line == null) {
          return null;
        }
        if (line.startsWith(STATS + " " + id + " ")) { // earlier answers, given late, are skipped
          Map<String, String> f = Protocol.fields(line);
          return new Stats(Long.parseLong(f.get("answered")), Integer.parseInt(f.get("max")),
              Integer.parseInt(f.get("peak")), Long.parseLong(f.get("refused")));
        }
      }
    }
  }

  private final List<Provider> providers;

  private MeshProviders(List<Provider> providers) {
    this.providers = List.copyOf(providers);
  }

  /** Whether {@code taskset} is on the PATH. */
  static boolean hasTaskset() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "taskset"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Starts the three providers against etcd at {@code etcdUrl}, side by side, each ready (listening and registered)
   * within 60 s; on a failure, those that started are stopped and the failure names the log.
   */
  static MeshProviders start(String etcdUrl, int threads, long delayMillis, long leaseSeconds, List<String> jvmFlags,
      Path logDir) throws IOException, InterruptedException {
    boolean taskset = hasTaskset();
    ExecutorService starting = Executors.newFixedThreadPool(NAMES.size());
    List<Future<Provider>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < NAMES.size(); i++) {
        int index = i;
        futures.add(starting.submit(() -> launch(index, index == 0 && taskset, etcdUrl, threads, delayMillis,
            leaseSeconds, jvmFlags, logDir)));
      }
      List<Provider> started = new ArrayList<>();
      IllegalStateException failed = null;
      for (Future<Provider> f : futures) {
        try {
          started.add(f.get());
        } catch (ExecutionException e) {
          failed = failed == null ? new IllegalStateException(e.getCause().getMessage(), e.getCause()) : failed;
        }
      }
      if (failed != null) {
        try {
          new MeshProviders(started).close();
        } catch (IOException e) {
          failed.addSuppressed(e);
        }
        throw failed;
      }
      return new MeshProviders(started);
    } finally {
      starting.shutdown();
    }
  }

  private static Provider launch(int i, boolean pin, String etcdUrl, int threads, long delayMillis, long leaseSeconds,
      List<String> jvmFlags, Path logDir) {
    List<String> command = new ArrayList<>();
    if (pin) {
      command.addAll(List.of("taskset", "-c", "0"));
    }
    command.addAll(ReadyProcess.java(jvmFlags, HashProviderMain.class.getName(), List.of("--etcd", etcdUrl,
        "--weight", Integer.toString(WEIGHTS.get(i)), "--threads", Integer.toString(threads), "--delay-ms",
        Long.toString(delayMillis), "--lease-ttl-s", Long.toString(leaseSeconds))));
    Path log = logDir.resolve("provider-" + NAMES.get(i) + ".log");
    try {
      return new Provider(NAMES.get(i), WEIGHTS.get(i), pin, ReadyProcess.launcher(command).log(log)
          .marker(Protocol.PREFIX).stopLine(Protocol.STOP).readyTimeout(Duration.ofSeconds(60)).start());
    } catch (Exception e) {
      throw new IllegalStateException("provider " + NAMES.get(i) + " did not start: " + e.getMessage() + "; log: "
          + log, e);
    }
  }

  List<Provider> all() {
    return providers;
  }

  /** The large provider, the one the freeze stops. */
  Provider large() {
    return providers.get(providers.size() - 1);
  }

  /** Every provider's counters, in order; fails naming one that did not answer within 5 s. */
  List<Stats> stats() throws IOException, InterruptedException {
    List<Stats> all = new ArrayList<>();
    for (Provider p : providers) {
      Stats s = p.stats(Duration.ofSeconds(5));
      if (s == null) {
        throw new IOException("provider " + p.name + " (pid " + p.pid + ") did not answer 'stats' within 5 s; log: "
            + p.process.logFile());
      }
      all.add(s);
    }
    return all;
  }

  /** Stops every provider ({@link ReadyProcess#close}: continued, told to stop on its input, then signalled). */
  @Override
  public void close() throws IOException {
    IOException first = null;
    for (int i = providers.size() - 1; i >= 0; i--) {
      try {
        providers.get(i).process.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
