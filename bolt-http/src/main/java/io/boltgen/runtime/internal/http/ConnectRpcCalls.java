package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an HTTP request becomes a call: Connect's unary protocol on the server's methods. A request is
 * {@code POST /<proto package>.<Service>/<method>} with {@code Content-Type: application/json} (the proto3
 * JSON mapping) or {@code application/proto} (protobuf's binary form); it may carry
 * {@code Connect-Protocol-Version: 1} and {@code Connect-Timeout-Ms}. Everything else is answered here with
 * its status and a Connect error: a request HTTP could not frame (400, 414, 431), an unknown route (404,
 * naming the routes there are), a body over the limit (413), another HTTP method (405), an unsupported content type (415) or encoding.
 * A well-formed request becomes the one server call over a {@link ConnectRpcStream}, as a Bolt request would.
 *
 * <p>Thread-safe: immutable after construction; {@link #handle} runs on IO threads.
 */
final class ConnectRpcCalls {

  private static final Logger log = LoggerFactory.getLogger(ConnectRpcCalls.class);
  private static final RateLimitedLog refused = RateLimitedLog.of(log);

  /** The content type of protobuf's binary form. */
  static final String PROTO = "application/proto";

  /** The longest Connect-Timeout-Ms the protocol allows, in digits. */
  private static final int MAX_TIMEOUT_DIGITS = 10;

  /** How many routes a 404 names at most. */
  private static final int ROUTES_NAMED = 20;

  private final Map<String, ServerCalls.Method> routes;
  private final ServerCalls calls;
  private final HttpResources resources;
  private final List<HttpCallProtocol> protocols;
  private final HttpCors cors;
  private final int maxMessageBytes;

  /**
   * Connect's calls of {@code calls}, beside the other {@code protocols} of whole requests (gRPC-Web), callable by
   * the browser pages {@code cors} allows; a message of a streamed body is at most {@code maxMessageBytes}.
   */
  ConnectRpcCalls(ServerCalls calls, HttpResources resources, List<HttpCallProtocol> protocols, HttpCors cors,
      int maxMessageBytes) {
    this.maxMessageBytes = maxMessageBytes;
    this.resources = resources;
    this.routes = calls.httpRoutes();
    this.calls = calls;
    this.protocols = List.copyOf(protocols);
    this.cors = cors;
  }

  /** Which browser pages of other origins may call the port. */
  HttpCors cors() {
    return cors;
  }

  /** A dispatch for the calls of one HTTP connection or stream (confined to its IO thread). */
  ServerCalls.Dispatch newDispatch() {
    return calls.newDispatch();
  }

  /** The routes, in the order their services were added. */
  List<String> routes() {
    return new ArrayList<>(routes.keySet());
  }

  /** Answers {@code request} (IO thread); the caller releases it afterwards. */
  void handle(HttpExchanges exchanges, HttpExchanges.Exchange exchange, FullHttpRequest request) {
    if (!request.decoderResult().isSuccess()) {
      Throwable cause = request.decoderResult().cause();
      if (cause instanceof TooLongHttpContentException) { // the body limit (HttpPipelines.BoundedAggregator)
        refuse(exchanges, exchange, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, ConnectRpcErrors.RESOURCE_EXHAUSTED,
            cause.getMessage());
        return;
      }
      HttpResponseStatus status = cause instanceof TooLongHttpHeaderException
          ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
          : cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
          : cause instanceof TooLongFrameException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
          : HttpResponseStatus.BAD_REQUEST;
      String why = status.equals(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
          ? "the request's header block is over the server's limit of " + HttpPipelines.MAX_HEADER_BYTES + " bytes"
          : status.equals(HttpResponseStatus.REQUEST_URI_TOO_LONG)
              ? "the request line is over the server's limit of " + HttpPipelines.MAX_INITIAL_LINE + " bytes"
              : "malformed HTTP request: " + (cause == null ? "unknown" : cause.getMessage());
      refuse(exchanges, exchange, status, status.equals(HttpResponseStatus.BAD_REQUEST)
          ? ConnectRpcErrors.INVALID_ARGUMENT : ConnectRpcErrors.RESOURCE_EXHAUSTED, why);
      return;
    }
    if (HttpMethod.OPTIONS.equals(request.method())
        && request.headers().contains(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD)) {
      exchanges.answer(exchange, cors.preflight(request.headers().get(HttpHeaderNames.ORIGIN))); // CORS preflight
      return;
    }
    for (HttpCallProtocol protocol : protocols) {
      if (protocol.serves(request.headers())) {
        protocol.handle(new HttpCall(exchanges, exchange, calls), request);
        return;
      }
    }
    String path = path(request.uri());
    if (resources.serves(path)) {
      if (HttpMethod.GET.equals(request.method())) {
        FullHttpResponse response;
        try {
          response = resources.get(path, exchanges.alloc());
        } catch (RuntimeException e) {
          refuse(exchanges, exchange, HttpResponseStatus.INTERNAL_SERVER_ERROR, ConnectRpcErrors.INTERNAL,
              "cannot serve " + path + ": " + e.getMessage());
          return;
        }
        exchanges.answer(exchange, response);
        return;
      }
      FullHttpResponse response = ConnectRpcErrors.response(exchanges.alloc(), HttpResponseStatus.METHOD_NOT_ALLOWED,
          ConnectRpcErrors.UNIMPLEMENTED, path + " takes GET, not " + MessageText.shorten(request.method().name()), null,
          null);
      response.headers().set(HttpHeaderNames.ALLOW, "GET");
      log(exchanges, exchange, response.status(), "HTTP method " + request.method());
      exchanges.answer(exchange, response);
      return;
    }
    ServerCalls.Method entry = routes.get(path);
    if (entry == null) {
      refuse(exchanges, exchange, HttpResponseStatus.NOT_FOUND, ConnectRpcErrors.NOT_FOUND,
          "no method at " + MessageText.shorten(path) + "; this server's routes: " + routeList());
      return;
    }
    if (!HttpMethod.POST.equals(request.method())) {
      FullHttpResponse response = ConnectRpcErrors.response(exchanges.alloc(), HttpResponseStatus.METHOD_NOT_ALLOWED,
          ConnectRpcErrors.UNIMPLEMENTED, path + " takes POST, not " + MessageText.shorten(request.method().name()), null,
          null);
      response.headers().set(HttpHeaderNames.ALLOW, "POST");
      log(exchanges, exchange, response.status(), "HTTP method " + request.method());
      exchanges.answer(exchange, response);
      return;
    }
    MethodDescriptor<?, ?> method = entry.descriptor();
    String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
    Boolean streamJson = streamCodec(contentType);
    if (streamJson != null) {
      stream(exchanges, exchange, request, entry, streamJson);
      return;
    }
    Boolean json = codec(contentType);
    if (json == null) {
      FullHttpResponse response = ConnectRpcErrors.response(exchanges.alloc(), HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE,
          ConnectRpcErrors.UNIMPLEMENTED, (contentType == null ? "no Content-Type" : "Content-Type "
              + MessageText.shorten(contentType) + " is not supported") + ": send application/json or " + PROTO, null, null);
      response.headers().set("Accept-Post", "application/json, " + PROTO);
      log(exchanges, exchange, response.status(), "content type " + contentType);
      exchanges.answer(exchange, response);
      return;
    }
    if (json && !MessageForms.hasJson(method)) {
      refuse(exchanges, exchange, HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, ConnectRpcErrors.UNIMPLEMENTED,
          method.httpPath() + " has no JSON form (no JSON codec was generated for it: io.boltgen:bolt-json was not"
              + " on the class path where its interface was compiled, or one of its messages has none): send " + PROTO);
      return;
    }
    String encoding = request.headers().get(HttpHeaderNames.CONTENT_ENCODING);
    if (encoding != null && !encoding.equalsIgnoreCase("identity")) {
      FullHttpResponse response = ConnectRpcErrors.response(exchanges.alloc(), ConnectRpcErrors.UNIMPLEMENTED,
          "Content-Encoding " + MessageText.shorten(encoding) + " is not supported: send the body uncompressed");
      response.headers().set("Accept-Encoding", "identity");
      log(exchanges, exchange, response.status(), "content encoding " + encoding);
      exchanges.answer(exchange, response);
      return;
    }
    String version = request.headers().get("connect-protocol-version");
    if (version != null && !version.equals("1")) {
      refuse(exchanges, exchange, HttpResponseStatus.BAD_REQUEST, ConnectRpcErrors.INVALID_ARGUMENT,
          "Connect-Protocol-Version " + MessageText.shorten(version) + " is not supported: this server speaks version 1");
      return;
    }
    long timeoutMillis = method.timeoutMillis();
    String timeout = request.headers().get("connect-timeout-ms");
    if (timeout != null) {
      timeoutMillis = parseTimeout(timeout);
      if (timeoutMillis <= 0) {
        refuse(exchanges, exchange, HttpResponseStatus.BAD_REQUEST, ConnectRpcErrors.INVALID_ARGUMENT,
            "Connect-Timeout-Ms must be a positive integer of at most 10 digits, not " + MessageText.shorten(timeout));
        return;
      }
    }
    Map<String, String> headers = HttpCall.headers(request);
    start(exchanges, exchange, entry, new ConnectRpcStream(exchanges, exchange, method, headers, json, timeoutMillis,
        request.content().retain()));
  }

  /** Starts the one server call of {@code entry} over {@code stream}, the call serving {@code exchange} (IO thread). */
  private void start(HttpExchanges exchanges, HttpExchanges.Exchange exchange, ServerCalls.Method entry,
      ConnectStream stream) {
    new HttpCall(exchanges, exchange, calls).start(entry, stream, stream, stream.timeoutMillis);
  }

  /**
   * Whether {@code request}'s body is read as it arrives, not whole: a request in Connect's streaming protocol to a
   * method that streams its requests (IO thread; asked by the aggregator of each request's head).
   */
  boolean streamsBody(HttpRequest request) {
    if (!request.decoderResult().isSuccess() || !HttpMethod.POST.equals(request.method())
        || streamCodec(request.headers().get(HttpHeaderNames.CONTENT_TYPE)) == null) {
      return false;
    }
    ServerCalls.Method entry = routes.get(path(request.uri()));
    return entry != null && entry.descriptor().type().streamsRequests();
  }

  /**
   * Starts the call of a request whose body streams ({@link #streamsBody}), from its head (IO thread): the body to
   * feed its parts to, or null if the request was refused, its body then dropped.
   */
  StreamedRequest handleStreamed(HttpExchanges exchanges, HttpExchanges.Exchange exchange, HttpRequest head) {
    return stream(exchanges, exchange, head, routes.get(path(head.uri())),
        streamCodec(head.headers().get(HttpHeaderNames.CONTENT_TYPE)));
  }

  private static String path(String uri) {
    int query = uri.indexOf('?');
    return query < 0 ? uri : uri.substring(0, query);
  }

  /**
   * A request in Connect's streaming protocol. A server-streaming method's is whole, one enveloped message (flags 0,
   * or 1 compressed with its {@code Connect-Content-Encoding}, then its length); a client-streaming or bidirectional
   * method's is its head, its body's envelopes read as they arrive and told to the call as it asks (bidirectional only
   * over HTTP/2: 505 over HTTP/1.1). Either starts the call over a {@link ConnectStreamingStream}. A unary method
   * refuses it (415); an encoding, a version or a timeout it cannot take, and a bad envelope, end the stream at once,
   * as the protocol answers errors of a stream (200, an end-of-stream message with the error). Returns the streamed
   * body, or null.
   */
  private StreamedRequest stream(HttpExchanges exchanges, HttpExchanges.Exchange exchange, HttpRequest request,
      ServerCalls.Method entry, boolean json) {
    MethodDescriptor<?, ?> method = entry.descriptor();
    boolean streamsRequests = method.type().streamsRequests();
    if (!method.type().streamsAnswers() && !streamsRequests) {
      refuse(exchanges, exchange, HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, ConnectRpcErrors.UNIMPLEMENTED,
          method.httpPath() + " is unary: send application/json or " + PROTO + ", not Connect's streaming protocol");
      return null;
    }
    if (method.type() == MethodType.BIDI_STREAMING && !exchanges.http2()) {
      refuse(exchanges, exchange, HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, ConnectRpcErrors.UNIMPLEMENTED,
          method.httpPath() + " is bidirectional, which Connect carries over HTTP/2 only: call it over HTTP/2");
      return null;
    }
    String why = null;
    String code = ConnectRpcErrors.INVALID_ARGUMENT;
    String encoding = request.headers().get("connect-content-encoding");
    String version = request.headers().get("connect-protocol-version");
    String timeout = request.headers().get("connect-timeout-ms");
    long timeoutMillis = timeout == null ? method.timeoutMillis() : parseTimeout(timeout);
    boolean gzip = "gzip".equalsIgnoreCase(encoding);
    if (json && !MessageForms.hasJson(method)) {
      code = ConnectRpcErrors.UNIMPLEMENTED;
      why = method.httpPath() + " has no JSON form: send " + ConnectStreamingStream.PROTO;
    } else if (encoding != null && !gzip && !encoding.equalsIgnoreCase("identity")) {
      code = ConnectRpcErrors.UNIMPLEMENTED;
      why = "Connect-Content-Encoding " + MessageText.shorten(encoding) + " is not supported: send messages"
          + " uncompressed, or gzip";
    } else if (version != null && !version.equals("1")) {
      why = "Connect-Protocol-Version " + MessageText.shorten(version) + " is not supported: this server speaks"
          + " version 1";
    } else if (timeout != null && timeoutMillis <= 0) {
      why = "Connect-Timeout-Ms must be a positive integer of at most 10 digits, not " + MessageText.shorten(timeout);
    }
    LengthPrefixedMessages messages = new LengthPrefixedMessages(exchanges.alloc(), maxMessageBytes, gzip,
        !streamsRequests, "Connect-Content-Encoding");
    ByteBuf one = null;
    if (why == null && !streamsRequests) {
      LengthPrefixedMessages.Refusal refusal = messages.add(((FullHttpRequest) request).content());
      refusal = refusal != null ? refusal : messages.end();
      one = refusal == null ? messages.take() : null;
      messages.release();
      if (refusal != null) {
        code = refusal.code() == StatusCode.INTERNAL ? ConnectRpcErrors.INVALID_ARGUMENT : refusal.code().connectName();
        why = refusal.why();
      } else if (one == null) {
        why = "the request ended without a message: " + method.httpPath() + " takes one";
      }
    }
    if (why != null) {
      log(exchanges, exchange, HttpResponseStatus.OK, why);
      ConnectStreamingStream.refuse(exchanges, exchange, json, code, why);
      return null;
    }
    ConnectStreamingStream stream = new ConnectStreamingStream(exchanges, exchange, method, HttpCall.headers(request),
        json, timeoutMillis, one, streamsRequests ? messages : null);
    start(exchanges, exchange, entry, stream);
    return stream.body();
  }

  /** {@code true} for Connect's streams of JSON, {@code false} of protobuf, {@code null} for anything else. */
  static Boolean streamCodec(String contentType) {
    if (contentType == null) {
      return null;
    }
    String type = contentType.trim(); // asked of every request's head: no copy unless it has spaces around
    return type.equalsIgnoreCase(ConnectStreamingStream.JSON) ? Boolean.TRUE
        : type.equalsIgnoreCase(ConnectStreamingStream.PROTO) ? Boolean.FALSE : null;
  }

  /** {@code true} for JSON, {@code false} for binary protobuf, {@code null} for anything else. */
  static Boolean codec(String contentType) {
    if (contentType == null) {
      return null;
    }
    String type = contentType;
    String parameters = "";
    int semicolon = contentType.indexOf(';');
    if (semicolon >= 0) {
      type = contentType.substring(0, semicolon);
      parameters = contentType.substring(semicolon + 1).trim().toLowerCase(Locale.ROOT);
    }
    type = type.trim().toLowerCase(Locale.ROOT);
    if (type.equals("application/json")) {
      boolean utf8 = parameters.isEmpty() || parameters.equals("charset=utf-8")
          || parameters.equals("charset=\"utf-8\"");
      return utf8 ? Boolean.TRUE : null;
    }
    if (type.equals(PROTO) && parameters.isEmpty()) {
      return Boolean.FALSE;
    }
    return null;
  }

  /** The timeout in milliseconds, or -1 if {@code text} is not 1 to 10 ASCII digits (or is zero). */
  static long parseTimeout(String text) {
    if (text.isEmpty() || text.length() > MAX_TIMEOUT_DIGITS) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value == 0 ? -1 : value;
  }

  private String routeList() {
    StringBuilder text = new StringBuilder();
    int named = 0;
    for (String route : routes.keySet()) {
      if (named == ROUTES_NAMED) {
        text.append(", and ").append(routes.size() - named).append(" more");
        break;
      }
      text.append(named == 0 ? "" : ", ").append(route);
      named++;
    }
    return named == 0 ? "none" : text.toString();
  }

  private void refuse(HttpExchanges exchanges, HttpExchanges.Exchange exchange, HttpResponseStatus status,
      String code, String message) {
    log(exchanges, exchange, status, message);
    exchanges.answer(exchange, ConnectRpcErrors.response(exchanges.alloc(), status, code, message, null, null));
  }

  private static void log(HttpExchanges exchanges, HttpExchanges.Exchange exchange, HttpResponseStatus status,
      String why) {
    refused.warn("HTTP {} for request id {} from {}: {}", status.code(), exchange.requestId,
        exchanges.connection().remoteText(), MessageText.shorten(why));
  }
}
