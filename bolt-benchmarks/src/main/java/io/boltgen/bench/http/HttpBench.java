package io.boltgen.bench.http;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.jmh.JsonCodecBenchmark;
import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.HttpReport;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.run.HttpWindow;
import io.boltgen.bench.run.ProcStat;
import io.boltgen.bench.run.Runner;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.run.WrkLoad;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.scenario.Scenario;
import io.boltgen.bench.service.EchoServiceBolt;
import io.boltgen.bench.system.Systems;
import io.boltgen.json.JsonForms;
import io.boltgen.json.JsonMarshaller;
import io.boltgen.json.ProtoJson;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The {@code http} command: boltgen serving the generated {@code EchoService} over HTTP (JSON and binary protobuf
 * bodies, loaded by wrk), the same server loaded by the Bolt client, and a raw Netty HTTP echo (the ceiling), in
 * rounds whose order rotates; then the generated JSON codec against the generated protobuf codec (JMH); then the
 * report ({@link HttpReport}).
 */
public final class HttpBench {

  /** The cases, in report order. */
  public enum Case {
    HTTP_JSON("http-json", "boltgen HTTP/JSON", "boltgen-http"),
    HTTP_PROTO("http-proto", "boltgen HTTP/protobuf", "boltgen-http"),
    BOLT("bolt", "boltgen Bolt", "boltgen-http"),
    NETTY_HTTP("netty-http", "raw Netty HTTP echo", "netty-http");

    public final String id;
    public final String label;
    public final String system;

    Case(String id, String label, String system) {
      this.id = id;
      this.label = label;
      this.system = system;
    }

    /** The case named {@code id}. */
    public static Case parse(String id) {
      for (Case c : values()) {
        if (c.id.equals(id.trim())) {
          return c;
        }
      }
      throw new IllegalArgumentException("unknown case " + id + "; known: "
          + String.join(",", Arrays.stream(values()).map(c -> c.id).toList()));
    }
  }

  /** The default windows: 5 s warm-up, 10 s measured; 3 rounds. */
  public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(5);
  public static final Duration DEFAULT_MEASURE = Duration.ofSeconds(10);
  public static final int DEFAULT_ROUNDS = 3;
  public static final int DEFAULT_CONNECTIONS = 64;
  public static final int DEFAULT_THREADS = 2;
  public static final int DEFAULT_PAYLOAD = 100;
  public static final double TARGET_HTTP_VS_NETTY = 0.5;
  public static final double TARGET_JSON_VS_PROTOBUF = 1.5;

  /**
   * What to run.
   *
   * @param cases the cases, in order (round r starts with the one at index (r - 1) mod n)
   * @param connections wrk's connections; the Bolt case keeps as many calls in flight on its one connection
   * @param threads wrk's threads
   * @param payloadBytes the echoed payload
   * @param jvmFlags JVM flags of every child JVM
   * @param wrk wrk's executable
   * @param jmh the codec benchmark, or null to skip it
   * @param out where the report goes, or null for none
   * @param command the command line, for the report
   * @param caveats why this is not the full measurement, for the report
   */
  public record Settings(List<Case> cases, int rounds, Duration warmup, Duration measure, int connections, int threads,
      int payloadBytes, QuietPolicy quiet, List<String> jvmFlags, Path logDir, String host, Path wrk,
      CodecBench.Settings jmh, Path out, String command, List<String> caveats) {

    public Settings {
      cases = List.copyOf(cases);
      jvmFlags = List.copyOf(jvmFlags);
      caveats = List.copyOf(caveats);
      if (cases.isEmpty() || rounds < 1 || connections < threads || threads < 1 || payloadBytes < 0) {
        throw new IllegalArgumentException("the http command needs a case, a round, at least as many connections as"
            + " wrk threads, and a payload");
      }
    }

    /** The Bolt case's load: async, {@code connections} calls in flight on one connection. */
    public Point boltPoint() {
      return new Point("async-" + connections + "/" + Point.bytes(payloadBytes), false, 1, connections, payloadBytes, "");
    }
  }

  /**
   * One round: its order and the load averages around it.
   */
  public record Round(int round, List<Case> order, String loadAverageStart, String loadAverageEnd) {}

  /**
   * What came out.
   *
   * @param windows every case's measured window, per round
   * @param notMeasured cases that could not run at all, with why
   * @param bodies the request body of each wrk case, described (size and form)
   * @param codecs JMH scores by codec ({@code protobuf}, {@code json}) and operation, or null
   * @param codecSizes encoded bytes by codec
   * @param failures what failed
   * @param caveats the settings' caveats and any found while running
   */
  public record Result(List<HttpWindow> windows, List<Round> rounds, Map<Case, String> notMeasured,
      Map<Case, String> bodies, Map<String, Map<String, CodecBench.Score>> codecs, Map<String, Integer> codecSizes,
      List<String> failures, List<String> caveats) {}

  private HttpBench() {}

  /** The echoed payload: {@code bytes} random bytes, the same every run. */
  static byte[] payload(int bytes) {
    byte[] payload = new byte[bytes];
    new SplittableRandom(42).nextBytes(payload);
    return payload;
  }

  /** The protobuf body of the echo request: the generated request marshaller's bytes. */
  static byte[] protoBody(byte[] payload) {
    Marshaller<EchoServiceBolt.EchoRequest> m = EchoServiceBolt.METHOD_ECHO.requestMarshaller();
    EchoServiceBolt.EchoRequest request = new EchoServiceBolt.EchoRequest(payload);
    ByteBuf buf = Unpooled.buffer(m.encodedSize(request));
    try {
      m.write(request, buf);
      byte[] bytes = new byte[buf.readableBytes()];
      buf.readBytes(bytes);
      return bytes;
    } finally {
      buf.release();
    }
  }

  /** Why there is no JSON body in this build, or null when there is one. */
  static String noJson() {
    return JsonForms.of(EchoServiceBolt.METHOD_ECHO) == null
        ? "JsonForms.of(EchoServiceBolt.METHOD_ECHO) is null: the generated services of this build have no JSON codecs,"
            + " so no JSON body can be made (and the server would answer 415); build with a bolt-processor that"
            + " generates them"
        : null;
  }

  /** The JSON body of the echo request, by the generated JSON codec; fails saying {@link #noJson()} without one. */
  static byte[] jsonBody(byte[] payload) {
    JsonMarshaller<EchoServiceBolt.EchoRequest> json = JsonForms.request(EchoServiceBolt.METHOD_ECHO);
    if (json == null) {
      throw new IllegalStateException(noJson());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ProtoJson.write(json, new EchoServiceBolt.EchoRequest(payload), out);
    return out.toByteArray();
  }

  /**
   * The body the raw Netty echo gets: the JSON body, or in a build without JSON codecs the same message written by
   * hand by proto3's JSON mapping (bytes as standard base64); Netty does not read it either way.
   */
  static byte[] nettyBody(byte[] payload) {
    return noJson() == null ? jsonBody(payload)
        : ("{\"payload\":\"" + Base64.getEncoder().encodeToString(payload) + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  /** Runs {@code s}, printing progress and the report's tables to {@code out}. */
  public static Result execute(Settings s, PrintStream out) throws Exception {
    Instant started = Instant.now();
    Map<String, String> machine = MachineInfo.read();
    out.println("boltgen HTTP benchmark on " + machine.get("CPU") + ", " + machine.get("cores") + "; load average "
        + machine.get("load average at start") + "; child logs: " + s.logDir());
    List<String> caveats = new ArrayList<>(s.caveats());
    double busy = ProcStat.otherCpuPercent(Duration.ofSeconds(2));
    if (busy > ProcStat.BUSY_PERCENT) {
      caveats.add(String.format(Locale.ROOT, "the machine was busy when it started (other processes took %.0f%% of a"
          + " core over 2 s): other work shared the CPUs", busy));
    }
    byte[] payload = payload(s.payloadBytes());
    Map<Case, WrkLoad.Target> targets = new LinkedHashMap<>();
    Map<Case, String> notMeasured = new LinkedHashMap<>();
    Map<Case, String> bodies = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    for (Case c : s.cases()) {
      if (c == Case.BOLT) {
        bodies.put(c, "the " + s.payloadBytes() + " B payload in a Bolt frame");
        continue;
      }
      if (c == Case.HTTP_JSON && noJson() != null) {
        notMeasured.put(c, noJson());
        failures.add(c.label + ": " + noJson());
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
          HttpWindow w = c == Case.BOLT ? bolt(s, setup, round, out, failures) : WrkLoad.run(targets.get(c), round, load,
              setup, List.of(), out);
          if (w != null) {
            windows.add(w);
            out.println("  " + HttpReport.describe(c.label, w));
          }
        } catch (WrkLoad.Failed e) {
          failures.add(e.getMessage());
          out.println("  FAILED " + e.getMessage());
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
        failures.add("JSON codec: " + noJson);
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
        failures.add("JMH failed: " + e + "; log: " + log);
        out.println("  FAILED JMH: " + e + "; log: " + log);
      }
    }
    Result result = new Result(windows, rounds, notMeasured, bodies, codecs, sizes, failures, caveats);
    Duration took = Duration.between(started, Instant.now());
    String report = HttpReport.markdown(s, result, machine, MachineInfo.loadAverage(), started, took);
    out.print("\n" + HttpReport.console(s, result));
    if (!failures.isEmpty()) {
      out.println("\nFAILURES:");
      failures.forEach(f -> out.println("  " + f));
    }
    if (!caveats.isEmpty()) {
      out.println("\nNot a full measurement: " + String.join("; ", caveats));
    }
    if (s.out() != null) {
      Files.createDirectories(s.out().toAbsolutePath().getParent());
      Files.writeString(s.out(), report, StandardCharsets.UTF_8);
      out.println("wrote " + s.out().toAbsolutePath());
    }
    out.println("took " + Fmt.duration(took));
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
  private static HttpWindow bolt(Settings s, Scenario.Setup setup, int round, PrintStream out, List<String> failures)
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
    Runner.Outcome outcome = Runner.run(one, out, w -> Fmt.rate(w.m().throughput()) + " calls/s");
    failures.addAll(outcome.failures());
    List<Window> windows = outcome.windows();
    return windows.isEmpty() ? null : HttpWindow.of(Case.BOLT.id, round, windows.get(windows.size() - 1).m());
  }
}
