package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.internal.PortConnection;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One whole HTTP request's place among its connection's answers, as an {@link HttpCallProtocol} answers it: with one
 * response, or with a streamed answer's parts (its head, its chunks, its last content), each written once the answers
 * before it were. Not API.
 *
 * <p>{@link #answer} and {@link #stream} may be called from any thread; the rest on the IO thread that read the
 * request, unless it says otherwise.
 */
public final class HttpCall {

  /** The call serving a request, as its exchange tells it what happens on the connection (IO thread). */
  public interface Served {

    /** The HTTP stream or connection closed before the whole answer was written. */
    void cancel();

    /** A streamed answer may go on: the channel is writable again, or its parts were written. */
    default void ready() {}
  }

  /** A request's headers as its call sees them: lower-case names, a repeated header's values joined with ", ". */
  public static Map<String, String> headers(HttpRequest request) {
    Map<String, String> headers = new HashMap<>();
    for (Map.Entry<String, String> header : request.headers()) {
      headers.merge(header.getKey().toLowerCase(Locale.ROOT), header.getValue(), (a, b) -> a + ", " + b);
    }
    return headers;
  }

  /** The head of a streamed answer: 200 with {@code contentType}, its body chunked over HTTP/1.1. */
  public static HttpResponse streamedHead(String contentType, boolean http2) {
    HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    head.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    if (!http2) {
      head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    }
    return head;
  }

  private final HttpExchanges exchanges;
  private final HttpExchanges.Exchange exchange;
  private final ServerCalls calls;

  HttpCall(HttpExchanges exchanges, HttpExchanges.Exchange exchange, ServerCalls calls) {
    this.exchanges = exchanges;
    this.exchange = exchange;
    this.calls = calls;
  }

  /** The connection the request arrived on. */
  public PortConnection connection() {
    return exchanges.connection();
  }

  /** The request's number on its connection (HTTP/1.1), or its HTTP/2 stream's id. */
  public int requestId() {
    return exchange.requestId;
  }

  /** Whether the request came on an HTTP/2 stream (its answer's head then carries no transfer coding). */
  public boolean http2() {
    return exchanges.http2();
  }

  /** The channel's allocator (any thread). */
  public ByteBufAllocator alloc() {
    return exchanges.alloc();
  }

  /** Answers the request with {@code response} (any thread; taken, and released if it cannot go). */
  public void answer(FullHttpResponse response) {
    exchanges.answer(exchange, response);
  }

  /** The answer will be streamed ({@link #stream}), not one response: before anything of it is given. */
  public void streamAnswer() {
    exchange.streamed = new StreamedResponse();
  }

  /** Adds one part of the streamed answer (any thread; taken): its head first, its last content last. */
  public void stream(HttpObject part) {
    exchanges.stream(exchange, part);
  }

  /**
   * Whether another message of the streamed answer leaves without waiting (any thread): the channel is writable and
   * less than 64 KiB of the answer wait for the IO thread; when not, {@link Served#ready} says when.
   */
  public boolean isReady() {
    return exchange.streamed.hasRoom() && exchanges.isWritable();
  }

  /**
   * Starts the one server call of {@code method} over {@code stream}, which {@code served} answers, with the
   * caller's {@code timeoutMillis} (its deadline, answered when it passes).
   */
  public void start(ServerCalls.Method method, ServerStream stream, Served served, long timeoutMillis) {
    exchange.call = served;
    ServerStream.Listener call = calls.newCall(method, stream, calls.nanoTime(),
        (int) Math.min(Integer.MAX_VALUE, timeoutMillis), false, true);
    ServerCalls.Dispatch dispatch = exchanges.dispatch();
    dispatch.start(call);
    dispatch.submit();
  }
}
