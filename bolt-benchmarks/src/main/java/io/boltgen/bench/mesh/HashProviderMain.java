package io.boltgen.bench.mesh;

import io.boltgen.bench.run.Protocol;
import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * One provider of the {@code mesh} benchmark, a JVM of its own: {@code java -cp bolt-benchmarks.jar
 * io.boltgen.bench.mesh.HashProviderMain --etcd http://127.0.0.1:PORT [--weight 100] [--threads 200] [--delay-ms 50]
 * [--lease-ttl-s 10]}. It serves {@link HashService} ({@link SleepingHash}) on loopback on a pool of exactly
 * {@code threads} threads that refuses a call beyond them (the server answers it SERVER_THREADPOOL_BUSY),
 * registered in etcd with weight {@code W} and {@code maxConcurrentCalls} = {@code threads}. It prints the
 * {@link Protocol} line {@code READY port=P pid=N}, then answers each line {@code stats ID} on its standard input
 * with {@code STATS ID answered=N running=R max=M peak=P refused=F} (max: the most calls at once since the previous
 * {@code stats}); {@code stop}, the end of its input or SIGTERM closes it (deregistered first). A wrong argument is
 * a line {@code error: ...} and a hint on standard error and exit status 2, as in boltgen's other programs.
 */
@Command(name = "java -cp bolt-benchmarks.jar io.boltgen.bench.mesh.HashProviderMain", sortOptions = false,
    description = "One provider of the mesh benchmark: mesh.Hash on loopback, registered in etcd.")
public final class HashProviderMain implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(HashProviderMain.class);

  @Option(names = "--etcd", required = true, paramLabel = "URL", description = "etcd's client URL")
  String etcd;
  @Option(names = "--weight", paramLabel = "W", description = "its weight in etcd (default 100)")
  int weight = 100;
  @Option(names = "--threads", paramLabel = "N", description = "its pool, and its maxConcurrentCalls (default 200)")
  int threads = 200;
  @Option(names = "--delay-ms", paramLabel = "MS", description = "each call's work (default 50)")
  long delayMillis = 50;
  @Option(names = "--lease-ttl-s", paramLabel = "S", description = "its etcd lease (default 10)")
  long leaseSeconds = 10;
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;
  @Spec
  CommandSpec spec;

  HashProviderMain() {}

  public static void main(String[] args) {
    Protocol.claimStdout();
    System.exit(commandLine().execute(args));
  }

  /** Its command line: usage errors and refused values are an {@code error:} line and a hint, exit status 2. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new HashProviderMain());
    cl.setParameterExceptionHandler((e, args) -> {
      e.getCommandLine().getErr().println("error: " + e.getMessage());
      e.getCommandLine().getErr().println("('" + cl.getCommandName() + " --help' lists the options)");
      return 2;
    });
    return cl;
  }

  @Override
  public Integer call() throws Exception {
    if (weight < 1 || threads < 1 || delayMillis < 0 || leaseSeconds < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--weight, --threads and --lease-ttl-s must be at"
          + " least 1, --delay-ms at least 0");
    }
    AtomicLong refused = new AtomicLong();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
        r -> {
          Thread t = new Thread(r, "hash-worker");
          t.setDaemon(true);
          return t;
        },
        (task, executor) -> {
          refused.incrementAndGet();
          throw new RejectedExecutionException("all " + threads + " threads are busy");
        });
    pool.prestartAllCoreThreads();
    SleepingHash hash = new SleepingHash(delayMillis);
    EtcdRegistry registry = EtcdRegistry.builder().endpoints(etcd).leaseTtl(Duration.ofSeconds(leaseSeconds)).build();
    BoltServer server;
    try {
      server = BoltServer.builder().bind("127.0.0.1", 0).service(HashServiceBolt.bind(hash), pool).registry(registry)
          .instance(weight, "", Map.of()).maxConcurrentCalls(threads).drainTime(Duration.ofSeconds(1)).build()
          .start();
    } catch (RuntimeException e) {
      registry.close();
      pool.shutdownNow();
      throw e;
    }
    Thread closing = new Thread(() -> {
      server.close();
      registry.close();
      pool.shutdownNow();
    }, "provider-shutdown");
    Runtime.getRuntime().addShutdownHook(closing);
    LOG.info("serving mesh.Hash:1.0 on 127.0.0.1:{}: weight {}, {} threads (maxConcurrentCalls {}), {} ms per call,"
        + " etcd {} with a lease of {} s", server.port(), weight, threads, threads, delayMillis, etcd, leaseSeconds);
    Protocol.send(Protocol.READY, "port=" + server.port() + " pid=" + ProcessHandle.current().pid());

    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        String[] words = line.trim().split("\\s+");
        if (words[0].equals(Protocol.STOP)) {
          break;
        }
        if (words[0].equals("stats") && words.length == 2) {
          Protocol.send(MeshProviders.STATS, String.format(Locale.ROOT, "%s answered=%d running=%d max=%d peak=%d"
                  + " refused=%d", words[1], hash.answered(), hash.running(), hash.takeMostAtOnce(), hash.mostEver(),
              refused.get()));
        }
      }
    }
    LOG.info("stopping: {} calls answered, at most {} at once, {} refused", hash.answered(), hash.mostEver(),
        refused.get());
    System.exit(0); // the shutdown hook deregisters and closes the server
    return 0;
  }
}
