package io.boltgen.bench.http;

import static io.boltgen.bench.http.HttpBench.jsonBody;
import static io.boltgen.bench.http.HttpBench.nettyBody;
import static io.boltgen.bench.http.HttpBench.noJson;
import static io.boltgen.bench.http.HttpBench.payload;
import static io.boltgen.bench.http.HttpBench.protoBody;

import io.boltgen.bench.http.HttpBench.Case;
import io.boltgen.bench.http.HttpBench.Result;
import io.boltgen.bench.http.HttpBench.Round;
import io.boltgen.bench.http.HttpBench.Settings;
import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.jmh.JsonCodecBenchmark;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.run.HttpWindow;
import io.boltgen.bench.run.Runner;
import io.boltgen.bench.run.Session;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.run.WrkLoad;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.Scenario;
import io.boltgen.bench.service.EchoServiceBolt;
import io.boltgen.bench.system.Systems;
import io.boltgen.json.JsonForms;
import io.boltgen.json.ProtoJson;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the {@code http} command's {@link HttpBench.Settings}: the cases in rounds whose order rotates, then the codec
 * benchmark, then the report ({@link HttpReport}).
 */
public final class HttpRun {

  private HttpRun() {}

  /** Runs {@code s}, printing progress and the report's tables to {@code out}. */
  public static Result execute(Settings s, PrintStream out) throws Exception {
    Session session = Session.begin("boltgen HTTP benchmark", "; child logs: " + s.logDir(), s.caveats(), out);
    byte[] payload = payload(s.payloadBytes());
    Map<Case, WrkLoad.Target> targets = new LinkedHashMap<>();
    Map<Case, String> notMeasured = new LinkedHashMap<>();
    Map<Case, String> bodies = new LinkedHashMap<>();
    for (Case c : s.cases()) {
      if (c == Case.BOLT) {
        bodies.put(c, "the " + s.payloadBytes() + " B payload in a Bolt frame");
        continue;
      }
      if (c == Case.HTTP_JSON && noJson() != null) {
        notMeasured.put(c, noJson());
        session.recordFailure(c.label + ": " + noJson());
        out.println("  " + c.label + ": NOT MEASURED: " + noJson());
        continue;
      }
      WrkLoad.Target t = target(c, payload);
      targets.put(c, t);
      bodies.put(c, t.body().length + " B of " + t.contentType() + (c == Case.NETTY_HTTP && noJson() != null
          ? " (the echo request in proto3 JSON, written by hand: this build has no generated JSON codec)" : ""));
    }

    WrkLoad.Load load = new WrkLoad.Load(s.wrk(), s.threads(), s.connections());
    Scenario.Setup setup = new Scenario.Setup(s.warmup(), s.measure(), s.quiet(), s.jvmFlags(), s.logDir(), s.host());
    List<HttpWindow> windows = new ArrayList<>();
    List<Round> rounds = new ArrayList<>();
    List<Case> runnable = s.cases().stream().filter(c -> !notMeasured.containsKey(c)).toList();
    for (int round = 1; round <= s.rounds() && !runnable.isEmpty(); round++) {
      String loadStart = MachineInfo.loadAverage();
      List<Case> order = Scenario.rotation(runnable, round);
      out.printf("round %d/%d: %s%n", round, s.rounds(), String.join(", ", order.stream().map(c -> c.id).toList()));
      for (Case c : order) {
        try {
          HttpWindow w = c == Case.BOLT ? bolt(s, setup, round, session) : WrkLoad.run(targets.get(c), round, load,
              setup, List.of(), out);
          if (w != null) {
            windows.add(w);
            out.println("  " + HttpReport.describe(c.label, w));
          }
        } catch (WrkLoad.Failed e) {
          session.failed(e.getMessage());
        }
      }
      rounds.add(new Round(round, order, loadStart, MachineInfo.loadAverage()));
    }

    Map<String, Map<String, CodecBench.Score>> codecs = null;
    Map<String, Integer> sizes = Map.of();
    if (s.jmh() != null) {
      String noJson = JsonCodecBenchmark.jsonMarshaller() == null ? JsonCodecBenchmark.NO_JSON : null;
      CodecBench.Settings j = s.jmh();
      if (noJson != null) {
        session.recordFailure("JSON codec: " + noJson);
        out.println("  JSON codec: NOT MEASURED: " + noJson + "; measuring the protobuf codec alone");
        j = new CodecBench.Settings(j.forks(), j.warmupIterations(), j.iterations(), j.iterationMillis(), j.jvmFlags(),
            "protobuf_.*");
      }
      Path log = s.logDir().resolve("jmh-json.log");
      out.printf("jmh: JSON against protobuf, %d fork(s) × (%d warm-up + %d measured iterations of %d ms), -prof gc%n",
          j.forks(), j.warmupIterations(), j.iterations(), j.iterationMillis());
      try {
        codecs = CodecBench.run(JsonCodecBenchmark.class, j, out, log);
        sizes = JsonCodecBenchmark.encodedSizes();
      } catch (Exception e) {
        session.failed("JMH failed: " + e + "; log: " + log);
      }
    }
    Result result = new Result(windows, rounds, notMeasured, bodies, codecs, sizes, session.failures(),
        session.caveats());
    String report = HttpReport.markdown(s, result, session.machine(), MachineInfo.loadAverage(), session.started(),
        session.took());
    session.summary("\n" + HttpReport.console(s, result));
    if (s.out() != null) {
      session.write(s.out(), report);
    }
    session.finish();
    return result;
  }

  /** A wrk case's request and the check of its first answer. */
  private static WrkLoad.Target target(Case c, byte[] payload) {
    String path = EchoServiceBolt.METHOD_ECHO.httpPath();
    String description = Systems.byId(c.system).description();
    switch (c) {
      case HTTP_JSON: {
        return new WrkLoad.Target(c.id, c.system, description, path, "application/json", jsonBody(payload),
            (status, type, body) -> {
              byte[] echoed = ProtoJson.read(JsonForms.response(EchoServiceBolt.METHOD_ECHO), new ByteArrayInputStream(body),
                  false);
              return Arrays.equals(echoed, payload) ? null : "the answer's payload is not the request's: "
                  + new String(body, StandardCharsets.UTF_8);
            });
      }
      case HTTP_PROTO: {
        return new WrkLoad.Target(c.id, c.system, description, path, "application/proto", protoBody(payload),
            (status, type, body) -> {
              if (!type.startsWith("application/proto")) {
                return "answered with Content-Type " + type;
              }
              ByteBuf in = Unpooled.wrappedBuffer(body);
              byte[] echoed = EchoServiceBolt.METHOD_ECHO.responseMarshaller().read(in);
              return Arrays.equals(echoed, payload) ? null : "the answer's payload is not the request's";
            });
      }
      default: {
        byte[] body = nettyBody(payload);
        return new WrkLoad.Target(c.id, c.system, description, path, "application/json", body,
            (status, type, answer) -> Arrays.equals(answer, body) ? null : "the answer is not the request's body");
      }
    }
  }

  /** The Bolt case in round {@code round}: a server JVM and a Bolt client JVM of the load matrix, one window. */
  private static HttpWindow bolt(Settings s, Scenario.Setup setup, int round, Session session)
      throws InterruptedException {
    Point point = s.boltPoint();
    String system = Case.BOLT.system;
    List<String> client = new ArrayList<>(List.of("client", "--system", system));
    client.addAll(List.of("--warmup-points", point.token(), "--warmup-pass-ms", "0"));
    Scenario.Pair pair = new Scenario.Pair(system, "round" + round + "-" + Case.BOLT.id,
        Systems.byId(system).description(), List.of("server", "--system", system), client, Duration.ZERO, List.of(),
        List.of());
    Scenario.Stage stage = new Scenario.Stage("round " + round, round, List.of(pair),
        List.of(new Scenario.Slot(system, point, round, false)));
    Scenario one = new Scenario() {
      @Override
      public Scenario.Setup setup() {
        return setup;
      }

      @Override
      public List<Scenario.Stage> stages() {
        return List.of(stage);
      }

      @Override
      public String header() {
        return "  round " + round + " bolt: the Bolt client JVM, " + point.id() + " on one connection";
      }

      @Override
      public Duration estimate() {
        return setup.warmup().plus(setup.measure()).plusSeconds(4);
      }
    };
    Runner.Outcome outcome = Runner.run(one, session.out(), w -> Fmt.rate(w.m().throughput()) + " calls/s");
    outcome.failures().forEach(session::recordFailure);
    List<Window> windows = outcome.windows();
    return windows.isEmpty() ? null : HttpWindow.of(Case.BOLT.id, round, windows.get(windows.size() - 1).m());
  }
}
