package io.boltgen.sofarpc.it;

import io.boltgen.testing.ReadyProcess;
import java.io.File;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real SOFARPC 5.13.2 in a JVM of its own: bolt-sofarpc-peer's {@code PeerMain} on that module's class path
 * ({@code bolt-sofarpc-peer/target/peer.classpath}), as a provider ({@link #provider}, running until
 * {@link #close}) or as a consumer running its checks to the end ({@link #runConsumer}).
 *
 * <p>Logs (the provider's output, the consumers' standard error, SOFARPC's own log files) go under
 * {@code target/sofa-peer-logs} (system property {@code sofarpc.peer.logs}).
 */
public final class SofaRpcPeer implements AutoCloseable {

  /**
   * What the peer's JVM needs on Java 17, as SOFARPC itself does: java.lang, or a declared exception reaches the
   * consumer without its message; java.math and java.util, or sofa-hessian cannot write or read a BigInteger or a
   * UUID (it does so by reflection).
   */
  public static final List<String> JVM_FLAGS = List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/java.math=ALL-UNNAMED", "--add-opens", "java.base/java.util=ALL-UNNAMED");

  /** How long a provider may take to say READY, and a consumer to run all its checks. */
  public static final long READY_SECONDS = 60;
  public static final long CONSUMER_SECONDS = 60;

  private static final String MAIN = "com.example.sofa.peer.PeerMain";
  private static final AtomicInteger RUNS = new AtomicInteger();

  private final ReadyProcess process;

  private SofaRpcPeer(ReadyProcess process) {
    this.process = process;
  }

  /**
   * Starts {@code PeerMain provider args…} ({@code --port N [--id ID] [--registry zookeeper://host:port]
   * [--weight W]}) and waits (at most 60 s) until it prints {@code READY <port>}.
   */
  public static SofaRpcPeer provider(String... args) throws Exception {
    return start("provider", List.of(args));
  }

  /**
   * Starts {@code PeerMain zookeeper}: a ZooKeeper server of SOFARPC's own version (3.5.7, from its class path)
   * on a free loopback port, keeping its data in {@code data}; waits (at most 60 s) until it prints
   * {@code READY <port>}. {@link #address()} is what a {@code zookeeper://} URL takes.
   */
  public static SofaRpcPeer zookeeper(Path data) throws Exception {
    return start("zookeeper", List.of("--port", Integer.toString(freePort()), "--data", data.toString()));
  }

  private static SofaRpcPeer start(String mode, List<String> args) throws Exception {
    List<String> all = new ArrayList<>(List.of(mode));
    all.addAll(args);
    Path log = logs().resolve(mode + "-" + RUNS.incrementAndGet() + ".log");
    ReadyProcess process = ReadyProcess.launcher(command(all))
        .log(log)
        // it stops at the end of its standard input; the line itself is ignored
        .stopLine("stop")
        .readyTimeout(Duration.ofSeconds(READY_SECONDS))
        .start();
    return new SofaRpcPeer(process);
  }

  /** Starts a provider on a free loopback port ({@link #freePort}) with these further arguments. */
  public static SofaRpcPeer providerOnFreePort(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("--port", Integer.toString(freePort())));
    all.addAll(List.of(args));
    return provider(all.toArray(String[]::new));
  }

  /** The port it serves on (from its READY line). */
  public int port() {
    return process.port();
  }

  /** {@code 127.0.0.1:<port>}, what a consumer's {@code --direct} takes. */
  public String address() {
    return "127.0.0.1:" + port();
  }

  /** Everything it printed so far (its command first), standard output and error merged. */
  public List<String> lines() throws IOException {
    return Files.readAllLines(process.logFile(), StandardCharsets.UTF_8);
  }

  /** Whether its JVM still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Closes its standard input (it stops and exits), then SIGTERM after 15 s, SIGKILL after 30 s more. */
  @Override
  public void close() throws IOException {
    process.close();
  }

  /** What a consumer run printed on standard output, and its exit code. */
  public record ConsumerRun(int exitCode, List<String> lines, Path stderr) {

    /** Its {@code CHECK} lines. */
    public List<String> checks() {
      return lines.stream().filter(l -> l.startsWith("CHECK ")).toList();
    }

    /** Its {@code DONE <passes> <fails>} line, or null. */
    public String done() {
      return lines.stream().filter(l -> l.startsWith("DONE ")).findFirst().orElse(null);
    }

    @Override
    public String toString() {
      return "exit " + exitCode + ":\n" + String.join("\n", lines) + "\n(standard error in " + stderr + ")";
    }
  }

  /**
   * Runs {@code PeerMain consumer args…} ({@code --serializer protobuf|hessian2 (--direct host:port | --registry
   * zookeeper://host:port) [--calls NAME,…] [--timeout-ms T]}) to its end, at most 60 s (then it is killed and
   * the exit code is -1).
   */
  public static ConsumerRun runConsumer(String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("consumer"));
    all.addAll(List.of(args));
    int run = RUNS.incrementAndGet();
    Path out = logs().resolve("consumer-" + run + ".out");
    Path err = logs().resolve("consumer-" + run + ".log");
    List<String> command = command(all);
    Files.writeString(err, "# " + String.join(" ", command) + "\n", StandardCharsets.UTF_8);
    Process process = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.appendTo(err.toFile()))
        .start();
    int exit;
    try {
      if (process.waitFor(CONSUMER_SECONDS, TimeUnit.SECONDS)) {
        exit = process.exitValue();
      } else {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        exit = -1;
      }
    } finally {
      if (process.isAlive()) { // interrupted
        process.destroyForcibly();
      }
    }
    return new ConsumerRun(exit, Files.readAllLines(out, StandardCharsets.UTF_8), err);
  }

  /** {@code java <JVM_FLAGS> -Dlogging.path=<logs> -cp <peer class path> PeerMain args…}, with this JVM's java. */
  public static List<String> command(List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_FLAGS);
    command.add("-Dlogging.path=" + logs().resolve("sofa"));
    command.addAll(List.of("-cp", classpath(), MAIN));
    command.addAll(args);
    return command;
  }

  /** The peer's class path, from bolt-sofarpc-peer's target/peer.classpath. */
  public static String classpath() {
    Path file = Path.of(System.getProperty("sofarpc.peer.classpath", "../bolt-sofarpc-peer/target/peer.classpath"));
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException("no " + file.toAbsolutePath().normalize()
          + ": run 'mvn -pl bolt-sofarpc-peer -am package' first");
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A loopback port free at the time of asking (SOFARPC's server cannot bind port 0 and say which it got). */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static Path logs() {
    Path dir = Path.of(System.getProperty("sofarpc.peer.logs", "target/sofa-peer-logs"));
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
