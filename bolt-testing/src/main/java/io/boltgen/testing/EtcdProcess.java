package io.boltgen.testing;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * A real etcd member for tests (and for the benchmarks' mesh command): loopback client and peer ports picked free, a temporary data dir, started and
 * waited for until it answers, stopped and its directory deleted on {@link #close}. It can be stopped and
 * started again on the same ports and data, paused (SIGSTOP) and resumed (SIGCONT). Members of a cluster are
 * made by {@link EtcdCluster}. It is started, signalled and stopped as every child of a test here
 * ({@link ChildProcess}); its output goes to {@code <name>.log} in its directory, whose tail a failure to start
 * shows.
 *
 * <p>It runs the {@code etcd} on the PATH; without one, {@link #start} and {@link #create} fail saying how to
 * get it.
 */
public final class EtcdProcess implements AutoCloseable {

  /** How long a member may take to answer after start (typically 0.5 s). */
  public static final Duration START_BOUND = Duration.ofSeconds(30);

  /** How long {@link #stop} waits for the process to exit after SIGTERM, in seconds. */
  private static final long STOP_GRACE_SECONDS = 10;

  private static final JsonFactory JSON = new JsonFactory();

  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .proxy(HttpClient.Builder.NO_PROXY).connectTimeout(Duration.ofSeconds(1)).build();

  final String name;
  final int clientPort;
  final int peerPort;
  private final Path executable;
  private final Path dir;
  private final Path log;
  private List<String> command;
  private Process process;
  private volatile Path keptLog;

  private EtcdProcess(String name, Path executable, int clientPort, int peerPort, Path dir) {
    this.name = name;
    this.executable = executable;
    this.clientPort = clientPort;
    this.peerPort = peerPort;
    this.dir = dir;
    this.log = dir.resolve(name + ".log");
  }

  /** A one-member cluster, started and answering. */
  public static EtcdProcess start() {
    for (int attempt = 1; ; attempt++) {
      try {
        return startedAlone(create("solo"));
      } catch (IllegalStateException e) {
        if (attempt == 3) { // a port taken between picking it and etcd binding it: pick others
          throw e;
        }
      }
    }
  }

  /**
   * A one-member cluster on the loopback ports a snippet names ({@code 2379} and {@code 2380}, say), started and
   * answering; a test checks first that they are free.
   */
  public static EtcdProcess startOn(int clientPort, int peerPort) {
    try {
      return startedAlone(
          new EtcdProcess("solo", findEtcd(), clientPort, peerPort, Files.createTempDirectory("etcd-test-")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code member} started as a cluster of its own and answering; closed if it does not answer. */
  private static EtcdProcess startedAlone(EtcdProcess member) {
    member.launch(member.name + "=" + member.peerUrl(), "solo-" + System.nanoTime());
    try {
      member.awaitHealthy();
      return member;
    } catch (IllegalStateException e) {
      member.close();
      throw e;
    }
  }

  /** A member not started yet, with free ports and a fresh directory. */
  public static EtcdProcess create(String name) {
    Path etcd = findEtcd();
    try {
      return new EtcdProcess(name, etcd, freePort(), freePort(), Files.createTempDirectory("etcd-test-"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts the process of a member of {@code initialCluster} (name=peerUrl,…); does not wait for it. */
  public void launch(String initialCluster, String token) {
    command = List.of(executable.toString(),
        "--name", name,
        "--data-dir", dir.resolve("data").toString(),
        "--listen-client-urls", clientUrl(),
        "--advertise-client-urls", clientUrl(),
        "--listen-peer-urls", peerUrl(),
        "--initial-advertise-peer-urls", peerUrl(),
        "--initial-cluster", initialCluster,
        "--initial-cluster-token", token,
        "--initial-cluster-state", "new",
        "--logger", "zap",
        "--log-level", "warn");
    restart();
  }

  /** Starts the stopped process again: same name, ports and data. Does not wait for it. */
  public void restart() {
    if (isAlive()) {
      throw new IllegalStateException(name + " is running");
    }
    unchecked(() -> process = ChildProcess.start(command, log, this::keepLogAndDelete));
  }

  /** Waits until this member answers a linearizable read (so the cluster has a leader). */
  public void awaitHealthy() {
    try {
      await().atMost(START_BOUND).pollInterval(Duration.ofMillis(25)).ignoreExceptions().until(() -> {
        if (!process.isAlive()) {
          throw new IllegalStateException("etcd " + name + " exited with " + process.exitValue());
        }
        return post("/v3/kv/range", "{\"key\":\"" + b64("/health-check") + "\"}").statusCode() == 200;
      });
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException("etcd " + name + " did not answer within " + START_BOUND + ":\n" + logTail(), e);
    }
  }

  public String endpoint() {
    return clientUrl();
  }

  public String clientUrl() {
    return "http://127.0.0.1:" + clientPort;
  }

  public String peerUrl() {
    return "http://127.0.0.1:" + peerPort;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** Stops it (continued if paused, SIGTERM, then SIGKILL after 10 s), keeping its data. */
  public void stop() {
    if (process != null) {
      unchecked(() -> ChildProcess.close(process, STOP_GRACE_SECONDS, TimeUnit.SECONDS));
    }
  }

  /** Kills it at once (SIGKILL), as a crash would. */
  public void kill() {
    unchecked(() -> ChildProcess.kill(process));
  }

  /** Freezes it (SIGSTOP): connections stay open, nothing is answered. */
  public void pause() {
    signal("STOP");
  }

  /** Lets a paused member run again (SIGCONT). */
  public void resume() {
    signal("CONT");
  }

  private void signal(String signal) {
    unchecked(() -> {
      if (!ChildProcess.signal(process, signal)) {
        throw new IllegalStateException("kill -" + signal + " " + process.pid() + " (etcd " + name + ") failed");
      }
    });
  }

  /** Keeps its log: {@link #close} copies it to {@code file} before it deletes its directory; returns this. */
  public EtcdProcess keepLogAt(Path file) {
    this.keptLog = file;
    return this;
  }

  /** Stops it and deletes its directory (its log copied first, if {@link #keepLogAt} said where). */
  @Override
  public void close() {
    stop();
    keepLogAndDelete();
  }

  /** Copies the log where {@link #keepLogAt} said, and deletes the directory; also when this JVM stops first. */
  private void keepLogAndDelete() {
    if (keptLog != null && Files.isRegularFile(log)) {
      try {
        Files.createDirectories(keptLog.toAbsolutePath().getParent());
        Files.copy(log, keptLog, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new UncheckedIOException("etcd's log could not be kept at " + keptLog, e);
      }
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A step on the process, its checked failures made unchecked (an interrupt is kept, as the thread's status). */
  private static void unchecked(ProcessStep step) {
    try {
      step.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** What {@link #unchecked} runs. */
  @FunctionalInterface
  private interface ProcessStep {
    void run() throws IOException, InterruptedException;
  }

  // ---- raw access, as another tool would write etcd

  /** Puts {@code value} under {@code key}, with no lease. */
  public void put(String key, String value) {
    check(post("/v3/kv/put", "{\"key\":\"" + b64(key) + "\",\"value\":\"" + b64(value) + "\"}"));
  }

  /** Puts raw bytes under {@code key}. */
  public void put(String key, byte[] value) {
    check(post("/v3/kv/put", "{\"key\":\"" + b64(key) + "\",\"value\":\""
        + Base64.getEncoder().encodeToString(value) + "\"}"));
  }

  /** The reply to a range of every key starting with {@code prefix}. */
  public String rangePrefix(String prefix) {
    HttpResponse<String> reply = post("/v3/kv/range", "{\"key\":\"" + b64(prefix) + "\",\"range_end\":\""
        + prefixEnd(prefix) + "\"}");
    check(reply);
    return reply.body();
  }

  /** Compacts the history up to the current revision. */
  public void compact() {
    HttpResponse<String> reply = post("/v3/kv/range", "{\"key\":\"" + b64("/") + "\"}");
    check(reply);
    String revision = field(reply.body(), "revision");
    check(post("/v3/kv/compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}"));
  }

  /** The value of a Prometheus gauge or counter without labels from {@code /metrics}. */
  public long metric(String name) {
    try {
      String text = HTTP.send(HttpRequest.newBuilder(URI.create(clientUrl() + "/metrics")).timeout(Duration.ofSeconds(5))
          .build(), HttpResponse.BodyHandlers.ofString()).body();
      return text.lines().filter(l -> l.startsWith(name + " ")).findFirst()
          .map(l -> (long) Double.parseDouble(l.substring(name.length() + 1).strip()))
          .orElseThrow(() -> new IllegalStateException("no metric " + name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Whether this member is the cluster's leader now. */
  public boolean isLeader() {
    HttpResponse<String> reply = post("/v3/maintenance/status", "{}");
    check(reply);
    // member IDs are uint64: past Long.MAX_VALUE, so compared as the strings the gateway writes
    return field(reply.body(), "leader").equals(field(reply.body(), "member_id"));
  }

  /**
   * How many keys start with {@code prefix} now, or -1 when etcd did not say (within 1 s, with a 200 and a count):
   * a {@code count_only} range. Interrupted, it keeps the thread's interrupt and answers -1.
   */
  public int count(String prefix) {
    try {
      HttpResponse<String> reply = HTTP.send(HttpRequest.newBuilder(URI.create(clientUrl() + "/v3/kv/range"))
          .timeout(Duration.ofSeconds(1)).POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"" + b64(prefix)
              + "\",\"range_end\":\"" + prefixEnd(prefix) + "\",\"count_only\":true}")).build(),
          HttpResponse.BodyHandlers.ofString());
      if (reply.statusCode() != 200) {
        return -1;
      }
      String count = firstValue(reply.body(), "count");
      return count == null ? 0 : Integer.parseInt(count); // proto3 JSON leaves a zero count out
    } catch (IOException | JacksonException | NumberFormatException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The string value of {@code name} in a reply (int64 fields are strings there); fails when there is none. */
  private static String field(String json, String name) {
    String value = firstValue(json, name);
    if (value == null) {
      throw new IllegalStateException("no " + name + " in " + json);
    }
    return value;
  }

  /**
   * The scalar value, as text, of the first field called {@code name} anywhere in the JSON object {@code json}
   * (etcd nests {@code revision} in {@code header}), or null if there is none.
   */
  private static String firstValue(String json, String name) {
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), json)) {
      for (JsonToken token; (token = parser.nextToken()) != null; ) {
        if (token == JsonToken.PROPERTY_NAME && name.equals(parser.currentName())) {
          JsonToken value = parser.nextToken();
          if (value != null && value.isScalarValue()) {
            return parser.getString();
          }
        }
      }
      return null;
    }
  }

  /** The base64 range end of every key starting with {@code prefix}: its last byte plus one. */
  private static String prefixEnd(String prefix) {
    byte[] end = prefix.getBytes(StandardCharsets.UTF_8);
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xff) {
        end[i]++;
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(end, i + 1));
      }
    }
    return Base64.getEncoder().encodeToString(new byte[] {0});
  }

  public HttpResponse<String> post(String path, String body) {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create(clientUrl() + path)).timeout(Duration.ofSeconds(5))
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void check(HttpResponse<String> reply) {
    if (reply.statusCode() != 200) {
      throw new IllegalStateException("etcd answered " + reply.statusCode() + ": " + reply.body());
    }
  }

  public static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** A port free on loopback now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The etcd executable on the PATH, or a failure that says how to get one. */
  public static Path findEtcd() {
    return findEtcd(System.getenv().getOrDefault("PATH", ""));
  }

  /** The etcd executable in one of {@code path}'s directories (a PATH), or a failure that says how to get one. */
  static Path findEtcd(String path) {
    for (String entry : path.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(entry, "etcd");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("these tests run a real etcd, and there is no `etcd` on the PATH (" + path
        + "): run `scripts/test.sh`, or install Debian's etcd-server (`apt-get install etcd-server`, or "
        + "`scripts/ensure-etcd.sh`)");
  }
}
