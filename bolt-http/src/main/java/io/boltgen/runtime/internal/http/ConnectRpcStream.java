package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.call.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Map;

/**
 * One Connect unary call as a stream of the one call path: the HTTP request's body is the call's one message
 * (JSON in the proto3 mapping, or binary protobuf, as its content type says), decoded on the call's thread;
 * the answer is one HTTP response, written by {@link HttpExchanges} in request order: the result (200, the
 * request's content type), or a Connect error: a handler's declared exception as {@code failed_precondition}
 * with a detail naming its class, another as {@code internal}, a Bolt status by Connect's table
 * ({@link ConnectRpcErrors#code}), a refused peer as {@code permission_denied}. The HTTP headers are the call's
 * headers (lower-case names). If the client resets the stream or closes the connection first, the call is
 * cancelled ({@link #cancel}) and nothing is answered.
 *
 * <p>Threads: made on the IO thread; decoded, encoded and closed on the call's thread (or the timer's, at the
 * deadline); cancelled on the IO thread.
 */
final class ConnectRpcStream extends ConnectStream {

  private FullHttpResponse response;

  ConnectRpcStream(HttpExchanges exchanges, HttpExchanges.Exchange exchange, MethodDescriptor<?, ?> method,
      Map<String, String> headers, boolean json, long timeoutMillis, ByteBuf body) {
    super(exchanges, exchange, method, headers, json, timeoutMillis, body);
  }

  @Override
  public boolean isReady() {
    return true;
  }

  /** Encodes the result at once: a failure to encode closes the call {@code internal}. */
  @Override
  public void writeMessage(Object message) {
    response = encode(message);
  }

  private FullHttpResponse encode(Object result) {
    ByteBuf out = MessageForms.encodeResponse(method, json, result, exchanges.alloc(), 0);
    FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, out);
    answer.headers().set(HttpHeaderNames.CONTENT_TYPE, json ? ConnectRpcErrors.JSON : ConnectRpcCalls.PROTO);
    answer.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, out.readableBytes());
    return answer;
  }

  @Override
  public void close(CallStatus status, boolean flush) {
    FullHttpResponse answer = response;
    response = null;
    switch (status.kind()) {
      case OK -> exchanges.answer(exchange, answer);
      case CANCELLED -> {
        if (answer != null) {
          answer.release();
        }
      }
      case DEADLINE_EXCEEDED -> exchanges.answer(exchange, ConnectRpcErrors.response(exchanges.alloc(),
          ConnectRpcErrors.DEADLINE_EXCEEDED, method.httpPath() + " did not answer within " + timeoutMillis + " ms"));
      default -> {
        if (answer != null) {
          answer.release();
        }
        exchanges.answer(exchange, failure(status));
      }
    }
  }

  /** A call's failure as a Connect error; a declared exception's has a detail naming its class. */
  private FullHttpResponse failure(CallStatus status) {
    String code = ConnectRpcErrors.code(status);
    if (status.kind() != CallStatus.Kind.FAILED) {
      return ConnectRpcErrors.response(exchanges.alloc(), code, status.message());
    }
    Throwable cause = status.cause();
    String detail = StatusCode.isDeclared(status) ? cause.getClass().getName() : null;
    return ConnectRpcErrors.response(exchanges.alloc(), ConnectRpcErrors.httpStatus(code), code, cause.getMessage(),
        detail, cause.getMessage());
  }
}
