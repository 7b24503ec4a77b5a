package io.boltgen.bench;

import io.boltgen.bench.Options.QuietOptions;
import io.boltgen.bench.Options.ChildOptions;
import io.boltgen.bench.mesh.MeshBench;
import io.boltgen.bench.mesh.MeshRun;
import io.boltgen.bench.run.Tools;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code mesh} command: options, then a {@link io.boltgen.bench.mesh.MeshBench} run. */
@Command(name = "mesh", description = {"The 2018 Alibaba mesh-agent contest on loopback: an etcd, three provider"
    + " JVMs of mesh.Hash (50 ms per call, 200 threads each, capacities 1:2:3 by weights 100/200/300 and the small one"
    + " pinned to CPU 0) and the gateway (GatewayMain) in its own JVM, loaded by wrk with random JSON texts at each"
    + " connection count, per balancing policy; the same closed loop through a boltgen client without HTTP; then the"
    + " large provider frozen (SIGSTOP) and continued under load. Needs etcd and Debian's wrk (installed when missing"
    + " where scripts/ can). Writes docs/benchmarks-mesh.md and docs/img/mesh-qps.png for a full run (or --out DIR)."})
final class Mesh extends Measuring {
  @Option(names = "--connections", paramLabel = "LIST", split = ",", description = "wrk's connections per point, and"
      + " the direct client's calls in flight (default 128,256,512)")
  List<Integer> connections;
  @Option(names = "--warmup", paramLabel = "S", description = "unmeasured load before each point (default 10)")
  Double warmup;
  @Option(names = "--duration", paramLabel = "S", description = "measured window per point (default 30)")
  Double duration;
  @Option(names = "--policies", paramLabel = "LIST", split = ",", description = "the gateway's balancing policies, a"
      + " fresh gateway each (default least-pending,round-robin,weighted-random)")
  List<String> policies;
  @Option(names = "--no-direct", description = "skip the direct boltgen client")
  boolean noDirect;
  @Option(names = "--freeze", negatable = true, defaultValue = "true", fallbackValue = "true", description = "the"
      + " freeze scenario (default on; --no-freeze skips it)")
  boolean freeze;
  @Option(names = "--freeze-connections", paramLabel = "N", description = "the freeze's wrk connections (default 512)")
  Integer freezeConnections;
  @Option(names = "--freeze-at", paramLabel = "S", description = "SIGSTOP of the large provider this far into the"
      + " freeze's run (default 10)")
  Double freezeAt;
  @Option(names = "--freeze-for", paramLabel = "S", description = "SIGCONT this long after (default 10)")
  Double freezeFor;
  @Option(names = "--freeze-run", paramLabel = "S", description = "the freeze's measured run (default 40)")
  Double freezeRun;
  @Option(names = "--lease-ttl", paramLabel = "S", description = "the providers' etcd lease (default 10)")
  long leaseTtl = MeshBench.DEFAULT_LEASE_SECONDS;
  @Option(names = "--wrk-threads", paramLabel = "T", description = "wrk's threads (default 2)")
  int wrkThreads = MeshBench.DEFAULT_WRK_THREADS;
  @Option(names = "--seed", paramLabel = "N", description = "the random texts' seed (default 42)")
  long seed = MeshBench.DEFAULT_SEED;
  @Option(names = "--wrk", paramLabel = "PATH", description = "the wrk to run (default: wrk on the PATH)")
  String wrk;
  @Option(names = "--smoke", description = "a check of the pipeline in seconds: connections 8,16, 1 s warm-up, 2 s"
      + " measured, least-pending and the direct client, a 1 s freeze at 1 s of a 4 s run at 16 connections")
  boolean smoke;
  @Mixin QuietOptions quiet;
  @Mixin ChildOptions children;
  @Option(names = "--out", paramLabel = "DIR", description = "write benchmarks-mesh.md and img/mesh-qps.png there"
      + " (default for a full run: docs)")
  Path out;

  /**
   * The settings of these options (nothing is measured yet; a missing wrk or etcd is installed where scripts/ can,
   * else it fails saying how).
   */
  MeshBench.Settings settings(String command) {
    List<String> caveats = new ArrayList<>();
    if (smoke) {
      caveats.add("--smoke: tiny loads and windows of a second or two, a check of the pipeline");
    }
    List<Integer> counts = connections != null ? connections : smoke ? List.of(8, 16)
        : MeshBench.DEFAULT_CONNECTIONS;
    Duration w = Options.seconds("warmup", warmup != null ? warmup : smoke ? 1 : MeshBench.DEFAULT_WARMUP.toSeconds());
    Duration d = Options.seconds("duration", duration != null ? duration : smoke ? 2 : MeshBench.DEFAULT_DURATION.toSeconds());
    List<BalancingPolicy> chosen = new ArrayList<>();
    for (String name : policies != null ? policies : smoke ? List.of("least-pending")
        : MeshBench.DEFAULT_POLICIES.stream().map(MeshBench::id).toList()) {
      BalancingPolicy policy = Arrays.stream(BalancingPolicy.values()).filter(p -> MeshBench.id(p)
          .equals(name.trim().toLowerCase(Locale.ROOT).replace('_', '-'))).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("unknown policy " + name + "; known: " + String.join(",",
              Arrays.stream(BalancingPolicy.values()).map(MeshBench::id).toList())));
      if (!chosen.contains(policy)) {
        chosen.add(policy);
      }
    }
    MeshBench.Freeze f = null;
    if (freeze) {
      MeshBench.Freeze def = MeshBench.DEFAULT_FREEZE;
      f = new MeshBench.Freeze(freezeConnections != null ? freezeConnections : smoke ? 16 : def.connections(),
          Options.seconds("freeze-at", freezeAt != null ? freezeAt : smoke ? 1 : def.at().toSeconds()),
          Options.seconds("freeze-for", freezeFor != null ? freezeFor : smoke ? 1 : def.length().toSeconds()),
          Options.seconds("freeze-run", freezeRun != null ? freezeRun : smoke ? 4 : def.run().toSeconds()));
    }
    if (!smoke) {
      if (w.compareTo(MeshBench.DEFAULT_WARMUP) < 0 || d.compareTo(MeshBench.DEFAULT_DURATION) < 0) {
        caveats.add("windows shorter than the report's (10 s warm-up, 30 s measured)");
      }
      if (!counts.equals(MeshBench.DEFAULT_CONNECTIONS)) {
        caveats.add("other connection counts than the report's (128,256,512)");
      }
      if (!chosen.equals(MeshBench.DEFAULT_POLICIES) || noDirect) {
        caveats.add("a subset of the scenarios (every policy and the direct client)");
      }
      if (f == null) {
        caveats.add("no freeze (--no-freeze)");
      } else if (!f.equals(MeshBench.DEFAULT_FREEZE)) {
        caveats.add("another freeze than the report's (512 connections, stopped 10 s into a 40 s run for 10 s)");
      }
      if (leaseTtl != MeshBench.DEFAULT_LEASE_SECONDS || wrkThreads != MeshBench.DEFAULT_WRK_THREADS) {
        caveats.add("another lease or wrk thread count than the report's (10 s, 2 threads)");
      }
    }
    Path root = Invocation.repoRoot();
    Path wrkPath = Tools.wrk(wrk, root);
    Tools.etcd(root);
    Path dir = out != null ? out : caveats.isEmpty() ? Invocation.docs() : null;
    return new MeshBench.Settings(counts, w, d, chosen, !noDirect, f, leaseTtl, wrkThreads, seed, wrkPath,
        quiet.policy(), children.jvmFlags(), children.logDir(), dir, command, caveats);
  }

  @Override
  List<String> run(String command, PrintStream out) throws Exception {
    return MeshRun.execute(settings(command), out).failures();
  }
}
