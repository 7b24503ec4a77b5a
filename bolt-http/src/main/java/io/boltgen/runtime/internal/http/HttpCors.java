package io.boltgen.runtime.internal.http;

import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;
import java.util.Set;

/**
 * Which browser pages of other origins may call the port (CORS, {@code BoltServer.Builder.httpCors}): a request
 * whose {@code Origin} is allowed has its answer marked for it ({@link #mark}), and a preflight request from it is
 * answered here ({@link #preflight}). The headers a page may send are those Connect and gRPC-Web clients send; those
 * its script may read are the status headers (gRPC-Web's {@code grpc-status}, {@code grpc-message} and details).
 *
 * <p>Immutable.
 */
final class HttpCors {

  /** No origin is allowed. */
  static final HttpCors NONE = new HttpCors(List.of());

  /** The request headers a page may send: what Connect's and gRPC-Web's clients send. */
  static final String ALLOWED_HEADERS = "content-type, connect-protocol-version, connect-timeout-ms,"
      + " connect-content-encoding, connect-accept-encoding, grpc-timeout, x-grpc-web, x-user-agent";
  /** The answer's headers a page's script may read. */
  static final String EXPOSED_HEADERS = "grpc-status, grpc-message, grpc-status-details-bin";
  /** How long a browser may keep a preflight's answer, in seconds. */
  static final String MAX_AGE_SECONDS = "7200";

  private final Set<String> origins;
  private final boolean any;

  private HttpCors(List<String> origins) {
    this.origins = Set.copyOf(origins);
    this.any = origins.contains("*");
  }

  /** The CORS of a server that allows {@code origins} (an origin each, or {@code *}). */
  static HttpCors of(List<String> origins) {
    return origins.isEmpty() ? NONE : new HttpCors(origins);
  }

  /** The value of {@code Access-Control-Allow-Origin} for a request from {@code origin}, or null if not allowed. */
  String allowed(String origin) {
    if (origin == null || origins.isEmpty()) {
      return null;
    }
    return any ? "*" : origins.contains(origin) ? origin : null;
  }

  /** Marks an answer to a request allowed as {@code allowOrigin} (its {@link #allowed} value). */
  static void mark(HttpHeaders headers, String allowOrigin) {
    headers.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, allowOrigin);
    headers.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED_HEADERS);
    if (!allowOrigin.equals("*")) {
      headers.add(HttpHeaderNames.VARY, HttpHeaderNames.ORIGIN);
    }
  }

  /**
   * The answer to a preflight request from {@code origin}: 204 with what it may send, when allowed (marked as any
   * answer then is), else 403.
   */
  FullHttpResponse preflight(String origin) {
    String allowOrigin = allowed(origin);
    FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
        allowOrigin == null ? HttpResponseStatus.FORBIDDEN : HttpResponseStatus.NO_CONTENT);
    answer.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
    if (allowOrigin != null) {
      answer.headers().set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, "POST, GET");
      answer.headers().set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS);
      answer.headers().set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS);
    }
    return answer;
  }
}
