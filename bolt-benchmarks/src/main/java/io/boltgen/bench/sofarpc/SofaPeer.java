package io.boltgen.bench.sofarpc;

import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * bolt-sofarpc-peer's {@code PeerMain} (a real SOFARPC 5.13.2) in a JVM of its own, on the class path that module's
 * build writes into {@code target/peer.classpath}: the provider, and the {@code bench} consumer.
 */
final class SofaPeer {

  /** What the peer's JVM needs on Java 17 (SOFARPC and hessian reach into java.lang). */
  static final List<String> JVM_FLAGS = List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED");
  static final String MAIN = "com.example.sofa.peer.PeerMain";

  private SofaPeer() {}

  /** The provider on a free loopback port, once it says READY (at most 60 s); it stops at the end of its input. */
  static ReadyProcess provider(String classpath, List<String> jvmFlags, Path logDir) throws Exception {
    return ReadyProcess.launcher(command(classpath, jvmFlags, logDir, List.of("provider", "--port",
            Integer.toString(freePort()), "--id", "sofa-bench"))).log(logDir.resolve("sofarpc-provider.log"))
        .stopLine("stop").readyTimeout(Duration.ofSeconds(60)).start();
  }

  /** The bench consumer of {@code address}, once it referred both services and made a call of each. */
  static ReadyProcess consumer(String classpath, List<String> jvmFlags, Path logDir, String address) throws Exception {
    return ReadyProcess.launcher(command(classpath, jvmFlags, logDir, List.of("bench", "--direct", address)))
        .log(logDir.resolve("sofarpc-consumer.log")).stopLine("stop").readyTimeout(Duration.ofSeconds(60)).start();
  }

  /** {@code java <flags> --add-opens … -Dlogging.path=<logs>/sofa -cp <class path> PeerMain args…}. */
  static List<String> command(String classpath, List<String> jvmFlags, Path logDir, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    command.addAll(JVM_FLAGS);
    command.add("-Dlogging.path=" + logDir.resolve("sofa"));
    command.addAll(List.of("-cp", classpath, MAIN));
    command.addAll(args);
    return command;
  }

  /** The class path in {@code file} (bolt-sofarpc-peer/target/peer.classpath); fails saying how to make it. */
  static String classpath(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no " + file.toAbsolutePath().normalize() + ": build the SOFARPC peer first"
          + " ('mvn -pl bolt-sofarpc-peer -am package') or pass --peer-classpath FILE");
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A loopback port free at the time of asking (SOFARPC's server cannot bind port 0 and say which it got). */
  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
