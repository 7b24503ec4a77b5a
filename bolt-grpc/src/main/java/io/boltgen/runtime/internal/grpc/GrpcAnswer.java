package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.call.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.ReferenceCountUtil;

/**
 * The frames of one gRPC answer, as gRPC orders them: the response headers once, before the first message; each
 * message in a DATA frame; then the trailers with the status, which end the stream. A failure before any message is
 * trailers only: one HEADERS frame with the HTTP status, the content type and the gRPC status. Whatever comes after
 * the end is dropped (a streamed message that lost the race with the deadline).
 *
 * <p>Confined to the stream's IO thread.
 */
final class GrpcAnswer {

  private final boolean json;
  private boolean headersSent;
  private boolean endSent;

  /** The answer of a call whose messages are JSON ({@code application/grpc+json}) or protobuf. */
  GrpcAnswer(boolean json) {
    this.json = json;
  }

  /** Whether the end was written: nothing more will be. */
  boolean ended() {
    return endSent;
  }

  /** Writes one message, after the headers if it is the first; false (and the message freed) after the end. */
  @SuppressWarnings("FutureReturnValueIgnored") // void promises: a failed write closes the stream
  boolean message(Channel ch, ByteBuf message) {
    if (endSent || !ch.isActive()) {
      message.release();
      return false;
    }
    headers(ch);
    ch.writeAndFlush(new DefaultHttp2DataFrame(message, false), ch.voidPromise());
    return true;
  }

  /**
   * Writes the end: the headers unless a message sent them, {@code message} if any, and trailers with {@code code};
   * or, for a failure before any message, the trailers alone.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // void promises: a failed write closes the stream
  void end(Channel ch, ByteBuf message, StatusCode code, String text, String details) {
    if (endSent || !ch.isActive()) {
      ReferenceCountUtil.release(message);
      return;
    }
    endSent = true;
    if (code != StatusCode.OK && !headersSent) {
      ReferenceCountUtil.release(message);
      ch.writeAndFlush(new DefaultHttp2HeadersFrame(trailersOnly(200, json, code, text, details), true),
          ch.voidPromise());
      return;
    }
    headers(ch);
    if (message != null) {
      ch.write(new DefaultHttp2DataFrame(message, false), ch.voidPromise());
    }
    ch.writeAndFlush(new DefaultHttp2HeadersFrame(status(new DefaultHttp2Headers(), code, text, details), true),
        ch.voidPromise());
  }

  @SuppressWarnings("FutureReturnValueIgnored") // void promises: a failed write closes the stream
  private void headers(Channel ch) {
    if (!headersSent) {
      headersSent = true;
      ch.write(new DefaultHttp2HeadersFrame(responseHeaders(200, json)), ch.voidPromise());
    }
  }

  private static Http2Headers responseHeaders(int httpStatus, boolean json) {
    Http2Headers headers = new DefaultHttp2Headers().status(Integer.toString(httpStatus));
    headers.set("content-type", json ? GrpcCalls.CONTENT_TYPE + "+json" : GrpcCalls.CONTENT_TYPE);
    headers.set("grpc-accept-encoding", GrpcCalls.ACCEPTED_ENCODINGS);
    return headers;
  }

  /** The one headers frame of an answer without a message: HTTP status, content type, and the gRPC status. */
  static Http2Headers trailersOnly(int httpStatus, boolean json, StatusCode code, String message, String details) {
    return status(responseHeaders(httpStatus, json), code, message, details);
  }

  /** {@code headers} with the gRPC status: its code, its message and details if any. */
  private static Http2Headers status(Http2Headers headers, StatusCode code, String message, String details) {
    headers.set("grpc-status", Integer.toString(code.number()));
    if (message != null && !message.isEmpty()) {
      headers.set("grpc-message", GrpcStatus.encodeMessage(message));
    }
    if (details != null) {
      headers.set("grpc-status-details-bin", details);
    }
    return headers;
  }
}
