package io.boltgen.bench.run;

import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.Scenario.Pair;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.scenario.Scenario.Slot;
import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One HTTP case of the {@code http} command, as a started part of its scenario: a fresh server JVM
 * ({@link ServerMain}, as the load matrix starts them), one request sent and its answer checked; then per window wrk
 * for the warm-up (unmeasured) and wrk for the measured window, around which the CPU is taken ({@link CpuWindow}: the
 * server's per call, the machine's, wrk's and other processes'); the server stopped at the end. A window in which
 * others took more than the quiet policy allows is measured again (another wrk run), up to the policy's repeats; then
 * the quietest is kept, marked noisy.
 */
public final class WrkLoad implements Runner.Started<HttpWindow> {

  /** Checks the answer to the first request: null when it is right, else what is wrong. */
  @FunctionalInterface
  public interface Check {
    String problem(int status, String contentType, byte[] body);
  }

  /**
   * What one case sends where.
   *
   * @param caseId names the case in tables and its files ({@code <tag>-wrk.txt}, {@code <case>.lua})
   * @param system the server's system ({@code server --system})
   * @param description the server's configuration, for the progress line
   * @param path the request's path
   * @param contentType the request's {@code Content-Type}
   * @param body the request's body, the same every time
   * @param check what the first answer must be
   */
  @SuppressWarnings("ArrayRecordComponent") // the body is written once into wrk's script; never compared or hashed
  public record Target(String caseId, String system, String description, String path, String contentType, byte[] body,
      Check check) {}

  /**
   * How wrk loads.
   *
   * @param wrk the executable
   * @param threads wrk's threads
   * @param connections wrk's keep-alive connections
   */
  public record Load(Path wrk, int threads, int connections) {}

  private final Target target;
  private final Load load;
  private final Setup setup;
  private final PrintStream progress;
  private final ReadyProcess server;
  private final Path script;
  private final String url;
  private final String tag;

  private WrkLoad(Target target, Load load, Setup setup, PrintStream progress, ReadyProcess server, Path script,
      String url, String tag) {
    this.target = target;
    this.load = load;
    this.setup = setup;
    this.progress = progress;
    this.server = server;
    this.script = script;
    this.url = url;
    this.tag = tag;
  }

  /** Starts {@code target}'s server for round {@code round} and checks its first answer. */
  public static WrkLoad start(Target target, int round, Load load, Setup setup, PrintStream progress)
      throws Runner.Failed, InterruptedException {
    String tag = "round" + round + "-" + target.caseId();
    Path script = setup.logDir().resolve(target.caseId() + ".lua");
    try {
      Files.createDirectories(setup.logDir());
      Files.writeString(script, Wrk.script(target.contentType(), target.body()), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new Runner.Failed(target.caseId() + ": cannot write " + script + ": " + e);
    }
    Path serverLog = setup.logDir().resolve(tag + "-server.log");
    Pair pair = new Pair(target.caseId(), tag, target.description(), List.of(), List.of(), Duration.ZERO, List.of(),
        List.of(), null);
    ReadyProcess server = JvmPair.launch(List.of("server", "--system", target.system(), "--host", setup.host(),
        "--port", "0"), List.of(), setup, serverLog, Duration.ofSeconds(90), pair, "round " + round, progress,
        "server did not start");
    WrkLoad started = null;
    try {
      Map<String, String> ready = Protocol.fields(server.readyLine());
      String url = "http://" + setup.host() + ":" + ready.get("port") + target.path();
      started = new WrkLoad(target, load, setup, progress, server, script, url, tag);
      progress.printf("  round %d %s: server pid %d, %s (%s)%n", round, target.caseId(), server.pid(), url,
          target.description());
      String problem = firstCall(url, target.contentType(), target.body(), target.check());
      if (problem != null) {
        throw new Runner.Failed(target.caseId() + ": the first request was not answered right: " + problem
            + "; server log: " + serverLog);
      }
      return started;
    } catch (Runner.Failed | InterruptedException | RuntimeException e) {
      if (started != null) {
        started.close();
      } else {
        close(server, target, progress);
      }
      throw e;
    }
  }

  /** The warm-up, then the window by the one quiet rule ({@link QuietPolicy#quietest}). */
  @Override
  public HttpWindow measure(Slot slot) throws Runner.Failed, InterruptedException {
    Wrk.Report warm = wrk(setup.warmup(), setup.logDir().resolve(tag + "-wrk-warmup.txt"));
    if (warm.errors() > 0) {
      progress.printf("  %s: warm-up had errors: %s%n", tag, warm.errorText());
    }
    int[] attempts = {0};
    QuietPolicy.Attempt<HttpWindow, Runner.Failed> measure = () -> {
      try {
        return window(slot.run(), setup.logDir().resolve(tag + "-wrk" + (++attempts[0] > 1 ? "-" + attempts[0] : "")
            + ".txt"));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Runner.Failed(target.caseId() + ": interrupted");
      }
    };
    return setup.quiet().quietest(measure, HttpWindow::otherCpuPercent, WrkLoad::withAttempts,
        w -> tag, line -> progress.println("  " + line));
  }

  @Override
  public Runner.Failed exited() {
    return server.isAlive() ? null : new Runner.Failed(target.caseId() + ": the server exited during the run; log: "
        + server.logFile());
  }

  @Override
  public String where() {
    return "pid " + server.pid() + ", " + url;
  }

  @Override
  public void close() {
    close(server, target, progress);
  }

  private static void close(ReadyProcess server, Target target, PrintStream progress) {
    try {
      server.close();
    } catch (IOException e) {
      progress.println("  closing the " + target.system() + " server (pid " + server.pid() + ") failed: " + e);
    }
  }

  private static HttpWindow withAttempts(HttpWindow w, int attempts, boolean noisy) {
    return new HttpWindow(w.caseId(), w.round(), w.calls(), w.seconds(), w.callsPerSecond(), w.p50Us(), w.p99Us(),
        w.serverCpuUs(), w.machineCpuUs(), w.loadCpuUs(), w.errors(), w.errorText(), w.otherCpuPercent(), attempts,
        noisy);
  }

  /**
   * One POST of {@code body} over HTTP/1.1, before wrk loads {@code url}; null when it is answered 200 and its answer
   * passes {@code check}, else what is wrong.
   */
  public static String firstCall(String url, String contentType, byte[] body, Check check) throws InterruptedException {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
        .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    try {
      HttpResponse<byte[]> answer = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      String type = answer.headers().firstValue("content-type").orElse("");
      if (answer.statusCode() != 200) {
        return "HTTP " + answer.statusCode() + " " + type + ": "
            + new String(answer.body(), StandardCharsets.UTF_8).replace('\n', ' ');
      }
      return check.problem(answer.statusCode(), type, answer.body());
    } catch (IOException e) {
      return "no answer: " + e;
    }
  }

  /** One measured wrk run and the CPU around it. */
  private HttpWindow window(int round, Path out) throws Runner.Failed, InterruptedException {
    CpuWindow cpu = CpuWindow.start(List.of(server.pid()), server.pid(), ProcessHandle.current().pid());
    Wrk.Report r = wrk(setup.measure(), out);
    CpuWindow.Cost cost = cpu.end(r.requests());
    return new HttpWindow(target.caseId(), round, r.requests(), r.seconds(), r.requestsPerSecond(), r.p50Us(),
        r.p99Us(), CpuWindow.orZero(cost.subjectUs().get(0)), CpuWindow.orZero(cost.machineUs()),
        CpuWindow.orZero(cost.subjectUs().get(1)), r.errors(), r.errorText(), cost.otherPercent(), 1, false);
  }

  /** Runs wrk for {@code duration}, its output to {@code out}; its report. */
  private Wrk.Report wrk(Duration duration, Path out) throws Runner.Failed, InterruptedException {
    try (Wrk.Run run = Wrk.start(load.wrk(), load.threads(), load.connections(), duration, script, url, out)) {
      return run.finish();
    } catch (IOException e) {
      throw new Runner.Failed(target.caseId() + ": " + e.getMessage());
    }
  }
}
