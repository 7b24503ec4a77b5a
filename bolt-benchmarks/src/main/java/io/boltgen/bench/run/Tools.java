package io.boltgen.bench.run;

import io.boltgen.testing.EtcdProcess;
import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The tools a command runs besides JVMs, found on the PATH or installed by the repository's scripts where it can. */
public final class Tools {

  private Tools() {}

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
  public static void etcd(Path root) {
    try {
      EtcdProcess.findEtcd();
    } catch (IllegalStateException missing) {
      if (!install(root, "scripts/ensure-etcd.sh")) {
        throw new IllegalStateException("no etcd on the PATH: install etcd (scripts/ensure-etcd.sh, or apt-get install"
            + " etcd-server)", missing);
      }
      EtcdProcess.findEtcd();
    }
  }

  /**
   * Runs {@code bash root/script args} (at most 10 minutes), its output on standard error as it comes; whether it
   * succeeded. A run that fails keeps its log and says where.
   */
  private static boolean install(Path root, String script, String... args) {
    if (root == null || !Files.isRegularFile(root.resolve(script))) {
      return false;
    }
    List<String> command = new ArrayList<>(List.of("bash", root.resolve(script).toString()));
    command.addAll(List.of(args));
    try {
      Path log = Files.createTempFile("bolt-benchmarks-install", ".log");
      try (ReadyProcess p = ReadyProcess.launcher(command).log(log).run()) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        for (String line; (line = p.nextLine(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))) != null; ) {
          System.err.println(line);
        }
        int status = p.finish(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        if (status != 0) {
          System.err.println(String.join(" ", command) + " exited with " + status + "; log: " + log);
          return false;
        }
        Files.deleteIfExists(log);
        return true;
      }
    } catch (IOException e) {
      System.err.println(e.getMessage());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

}
