package io.boltgen.bench.http;

import static io.boltgen.bench.http.HttpBench.jsonBody;
import static io.boltgen.bench.http.HttpBench.nettyBody;
import static io.boltgen.bench.http.HttpBench.noJson;
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
import io.boltgen.bench.run.Loads;
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
    byte[] payload = Loads.payload(s.payloadBytes(), 42);
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
    List<Case> runnable = s.cases().stream().filter(c -> !notMeasured.containsKey(c)).toList();
    Runner.Starter<Scenario.Pair, Window> pairs = Runner.jvmPairs(setup, out);
    Runner.Starter<CaseRound, HttpWindow> starter = (part, stage) -> part.c() == Case.BOLT
        ? pairs.start(boltPair(part.round(), s.boltPoint()), stage)
            .map((slot, w) -> HttpWindow.of(Case.BOLT.id, slot.run(), w.m()))
        : WrkLoad.start(targets.get(part.c()), part.round(), load, setup, out);
    Runner.Outcome<HttpWindow> outcome = Runner.run(new Rounds(s, runnable), starter, out,
        w -> HttpReport.describe(Case.parse(w.caseId()).label, w));
    outcome.failures().forEach(session::recordFailure);
    List<Round> rounds = outcome.runs().stream().map(r -> new Round(r.run(), r.order().stream().map(Case::parse)
        .toList(), r.loadAverageStart(), r.loadAverageEnd())).toList();
    List<HttpWindow> windows = outcome.windows();

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

  /** The Bolt case's JVM pair in round {@code round}: a server and a Bolt client JVM of the load matrix. */
  private static Scenario.Pair boltPair(int round, Point point) {
    String system = Case.BOLT.system;
    return new Scenario.Pair(system, "round" + round + "-" + Case.BOLT.id, Systems.byId(system).description(),
        List.of("server", "--system", system), List.of("client", "--system", system, "--warmup-points", point.token(),
            "--warmup-pass-ms", "0"), Duration.ZERO, List.of(), List.of(), null);
  }

  /** A case in a round: a part of the http scenario, measured by slots named by the case's id. */
  record CaseRound(Case c, int round) implements Scenario.Part {
    @Override
    public String system() {
      return c.id;
    }
  }

  /**
   * The cases in rounds whose order rotates (round r starts with the case at index (r - 1) mod n), a fresh server
   * per case and round: the Bolt case's load is {@link Settings#boltPoint()}; wrk's, its connections, one request
   * in flight on each.
   */
  record Rounds(Settings s, List<Case> cases) implements Scenario<CaseRound> {
    @Override
    public List<Stage<CaseRound>> stages() {
      List<Stage<CaseRound>> stages = new ArrayList<>();
      for (int round = 1; round <= s.rounds(); round++) {
        for (Case c : Scenario.rotation(cases, round)) {
          Point point = c == Case.BOLT ? s.boltPoint() : new Point("c" + s.connections() + "/"
              + Point.bytes(s.payloadBytes()), false, s.connections(), 1, s.payloadBytes(), "");
          stages.add(new Stage<>("round " + round + "/" + s.rounds(), round, List.of(new CaseRound(c, round)),
              List.of(new Slot(c.id, point, round, false))));
        }
      }
      return stages;
    }

    @Override
    public String header() {
      return s.rounds() + " round(s) of " + String.join(", ", cases.stream().map(c -> c.id).toList()) + ", about "
          + Fmt.duration(estimate());
    }

    @Override
    public Duration estimate() {
      return s.warmup().plus(s.measure()).plusSeconds(4).multipliedBy((long) s.rounds() * cases.size());
    }
  }
}
