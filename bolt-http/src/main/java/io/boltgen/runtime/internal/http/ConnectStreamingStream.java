package io.boltgen.runtime.internal.http;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.LoggerFactory;

/**
 * One call in Connect's streaming protocol as a stream of the one call path: a server-streaming call's request is one
 * enveloped message; a client-streaming or bidirectional call's is its body's envelopes, told as the call asks for
 * them ({@link StreamedRequest}). The answer is {@code 200} with the request's content type
 * ({@code application/connect+proto} or {@code +json}), then each message in an envelope of its own (flags 0, then
 * its length) as the call gives it, then the end of the stream (flags 2): {@code {}}, or {@code {"error": …}} with the
 * code, message and detail of a unary error. A body that breaks the envelope rules ends the stream with its error
 * ({@code invalid_argument}, or {@code resource_exhausted} for a message over the limit) and cancels the call. Over
 * HTTP/1.1 the body is chunked; over HTTP/2 each part is a DATA frame. A stream is ready while the channel is writable
 * (over HTTP/2: the caller's flow-control window has room) and under {@value StreamedResponse#ROOM_BYTES} bytes wait
 * for the IO thread.
 *
 * <p>Threads: made on the IO thread; decoded, encoded and closed on the call's thread (or the timer's, at the
 * deadline); cancelled and told it may go on on the IO thread.
 */
final class ConnectStreamingStream extends ConnectStream {

  /** The content type of Connect's streams of protobuf messages. */
  static final String PROTO = "application/connect+proto";
  /** The content type of Connect's streams of JSON messages. */
  static final String JSON = "application/connect+json";

  private static final RateLimitedLog refused =
      RateLimitedLog.of(LoggerFactory.getLogger(ConnectStreamingStream.class));

  private final AtomicBoolean headSent = new AtomicBoolean();
  // the answer's parts are given in order under it; nothing is given after the end
  private final ReentrantLock order = new ReentrantLock();
  @GuardedBy("order")
  private boolean ended;

  /**
   * A call of {@code method} answered as a stream, whose one request message is {@code message} (taken), or, if it is
   * null, whose body streams its messages, read from the body's parts by {@code messages}.
   */
  ConnectStreamingStream(HttpExchanges exchanges, HttpExchanges.Exchange exchange, MethodDescriptor<?, ?> method,
      Map<String, String> headers, boolean json, long timeoutMillis, ByteBuf message, LengthPrefixedMessages messages) {
    super(exchanges, exchange, method, headers, json, timeoutMillis, message);
    exchange.streamed = new StreamedResponse();
    if (message == null) {
      body = new StreamedRequest(exchanges.channel(), exchanges.connection(), exchanges.http2(), messages, method, json,
          exchange.requestId, this::refuseBody);
    }
  }

  /** The streamed body of the request, or null if it was one message. */
  StreamedRequest body() {
    return body;
  }

  /**
   * The request's body broke the envelope rules (IO thread): the stream ends with the error, after what the call
   * answered so far, and the call is cancelled; its handler is told so, and whatever it answers later is dropped.
   */
  private void refuseBody(LengthPrefixedMessages.Refusal refusal) {
    String code = refusal.code() == StatusCode.INTERNAL ? ConnectRpcErrors.INVALID_ARGUMENT
        : refusal.code().connectName();
    refused.warn("Connect stream {} for request id {} from {}: {}", code, exchange.requestId,
        exchanges.connection().remoteText(), MessageText.shorten(refusal.why()));
    end(code, refusal.why(), null);
    cancel();
  }

  /**
   * Answers {@code exchange} with a stream that only ends, with {@code code} and {@code why}: how a Connect stream
   * refuses its request (its HTTP status stays 200).
   */
  static void refuse(HttpExchanges exchanges, HttpExchanges.Exchange exchange, boolean json, String code,
      String why) {
    exchange.streamed = new StreamedResponse();
    exchanges.stream(exchange, head(json, exchanges.http2()));
    exchanges.stream(exchange, new DefaultHttpContent(ConnectRpcErrors.endOfStream(exchanges.alloc(), code, why,
        null, null)));
    exchanges.stream(exchange, new DefaultLastHttpContent());
  }

  private static HttpResponse head(boolean json, boolean http2) {
    return HttpCall.streamedHead(json ? JSON : PROTO, http2);
  }

  @Override
  public void ready() {
    call.onReady();
  }

  @Override
  public boolean isReady() {
    return exchange.streamed.hasRoom() && exchanges.isWritable();
  }

  @Override
  public boolean carriesStreams() {
    return true;
  }

  /** Encodes the message into its envelope at once (a failure to encode ends the call {@code internal}). */
  @Override
  public void writeMessage(Object result) {
    ByteBuf out = MessageForms.encodeResponse(method, json, result, exchanges.alloc(),
        ConnectRpcErrors.ENVELOPE_PREFIX);
    out.setInt(1, out.readableBytes() - ConnectRpcErrors.ENVELOPE_PREFIX); // flags 0: a message, not compressed
    order.lock();
    try {
      if (ended) {
        out.release(); // the call ended meanwhile (its deadline, on the timer's thread): dropped
        return;
      }
      sendHead();
      exchanges.stream(exchange, new DefaultHttpContent(out));
    } finally {
      order.unlock();
    }
  }

  private void sendHead() {
    if (headSent.compareAndSet(false, true)) {
      exchanges.stream(exchange, head(json, exchanges.http2()));
    }
  }

  @Override
  public void close(CallStatus status, boolean flush) {
    if (status.kind() == CallStatus.Kind.CANCELLED) {
      return; // the caller went away: nothing to write, and the exchange is gone
    }
    String code = null;
    String text = null;
    String detail = null;
    if (!status.isOk()) {
      code = ConnectRpcErrors.code(status);
      text = status.kind() == CallStatus.Kind.DEADLINE_EXCEEDED
          ? method.httpPath() + " did not end its stream within " + timeoutMillis + " ms"
          : status.kind() == CallStatus.Kind.FAILED ? status.cause().getMessage() : status.message();
      detail = StatusCode.isDeclared(status) ? status.cause().getClass().getName() : null;
    }
    end(code, text, detail);
  }

  /** Ends the stream with {@code code} (null: it ended well), in order after its messages; nothing goes after it. */
  private void end(String code, String text, String detail) {
    ByteBuf end = ConnectRpcErrors.endOfStream(exchanges.alloc(), code, text, detail, detail == null ? null : text);
    order.lock();
    try {
      if (ended) {
        end.release();
        return;
      }
      ended = true;
      sendHead();
      exchanges.stream(exchange, new DefaultHttpContent(end));
      exchanges.stream(exchange, new DefaultLastHttpContent());
    } finally {
      order.unlock();
    }
  }
}
