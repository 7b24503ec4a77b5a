package io.boltgen.bench.mesh;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code mesh} benchmark's etcd: one member of Debian's {@code etcd} on loopback, client and peer ports picked
 * free, a data directory of its own under the temporary directory (deleted on {@link #close}), its output in
 * {@code etcd.log} of the log directory. It counts the instances registered under a key prefix through etcd's JSON
 * gateway ({@code /v3/kv/range}, {@code count_only}).
 */
final class MeshEtcd implements AutoCloseable {

  /** What the command says when there is no etcd. */
  static final String MISSING = "install etcd (scripts/ensure-etcd.sh, or apt-get install etcd-server)";

  private static final Pattern COUNT = Pattern.compile("\"count\":\"?([0-9]+)");

  private final Process process;
  private final Path dataDir;
  private final int clientPort;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .proxy(HttpClient.Builder.NO_PROXY).connectTimeout(Duration.ofSeconds(1)).build();

  private MeshEtcd(Process process, Path dataDir, int clientPort) {
    this.process = process;
    this.dataDir = dataDir;
    this.clientPort = clientPort;
  }

  /** Starts etcd and waits (at most {@code bound}) until it answers a read; fails with its log's tail. */
  static MeshEtcd start(Path logDir, Duration bound) throws IOException, InterruptedException {
    Path etcd = find(System.getenv("PATH"));
    Path dataDir = Files.createTempDirectory("mesh-etcd-");
    int clientPort = freePort();
    int peerPort = freePort();
    String client = "http://127.0.0.1:" + clientPort;
    String peer = "http://127.0.0.1:" + peerPort;
    Path log = logDir.resolve("etcd.log");
    Files.createDirectories(logDir);
    List<String> command = List.of(etcd.toString(), "--name", "mesh", "--data-dir", dataDir.resolve("data").toString(),
        "--listen-client-urls", client, "--advertise-client-urls", client, "--listen-peer-urls", peer,
        "--initial-advertise-peer-urls", peer, "--initial-cluster", "mesh=" + peer, "--initial-cluster-state", "new",
        "--logger", "zap", "--log-level", "warn");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    MeshEtcd started = new MeshEtcd(p, dataDir, clientPort);
    try {
      long deadline = System.nanoTime() + bound.toNanos();
      while (!started.answers()) {
        if (!p.isAlive()) {
          throw new IllegalStateException("etcd exited with " + p.exitValue() + "; " + MeshProcesses.tail(log));
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("etcd did not answer within " + bound.toSeconds() + " s; "
              + MeshProcesses.tail(log));
        }
        TimeUnit.MILLISECONDS.sleep(50); // a poll of a starting process: nothing to wait on but its port
      }
    } catch (InterruptedException | RuntimeException e) {
      started.close();
      throw e;
    }
    return started;
  }

  /** The etcd executable on {@code pathVariable}, or a failure saying {@link #MISSING}. */
  static Path find(String pathVariable) {
    for (String dir : (pathVariable == null ? "" : pathVariable).split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "etcd"))) {
        return Path.of(dir, "etcd");
      }
    }
    throw new IllegalStateException("no etcd on the PATH: " + MISSING);
  }

  /** Its client URL, {@code http://127.0.0.1:PORT}. */
  String url() {
    return "http://127.0.0.1:" + clientPort;
  }

  /** The URI the gateway takes, {@code etcd://127.0.0.1:PORT}. */
  String uri() {
    return "etcd://127.0.0.1:" + clientPort;
  }

  long pid() {
    return process.pid();
  }

  private boolean answers() {
    try {
      return post("/v3/kv/range", "{\"key\":\"" + b64("/health") + "\"}").statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** How many keys start with {@code prefix} now, or -1 if etcd did not say within 1 s. */
  int count(String prefix) throws InterruptedException {
    byte[] end = prefix.getBytes(StandardCharsets.UTF_8);
    end[end.length - 1]++;
    try {
      HttpResponse<String> r = post("/v3/kv/range", "{\"key\":\"" + b64(prefix) + "\",\"range_end\":\""
          + Base64.getEncoder().encodeToString(end) + "\",\"count_only\":true}");
      if (r.statusCode() != 200) {
        return -1;
      }
      Matcher m = COUNT.matcher(r.body());
      return m.find() ? Integer.parseInt(m.group(1)) : 0; // proto3 JSON leaves a zero count out
    } catch (IOException e) {
      return -1;
    }
  }

  private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(1))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Stops etcd (SIGTERM, SIGKILL after 10 s) and deletes its data. */
  @Override
  public void close() throws IOException {
    try {
      MeshProcesses.stop(process, Duration.ofSeconds(10));
    } finally {
      try (Stream<Path> files = Files.walk(dataDir)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }
}
