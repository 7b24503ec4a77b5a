package io.boltgen.runtime.internal.grpc;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.internal.http.HttpCall;
import io.boltgen.runtime.internal.http.LengthPrefixedMessages;
import io.boltgen.runtime.internal.http.MessageForms;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.base64.Base64;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One gRPC-Web call as a stream of the one call path: its one request message (read by {@link GrpcWebCalls}) is
 * the call's message; the answer is {@code 200} with the request's form ({@code application/grpc-web+proto}, or
 * {@code application/grpc-web-text+proto} with each part in base64), each message length-prefixed as gRPC's, then
 * the trailers in the body: a frame whose flag is {@code 0x80}, holding {@code grpc-status}, {@code grpc-message}
 * and a declared exception's {@code grpc-status-details-bin} as HTTP header lines. A server-streaming method's
 * messages go out as they come, while the answer is ready ({@link HttpCall#isReady}).
 *
 * <p>Threads: made on the IO thread; decoded, encoded and closed on the call's thread (or the timer's, at the
 * deadline); cancelled and told it may go on on the IO thread.
 */
final class GrpcWebStream implements ServerStream, HttpCall.Served {

  /** The flag of gRPC-Web's trailers frame. */
  static final int TRAILERS = 0x80;

  private final HttpCall http;
  private final MethodDescriptor<?, ?> method;
  private final Map<String, String> headers;
  private final boolean text;
  private final long timeoutMillis;
  private final AtomicBoolean headSent = new AtomicBoolean();
  // the answer's parts are given in order under it; nothing is given after the end
  private final ReentrantLock order = new ReentrantLock();
  @GuardedBy("order")
  private boolean ended;
  private final ServerStream.Message request; // null for a refused call
  private Listener call;
  private boolean told;
  private volatile boolean cancelled;

  /** A call of {@code method} (null for a refused one) whose one request message is {@code message} (taken). */
  GrpcWebStream(HttpCall http, MethodDescriptor<?, ?> method, Map<String, String> headers, boolean text,
      long timeoutMillis, ByteBuf message) {
    this.http = http;
    this.method = method;
    this.headers = headers;
    this.text = text;
    this.timeoutMillis = timeoutMillis;
    this.request = message == null ? null : new LengthPrefixedMessages.Message(message, method, false);
    http.streamAnswer();
  }

  /** Answers a request refused before its call: the trailers alone, with {@code code} and {@code why}. */
  void refuse(StatusCode code, String why) {
    end(code, why, null);
  }

  @Override
  public void start(Listener call) {
    this.call = call;
  }

  @Override
  public void cancel() {
    cancelled = true;
    call.onCancel();
  }

  @Override
  public void ready() {
    call.onReady();
  }

  // ------------------------------------------------------------------ ServerStream

  @Override
  public Connection connection() {
    return http.connection();
  }

  @Override
  public String remoteText() {
    return http.connection().remoteText();
  }

  @Override
  public int streamId() {
    return http.requestId();
  }

  @Override
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public void request(int count) {
    if (count > 0 && !told) {
      told = true;
      call.onMessage(request);
      call.onHalfClose();
    }
  }

  @Override
  public boolean isReady() {
    return http.isReady();
  }

  @Override
  public boolean carriesStreams() {
    return true;
  }

  /** Encodes the message at once, length-prefixed (a failure to encode ends the call {@code internal}). */
  @Override
  public void writeMessage(Object result) {
    ByteBuf out = MessageForms.encodeResponse(method, false, result, http.alloc(), LengthPrefixedMessages.PREFIX_BYTES);
    out.setInt(1, out.readableBytes() - LengthPrefixedMessages.PREFIX_BYTES); // flag 0: not compressed
    order.lock();
    try {
      if (ended) {
        out.release(); // the call ended meanwhile (its deadline, on the timer's thread): dropped
        return;
      }
      sendHead();
      part(out);
    } finally {
      order.unlock();
    }
  }

  @Override
  public void close(CallStatus status, boolean flush) {
    if (status.kind() == CallStatus.Kind.CANCELLED) {
      return; // the caller went away: nothing to write, and the exchange is gone
    }
    GrpcStatus.End end = GrpcStatus.End.of(status, method, timeoutMillis);
    end(end.code(), end.text(), end.details());
  }

  private void sendHead() {
    if (headSent.compareAndSet(false, true)) {
      http.stream(HttpCall.streamedHead(text ? "application/grpc-web-text+proto" : "application/grpc-web+proto",
          http.http2()));
    }
  }

  /** The trailers frame, then the answer's end; once. */
  private void end(StatusCode code, String why, String details) {
    order.lock();
    try {
      if (!ended) {
        ended = true;
        sendHead();
        writeEnd(code, why, details);
      }
    } finally {
      order.unlock();
    }
  }

  @GuardedBy("order")
  private void writeEnd(StatusCode code, String why, String details) {
    StringBuilder trailers = new StringBuilder("grpc-status:").append(code.number()).append("\r\n");
    if (why != null && !why.isEmpty()) {
      trailers.append("grpc-message:").append(GrpcStatus.encodeMessage(why)).append("\r\n");
    }
    if (details != null) {
      trailers.append("grpc-status-details-bin:").append(details).append("\r\n");
    }
    byte[] bytes = trailers.toString().getBytes(StandardCharsets.US_ASCII);
    ByteBuf frame = http.alloc().buffer(LengthPrefixedMessages.PREFIX_BYTES + bytes.length);
    frame.writeByte(TRAILERS).writeInt(bytes.length).writeBytes(bytes);
    part(frame);
    http.stream(new DefaultLastHttpContent());
  }

  /** One part of the body (taken), in base64 for the text form: each part padded on its own, as gRPC-Web allows. */
  private void part(ByteBuf bytes) {
    if (!text) {
      http.stream(new DefaultHttpContent(bytes));
      return;
    }
    try {
      http.stream(new DefaultHttpContent(Base64.encode(bytes, false)));
    } finally {
      bytes.release();
    }
  }

  @Override
  public void flush() {
    // each part is written by the connection's exchanges, in order
  }

  @Override
  public boolean isOpen() {
    return !cancelled && http.connection().isActive();
  }
}
