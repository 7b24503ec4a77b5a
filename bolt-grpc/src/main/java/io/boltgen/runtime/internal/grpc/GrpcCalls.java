package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.internal.PortConnection;
import io.boltgen.runtime.internal.http.Http2StreamProtocol;
import io.boltgen.runtime.internal.http.MessageForms;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.http2.Http2Headers;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gRPC over HTTP/2 on the Bolt port: which streams are gRPC's (content type {@code application/grpc}, with
 * {@code +proto} or {@code +json} or neither), and where a stream's request headers are checked and routed
 * ({@link #open}). Each stream is then a {@link GrpcServerStream} of the one server call.
 *
 * <p>Thread-safe: immutable after construction; its methods run on IO threads.
 */
final class GrpcCalls implements Http2StreamProtocol {

  private static final Logger log = LoggerFactory.getLogger(GrpcCalls.class);

  /** Refusals and broken streams: one rate-limited log for every stream of the process, by cause. */
  private static final RateLimitedLog refusals = RateLimitedLog.of(log);

  static final String CONTENT_TYPE = "application/grpc";

  /** The request encodings this server reads ({@code grpc-accept-encoding}). */
  static final String ACCEPTED_ENCODINGS = "gzip";

  /** The longest {@code grpc-timeout} value the protocol allows, in digits. */
  private static final int MAX_TIMEOUT_DIGITS = 8;

  private final ServerCalls calls;
  private final Map<String, ServerCalls.Method> routes;
  private final int maxMessageBytes;
  private final long requestTimeoutMillis;
  private final GrpcHealth health;

  GrpcCalls(ServerCalls calls, int maxMessageBytes, long requestTimeoutMillis) {
    this.calls = calls;
    this.maxMessageBytes = maxMessageBytes;
    this.requestTimeoutMillis = requestTimeoutMillis;
    this.health = new GrpcHealth(calls);
    this.routes = calls.httpRoutes(); // Connect's too
  }

  @Override
  public boolean serves(Http2Headers headers) {
    CharSequence type = headers.get("content-type");
    return type != null && subtype(type.toString()) != null;
  }

  @Override
  public ChannelHandler newStream(PortConnection connection) {
    return new GrpcServerStream(this, connection);
  }

  ServerCalls calls() {
    return calls;
  }

  int maxMessageBytes() {
    return maxMessageBytes;
  }

  /** How long a request has to arrive whole, from its headers (the server's frame timeout); 0 for no limit. */
  long requestTimeoutMillis() {
    return requestTimeoutMillis;
  }

  GrpcHealth health() {
    return health;
  }

  RateLimitedLog refusals() {
    return refusals;
  }

  /**
   * What follows {@code application/grpc} in a content type: {@code ""}, {@code "proto"} or {@code "json"}
   * (lower case, parameters dropped), or another codec's name; {@code null} when it is not gRPC's (gRPC-Web's
   * {@code application/grpc-web} included).
   */
  static String subtype(String contentType) {
    String type = contentType;
    int semicolon = type.indexOf(';');
    if (semicolon >= 0) {
      type = type.substring(0, semicolon);
    }
    type = type.trim().toLowerCase(java.util.Locale.ROOT);
    if (!type.startsWith(CONTENT_TYPE)) {
      return null;
    }
    if (type.length() == CONTENT_TYPE.length()) {
      return "";
    }
    return type.charAt(CONTENT_TYPE.length()) == '+' ? type.substring(CONTENT_TYPE.length() + 1) : null;
  }

  /**
   * Checks a stream's request headers and routes it: the method and its codec, or the refusal the caller is
   * answered with (trailers only).
   */
  Opening open(Http2Headers headers) {
    CharSequence httpMethod = headers.method();
    if (httpMethod == null || !"POST".contentEquals(httpMethod)) {
      return Opening.refused(405, StatusCode.INTERNAL, "HTTP method " + MessageText.shorten(String.valueOf(httpMethod))
          + " is not supported: gRPC calls are POST");
    }
    String subtype = subtype(String.valueOf(headers.get("content-type")));
    boolean json = "json".equals(subtype);
    if (!json && !"".equals(subtype) && !"proto".equals(subtype)) {
      return Opening.refused(415, StatusCode.INTERNAL, "content type application/grpc+" + MessageText.shorten(subtype)
          + " is not supported: send application/grpc, application/grpc+proto or application/grpc+json");
    }
    CharSequence te = headers.get("te");
    if (te == null || !"trailers".contentEquals(te)) {
      return Opening.refused(200, StatusCode.INTERNAL, "the request has no \"te: trailers\" header, which gRPC"
          + " requires (a proxy between may have dropped it, and with it the trailers that carry every status)");
    }
    String path = String.valueOf(headers.path());
    ServerCalls.Method method = routes.get(path);
    String health = method == null && (path.equals(GrpcHealth.CHECK) || path.equals(GrpcHealth.WATCH)) ? path : null;
    if (method == null && health == null) {
      return Opening.refused(200, StatusCode.UNIMPLEMENTED, methodNotFound(path));
    }
    if (json && (health != null || !MessageForms.hasJson(method.descriptor()))) {
      return Opening.refused(200, StatusCode.UNIMPLEMENTED, (health != null ? health : method.descriptor().httpPath())
          + " has no JSON form (io.boltgen:bolt-json was not on the class path where its interface was compiled, or"
          + " it is the health check, answered in protobuf only): send application/grpc+proto");
    }
    CharSequence encoding = headers.get("grpc-encoding");
    boolean gzip = encoding != null && "gzip".contentEquals(encoding);
    if (encoding != null && !gzip && !"identity".contentEquals(encoding)) {
      return Opening.refused(200, StatusCode.UNIMPLEMENTED, unsupportedEncoding(encoding.toString()));
    }
    long timeoutMillis = health != null ? 0 : method.descriptor().timeoutMillis();
    CharSequence timeout = headers.get("grpc-timeout");
    if (timeout != null) {
      timeoutMillis = parseTimeout(timeout);
      if (timeoutMillis < 0) {
        return Opening.refused(200, StatusCode.INTERNAL, badTimeout(timeout.toString()));
      }
    }
    return new Opening(method, json, gzip, (int) Math.min(Integer.MAX_VALUE, timeoutMillis), 200, null, null, health);
  }

  /** Why a call of {@code path} is refused when no method has that route (gRPC's own words). */
  static String methodNotFound(String path) {
    return "Method not found: " + MessageText.shorten(path.startsWith("/") ? path.substring(1) : path);
  }

  /** Why a request in {@code encoding} is refused. */
  static String unsupportedEncoding(String encoding) {
    return "grpc-encoding " + MessageText.shorten(encoding) + " is not supported: this server reads identity and "
        + ACCEPTED_ENCODINGS;
  }

  /** Why a request with the {@code grpc-timeout} {@code text} is refused. */
  static String badTimeout(String text) {
    return "grpc-timeout must be 1 to 8 digits and a unit (H, M, S, m, u, n), not " + MessageText.shorten(text);
  }

  /**
   * A {@code grpc-timeout} in milliseconds, rounded up (a timeout under a millisecond is one), or -1 when it is not
   * 1 to 8 ASCII digits followed by one of the units {@code H M S m u n}.
   */
  static long parseTimeout(CharSequence text) {
    int length = text.length();
    if (length < 2 || length > MAX_TIMEOUT_DIGITS + 1) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < length - 1; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    long nanosPerUnit = switch (text.charAt(length - 1)) {
      case 'H' -> 3_600_000_000_000L;
      case 'M' -> 60_000_000_000L;
      case 'S' -> 1_000_000_000L;
      case 'm' -> 1_000_000L;
      case 'u' -> 1_000L;
      case 'n' -> 1L;
      default -> -1L;
    };
    if (nanosPerUnit < 0) {
      return -1;
    }
    if (nanosPerUnit >= 1_000_000L) {
      return Math.max(1, value * (nanosPerUnit / 1_000_000L)); // at most 99,999,999 hours: no overflow
    }
    return Math.max(1, (value * nanosPerUnit + 999_999L) / 1_000_000L);
  }

  /**
   * A stream's request headers, checked: the method to call, or the route of a health check or watch
   * ({@code health}), or a refusal.
   */
  record Opening(ServerCalls.Method method, boolean json, boolean gzip, int timeoutMillis, int httpStatus,
      StatusCode refusal, String why, String health) {

    static Opening refused(int httpStatus, StatusCode code, String why) {
      return new Opening(null, false, false, 0, httpStatus, code, why, null);
    }
  }

  /** A request's headers as the call sees them: lower-case names without HTTP/2's pseudo-headers, repeats joined. */
  static Map<String, String> headers(Http2Headers http2) {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<CharSequence, CharSequence> header : http2) {
      String name = header.getKey().toString();
      if (!name.startsWith(":")) {
        out.merge(name, header.getValue().toString(), (a, b) -> a + ", " + b);
      }
    }
    return out;
  }
}
