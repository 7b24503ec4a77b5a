package io.boltgen.bench.run;

import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.Scenario.Pair;
import io.boltgen.bench.scenario.Scenario.Setup;
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
 * One HTTP case of the {@code http} command: a fresh server JVM ({@link ServerMain}, as the load matrix starts them),
 * one request sent and its answer checked, then wrk for the warm-up (unmeasured), then wrk for the measured window,
 * the server stopped at the end. Around the measured run this JVM samples the machine's busy ticks, the server's CPU
 * and its own CPU with its reaped children's (wrk, once it has ended): the server's CPU per call, the machine's CPU
 * per call, wrk's, and the CPU other processes took. A window in which others took more than the quiet policy allows
 * is measured again (another wrk run), up to the policy's repeats; then the quietest is kept, marked noisy.
 */
public final class WrkLoad {

  /** A case that could not be measured; the message says why and names the log. */
  public static final class Failed extends Exception {
    public Failed(String message) {
      super(message, null, false, false);
    }
  }

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

  private WrkLoad() {}

  /** Measures {@code target} once, in round {@code round}, as the class says. */
  public static HttpWindow run(Target target, int round, Load load, Setup setup, List<String> serverJvmArgs,
      PrintStream progress) throws Failed, InterruptedException {
    String tag = "round" + round + "-" + target.caseId();
    Path script = setup.logDir().resolve(target.caseId() + ".lua");
    try {
      Files.createDirectories(setup.logDir());
      Files.writeString(script, Wrk.script(target.contentType(), target.body()), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new Failed(target.caseId() + ": cannot write " + script + ": " + e);
    }
    Path serverLog = setup.logDir().resolve(tag + "-server.log");
    Pair pair = new Pair(target.system(), tag, target.description(), List.of(), List.of(), Duration.ZERO, serverJvmArgs,
        List.of());
    ReadyProcess server;
    try {
      server = JvmPair.launch(List.of("server", "--system", target.system(), "--host", setup.host(), "--port", "0"),
          serverJvmArgs, setup, serverLog, Duration.ofSeconds(90), pair, "round " + round, progress,
          "server did not start");
    } catch (JvmPair.Failed e) {
      throw new Failed(e.getMessage());
    }
    try {
      Map<String, String> ready = Protocol.fields(server.readyLine());
      long pid = Long.parseLong(ready.get("pid"));
      String url = "http://" + setup.host() + ":" + ready.get("port") + target.path();
      progress.printf("  round %d %s: server pid %d, %s (%s)%n", round, target.caseId(), pid, url, target.description());
      String problem = firstCall(url, target.contentType(), target.body(), target.check());
      if (problem != null) {
        throw new Failed(target.caseId() + ": the first request was not answered right: " + problem + "; server log: "
            + serverLog);
      }
      Wrk.Report warm = wrk(load, setup.warmup(), script, url, setup.logDir().resolve(tag + "-wrk-warmup.txt"),
          target.caseId());
      if (warm.errors() > 0) {
        progress.printf("  round %d %s: warm-up had errors: %s%n", round, target.caseId(), warm.errorText());
      }
      int[] attempt = {0};
      QuietPolicy.Attempt<HttpWindow, Failed> measure = () -> {
        try {
          return window(target, round, load, setup, script, url, pid,
              setup.logDir().resolve(tag + "-wrk" + (++attempt[0] > 1 ? "-" + attempt[0] : "") + ".txt"));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new Failed(target.caseId() + ": interrupted");
        }
      };
      return setup.quiet().quietest(measure, HttpWindow::otherCpuPercent, WrkLoad::withAttempts,
          w -> "round " + round + " " + target.caseId(), line -> progress.println("  " + line));
    } finally {
      try {
        server.close();
      } catch (IOException e) {
        progress.println("  closing the " + target.system() + " server (pid " + server.pid() + ") failed: " + e);
      }
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
  private static HttpWindow window(Target target, int round, Load load, Setup setup, Path script, String url,
      long serverPid, Path out) throws Failed, InterruptedException {
    CpuWindow cpu = CpuWindow.start(List.of(serverPid), serverPid, ProcessHandle.current().pid());
    Wrk.Report r = wrk(load, setup.measure(), script, url, out, target.caseId());
    CpuWindow.Cost cost = cpu.end(r.requests());
    return new HttpWindow(target.caseId(), round, r.requests(), r.seconds(), r.requestsPerSecond(), r.p50Us(),
        r.p99Us(), cost.subjectUs().get(0), cost.machineUs(), cost.subjectUs().get(1), r.errors(), r.errorText(),
        cost.otherPercent(), 1, false);
  }

  /** Runs wrk for {@code duration}, its output to {@code out}; its report. */
  private static Wrk.Report wrk(Load load, Duration duration, Path script, String url, Path out, String caseId)
      throws Failed, InterruptedException {
    try (Wrk.Run run = Wrk.start(load.wrk(), load.threads(), load.connections(), duration, script, url, out)) {
      return run.finish();
    } catch (IOException e) {
      throw new Failed(caseId + ": " + e.getMessage());
    }
  }
}
