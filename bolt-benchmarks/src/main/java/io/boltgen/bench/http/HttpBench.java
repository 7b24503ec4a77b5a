package io.boltgen.bench.http;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.run.HttpWindow;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.service.EchoServiceBolt;
import io.boltgen.json.JsonForms;
import io.boltgen.json.JsonMarshaller;
import io.boltgen.json.ProtoJson;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

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
}
