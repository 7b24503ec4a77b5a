package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.internal.http.HttpCall;
import io.boltgen.runtime.internal.http.HttpCallProtocol;
import io.boltgen.runtime.internal.http.LengthPrefixedMessages;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.base64.Base64;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * gRPC-Web on the Bolt port, over HTTP/1.1 and HTTP/2 alike: a request whose content type is
 * {@code application/grpc-web} or {@code application/grpc-web+proto} (binary), or {@code application/grpc-web-text}
 * or {@code application/grpc-web-text+proto} (the body in base64), {@code POST} to a method's route, its one
 * length-prefixed message as gRPC's (limit, flag, gzip with {@code grpc-encoding}), and {@code grpc-timeout}. It
 * becomes the one server call over a {@link GrpcWebStream}; every refusal before it is answered as the call's end
 * would be: 200 and a trailers frame with its status.
 *
 * <p>Thread-safe: immutable; runs on IO threads.
 */
final class GrpcWebCalls implements HttpCallProtocol {

  private static final String CONTENT_TYPE = "application/grpc-web";
  private static final String TEXT = "application/grpc-web-text";

  private final Map<String, ServerCalls.Method> routes;
  private final int maxMessageBytes;
  private final RateLimitedLog refusals = RateLimitedLog.of(LoggerFactory.getLogger(GrpcWebCalls.class));

  GrpcWebCalls(ServerCalls calls, int maxMessageBytes) {
    this.routes = new HashMap<>(calls.httpRoutes());
    this.maxMessageBytes = maxMessageBytes;
  }

  @Override
  public boolean serves(HttpHeaders headers) {
    return text(headers.get(HttpHeaderNames.CONTENT_TYPE)) != null;
  }

  /** {@code true} for gRPC-Web's text form, {@code false} for its binary one, {@code null} for anything else. */
  static Boolean text(String contentType) {
    if (contentType == null) {
      return null;
    }
    String type = contentType.trim().toLowerCase(Locale.ROOT);
    if (type.equals(CONTENT_TYPE) || type.equals(CONTENT_TYPE + "+proto")) {
      return Boolean.FALSE;
    }
    return (type.equals(TEXT) || type.equals(TEXT + "+proto")) ? Boolean.TRUE : null;
  }

  @Override
  public void handle(HttpCall call, FullHttpRequest request) {
    boolean text = text(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
    String uri = request.uri();
    String path = uri.indexOf('?') < 0 ? uri : uri.substring(0, uri.indexOf('?'));
    ServerCalls.Method method = routes.get(path);
    String encoding = request.headers().get("grpc-encoding");
    boolean gzip = "gzip".equalsIgnoreCase(encoding);
    String timeout = request.headers().get("grpc-timeout");
    long timeoutMillis = timeout == null ? (method == null ? 0 : method.descriptor().timeoutMillis())
        : GrpcCalls.parseTimeout(timeout);
    StatusCode code = StatusCode.INTERNAL;
    String why = null;
    if (!HttpMethod.POST.equals(request.method())) {
      why = "HTTP method " + MessageText.shorten(request.method().name()) + " is not supported: gRPC-Web calls are POST";
    } else if (method == null) {
      code = StatusCode.UNIMPLEMENTED;
      why = GrpcCalls.methodNotFound(path);
    } else if (method.descriptor().type() != MethodType.REQUEST_RESPONSE
        && method.descriptor().type() != MethodType.SERVER_STREAMING) {
      code = StatusCode.UNIMPLEMENTED;
      why = method.descriptor().httpPath() + " is " + method.descriptor().type() + ": gRPC-Web carries unary and"
          + " server-streaming methods";
    } else if (encoding != null && !gzip && !"identity".equalsIgnoreCase(encoding)) {
      code = StatusCode.UNIMPLEMENTED;
      why = GrpcCalls.unsupportedEncoding(encoding);
    } else if (timeoutMillis < 0) {
      why = GrpcCalls.badTimeout(timeout);
    }
    ByteBuf message = null;
    if (why == null) {
      LengthPrefixedMessages messages = new LengthPrefixedMessages(call.alloc(), maxMessageBytes, gzip, true,
          "grpc-encoding");
      ByteBuf body = request.content();
      ByteBuf decoded = null;
      try {
        LengthPrefixedMessages.Refusal refusal = null;
        if (text) {
          try {
            decoded = Base64.decode(body);
            body = decoded;
          } catch (IllegalArgumentException e) {
            refusal = new LengthPrefixedMessages.Refusal(StatusCode.INTERNAL, "the body of a " + TEXT
                + " request is not base64: " + MessageText.shorten(e.getMessage()));
          }
        }
        if (refusal == null) {
          refusal = messages.add(body);
        }
        if (refusal == null) {
          refusal = messages.end();
        }
        if (refusal != null) {
          code = refusal.code();
          why = refusal.why();
        } else {
          message = messages.take();
          if (message == null) {
            why = "the request ended without a message: " + method.descriptor().httpPath() + " takes one";
          }
        }
      } finally {
        if (decoded != null) {
          decoded.release();
        }
        if (why != null) {
          messages.release();
        }
      }
    }
    GrpcWebStream stream = new GrpcWebStream(call, method == null ? null : method.descriptor(), HttpCall.headers(request),
        text, timeoutMillis, message);
    if (why != null) {
      refusals.warn("gRPC-Web {} for request id {} from {}: {}", code, call.requestId(), call.connection().remoteText(),
          MessageText.shorten(why));
      stream.refuse(code, why);
      return;
    }
    call.start(method, stream, stream, timeoutMillis);
  }
}
