package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.internal.PortConnection;
import io.boltgen.runtime.internal.http.MessageForms;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One gRPC call on one HTTP/2 stream, as a stream of the one server call: it reads the request's headers
 * ({@link GrpcCalls#open}), its length-prefixed message ({@link GrpcMessages}), and its end, then starts the call;
 * it writes the answer as gRPC does: headers, the message (or, for a server-streaming method, each message as it
 * comes), and trailers with {@code grpc-status}; a failure before any message, and every refusal before the call,
 * as trailers only. A unary or server-streaming method takes exactly one request message. A streamed answer is
 * ready ({@link #isReady}) while the stream is writable, that is while the caller's HTTP/2 flow-control window
 * has room: a caller that reads slowly slows the call's publisher down.
 *
 * <p>Threads: read on the stream's IO thread; the call decodes, encodes and closes on its own thread (or the
 * timer's, at the deadline), and each streamed message and the end are written by tasks on the IO thread, in
 * the order they were given; what comes after the end is dropped.
 */
final class GrpcServerStream extends ChannelInboundHandlerAdapter
    implements ServerStream, ServerStream.Message, GrpcHealth.Watcher {

  private final GrpcCalls protocol;
  private final PortConnection connection;
  private final RateLimitedLog refusals;
  private Http2StreamChannel channel;
  private int streamId;
  private GrpcCalls.Opening opening;
  private Map<String, String> headers = Map.of();
  private long arrivalNanos;
  private GrpcMessages messages;
  // the request's arrival deadline, until it has arrived whole (IO thread)
  private ScheduledFuture<?> arrival;
  // whether this side has ended the stream (a refusal), so that the rest of the request is dropped (IO thread)
  private boolean ended;
  private Listener call;
  private ByteBuf request;
  // whether the request was told to the call (IO thread)
  private boolean told;
  private ByteBuf response;
  private volatile boolean cancelled;
  // the answer's frames as they went out (IO thread; made with the stream's headers)
  private GrpcAnswer answer;
  // whether the stream is a health watch, and when its grpc-timeout passes (IO thread)
  private boolean watching;
  private ScheduledFuture<?> watchDeadline;

  GrpcServerStream(GrpcCalls protocol, PortConnection connection) {
    this.protocol = protocol;
    this.connection = connection;
    this.refusals = protocol.refusals();
  }

  // ------------------------------------------------------------------ reading the request (IO thread)

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (ended || call != null) {
        return; // refused or started: the rest of the request is not read
      }
      if (msg instanceof Http2HeadersFrame frame) {
        if (opening == null) {
          onHeaders(ctx, frame);
        } else if (frame.isEndStream()) {
          onEnd(); // the request's trailers: gRPC defines none, so only their end counts
        }
      } else if (msg instanceof Http2DataFrame frame && opening != null) {
        GrpcMessages.Refusal refusal = messages.add(frame.content());
        if (refusal != null) {
          refuse(refusal.code(), refusal.why());
        } else if (frame.isEndStream()) {
          onEnd();
        }
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
    channel = (Http2StreamChannel) ctx.channel();
    streamId = channel.stream().id();
    arrivalNanos = protocol.calls().nanoTime();
    opening = protocol.open(frame.headers());
    if (opening.refusal() != null) {
      refuse(opening.refusal(), opening.why());
      return;
    }
    headers = headers(frame.headers());
    answer = new GrpcAnswer(channel, opening.json(), this::caughtUp);
    messages = new GrpcMessages(ctx.alloc(), protocol.maxMessageBytes(), opening.gzip());
    if (frame.isEndStream()) {
      onEnd();
    } else if (protocol.requestTimeoutMillis() > 0) {
      arrival = ctx.executor().schedule(this::requestTooSlow, protocol.requestTimeoutMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The request did not arrive whole within the server's frame timeout (timer on the IO thread): refused, so that a
   * client sending slowly holds neither the stream nor the bytes it sent for longer.
   */
  private void requestTooSlow() {
    try {
      if (!ended && call == null && channel.isActive()) {
        refuse(StatusCode.RESOURCE_EXHAUSTED, "the request did not arrive whole within the server's frame timeout of "
            + protocol.requestTimeoutMillis() + " ms");
      }
    } catch (Throwable e) {
      refusals.warn("gRPC stream {} from {} could not be refused, closing it: {}", streamId, connection.remoteText(),
          MessageText.shorten(e.toString()));
      Channels.close(channel);
    }
  }

  private void stopArrivalTimer() {
    if (arrival != null) {
      arrival.cancel(false);
      arrival = null;
    }
  }

  /** The caller sent its last: the one message is taken and the call started, or the request refused. */
  private void onEnd() {
    stopArrivalTimer();
    GrpcMessages.Refusal refusal = messages.end();
    if (refusal != null) {
      refuse(refusal.code(), refusal.why());
      return;
    }
    request = messages.take();
    if (request == null) {
      refuse(StatusCode.INTERNAL, "the request ended without a message: "
          + (opening.health() != null ? opening.health() : opening.method().descriptor().httpPath()) + " takes one");
      return;
    }
    if (opening.health() != null) {
      health();
      return;
    }
    ServerCalls calls = protocol.calls();
    ServerStream.Listener started = calls.newCall(opening.method(), this, arrivalNanos, opening.timeoutMillis(),
        false, true);
    ServerCalls.Dispatch dispatch = calls.newDispatch();
    dispatch.start(started);
    dispatch.submit();
  }

  /** The IO thread caught up with a streamed answer's messages: it goes on, if the stream is writable (IO thread). */
  private void caughtUp() {
    if (call != null) {
      call.onReady();
    }
  }

  /** The caller's flow-control window has room again: a streamed answer goes on. */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (call != null && ctx.channel().isWritable()) {
      call.onReady();
    }
    ctx.fireChannelWritabilityChanged();
  }

  /**
   * Answers a health check with its one message, or starts a health watch (IO thread): its first message now, then
   * {@code NOT_SERVING} when the server begins to close ({@link #notServing}), until the caller goes away or its
   * {@code grpc-timeout} passes.
   */
  private void health() {
    ByteBuf check = request;
    request = null;
    boolean watch = opening.health().equals(GrpcHealth.WATCH);
    GrpcHealth.Answer status = protocol.health().check(check, channel.alloc(), watch ? this : null);
    if (!watch || status.failure() != null) {
      answer.end(status.message(), status.failure() == null ? StatusCode.OK : status.failure(), status.why(), null);
      return;
    }
    watching = true;
    answer.message(status.message());
    if (opening.timeoutMillis() > 0) {
      watchDeadline = channel.eventLoop().schedule(this::watchTimedOut, opening.timeoutMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** The server began to close (its closing thread): a watch is told {@code NOT_SERVING}. */
  @Override
  public void notServing() {
    answer.message(GrpcHealth.status(channel.alloc(), GrpcHealth.NOT_SERVING));
  }

  /** A watch's {@code grpc-timeout} passed (IO thread): it ends {@code DEADLINE_EXCEEDED}. */
  private void watchTimedOut() {
    try {
      protocol.health().unwatch(this);
      answer.end(null, StatusCode.DEADLINE_EXCEEDED, GrpcHealth.WATCH + " did not end its stream within "
          + opening.timeoutMillis() + " ms", null);
    } catch (Throwable e) {
      refusals.warn("gRPC health watch {} from {} could not be ended, closing it: {}", streamId,
          connection.remoteText(), MessageText.shorten(e.toString()));
      Channels.close(channel);
    }
  }

  /** The caller went away: a started call is cancelled, a watch forgotten, what is still held of the request freed. */
  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    stopArrivalTimer();
    if (watching) {
      protocol.health().unwatch(this);
      if (watchDeadline != null) {
        watchDeadline.cancel(false);
      }
    }
    if (messages != null) {
      messages.release();
    }
    if (call != null) {
      cancelled = true;
      call.onCancel();
    }
    ctx.fireChannelInactive();
  }

  @Override
  @SuppressWarnings("FutureReturnValueIgnored") // closing the stream is all there is left to do
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    refusals.warn("gRPC stream {} from {} failed, closing it: {}", streamId, connection.remoteText(),
        MessageText.shorten(cause.toString()));
    ctx.close();
  }

  /** Answers a refusal before any call, as trailers only, and resets the stream if the caller still sends. */
  @SuppressWarnings("FutureReturnValueIgnored") // void promises: a failed write closes the stream
  private void refuse(StatusCode code, String why) {
    ended = true;
    stopArrivalTimer();
    if (messages != null) {
      messages.release();
    }
    refusals.warn("gRPC {} for request id {} from {}: {}", code, streamId, connection.remoteText(),
        MessageText.shorten(why));
    Http2Headers trailers = GrpcAnswer.trailersOnly(opening != null && opening.httpStatus() != 200
        ? opening.httpStatus() : 200, opening != null && opening.json(), code, why, null);
    boolean callerDone = !channel.isActive() || !channel.stream().state().remoteSideOpen();
    channel.write(new DefaultHttp2HeadersFrame(trailers, true), channel.voidPromise());
    if (!callerDone) {
      channel.write(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR), channel.voidPromise());
    }
    channel.flush();
  }

  private static Map<String, String> headers(Http2Headers http2) {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<CharSequence, CharSequence> header : http2) {
      String name = header.getKey().toString();
      if (!name.startsWith(":")) {
        out.merge(name, header.getValue().toString(), (a, b) -> a + ", " + b);
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ the request: the call's one message

  @Override
  public boolean decodeOnArrival() {
    return false;
  }

  @Override
  public Object decode() {
    ByteBuf b = request;
    request = null;
    return MessageForms.decodeRequest(opening.method().descriptor(), opening.json(), b);
  }

  @Override
  public void release() {
    ByteBuf b = request;
    request = null;
    if (b != null) {
      b.release();
    }
  }

  // ------------------------------------------------------------------ ServerStream

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public String remoteText() {
    return connection.remoteText();
  }

  @Override
  public int streamId() {
    return streamId;
  }

  @Override
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public void start(Listener listener) {
    this.call = listener;
  }

  @Override
  public void request(int count) {
    if (count > 0 && !told) {
      told = true;
      call.onMessage(this);
      call.onHalfClose();
    }
  }

  /**
   * Ready while the stream is writable and what was handed to the IO thread and not yet written is under
   * {@value GrpcAnswer#CAUGHT_UP_BYTES} bytes: a publisher faster than the IO thread is held back as a slow caller is.
   */
  @Override
  public boolean isReady() {
    return answer.hasRoom() && channel.isWritable();
  }

  @Override
  public boolean carriesStreams() {
    return true;
  }

  /**
   * Encodes the message at once, length-prefixed (a failure to encode closes the call {@code internal}): a unary
   * answer is kept for the end, a streamed one written now.
   */
  @Override
  public void writeMessage(Object message) {
    ByteBuf encoded = encode(message);
    if (!streams()) {
      response = encoded;
      return;
    }
    answer.message(encoded);
  }

  /** Whether the call's answer is a stream of messages, each written as it comes. */
  private boolean streams() {
    return opening.method().descriptor().type() == MethodType.SERVER_STREAMING;
  }

  private ByteBuf encode(Object result) {
    ByteBuf out = MessageForms.encodeResponse(opening.method().descriptor(), opening.json(), result, channel.alloc(),
        GrpcMessages.PREFIX_BYTES);
    out.setInt(1, out.readableBytes() - GrpcMessages.PREFIX_BYTES); // flag 0: not compressed
    return out;
  }

  @Override
  public void close(CallStatus status, boolean flush) {
    ByteBuf kept = response;
    response = null;
    if (status.kind() == CallStatus.Kind.CANCELLED) {
      ReferenceCountUtil.release(kept);
      return; // the caller went away: nothing to write
    }
    if (!status.isOk()) {
      ReferenceCountUtil.release(kept);
      kept = null;
    }
    GrpcStatus.End end = GrpcStatus.End.of(status, opening.method().descriptor(), opening.timeoutMillis());
    answer.end(kept, end.code(), end.text(), end.details());
  }

  @Override
  public void flush() {
    // each answer is written and flushed by its own task
  }

  @Override
  public boolean isOpen() {
    return !cancelled && channel.isActive();
  }
}
