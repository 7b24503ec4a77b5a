package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.internal.PortConnection;
import io.boltgen.runtime.internal.http.LengthPrefixedMessages;
import io.boltgen.runtime.internal.http.MessageForms;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One gRPC call on one HTTP/2 stream, as a stream of the one server call: it reads the request's headers
 * ({@link GrpcCalls#open}), its length-prefixed message ({@link LengthPrefixedMessages}), and its end, then starts the
 * call;
 * it writes the answer as gRPC does: headers, the message (or, for a server-streaming method, each message as it
 * comes), and trailers with {@code grpc-status}; a failure before any message, and every refusal before the call,
 * as trailers only. A unary or server-streaming method takes exactly one request message. A client-streaming or
 * bidirectional call starts as soon as its headers arrived, and each of the caller's messages is told to it as its
 * handler asks; while a message waits that it did not ask for, the stream is not read, so that the caller's
 * flow-control window closes and the caller waits. A streamed answer is ready ({@link #isReady}) while the stream
 * is writable, that is while the caller's HTTP/2 flow-control window has room: a caller that reads slowly slows the
 * call's publisher down.
 *
 * <p>Threads: read on the stream's IO thread; the call decodes, encodes and closes on its own thread (or the
 * timer's, at the deadline), and each streamed message and the end are written by tasks on the IO thread, in
 * the order they were given; what comes after the end is dropped.
 */
final class GrpcServerStream extends ChannelInboundHandlerAdapter
    implements ServerStream {

  private final GrpcCalls protocol;
  private final PortConnection connection;
  private final RateLimitedLog refusals;
  private Http2StreamChannel channel;
  private int streamId;
  private GrpcCalls.Opening opening;
  private Map<String, String> headers = Map.of();
  private long arrivalNanos;
  private LengthPrefixedMessages messages;
  // the request's arrival deadline, until it has arrived whole (IO thread)
  private ScheduledFuture<?> arrival;
  // whether this side has ended the stream (a refusal), so that the rest of the request is dropped (IO thread)
  private boolean ended;
  private Listener call;
  private ByteBuf request;
  // whether the request was told to the call (IO thread)
  private boolean told;
  // a streamed request: the messages the call asked for and was not told, whether the caller sent its last, and
  // whether the call was told so (IO thread)
  private int credit;
  private boolean halfClosed;
  private boolean toldHalfClose;
  private ByteBuf response;
  private volatile boolean cancelled;
  // the answer's frames as they went out (IO thread; made with the stream's headers)
  private GrpcAnswer answer;
  // the answer of a health check or watch (IO thread)
  private GrpcHealthWatch health;
  // a stream of requests' call is cancelled when its connection closes (the connection's IO thread)
  private final ChannelFutureListener connectionClosed = closed -> {
    if (call != null && !cancelled) {
      cancelled = true;
      stopReading();
      call.onCancel();
    }
  };

  GrpcServerStream(GrpcCalls protocol, PortConnection connection) {
    this.protocol = protocol;
    this.connection = connection;
    this.refusals = protocol.refusals();
  }

  // ------------------------------------------------------------------ reading the request (IO thread)

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (ended || (call != null && !streamsRequests())) {
        return; // refused, or a request of one message started: the rest of the request is not read
      }
      if (msg instanceof Http2HeadersFrame frame) {
        if (opening == null) {
          onHeaders(ctx, frame);
        } else if (frame.isEndStream()) {
          onEnd(); // the request's trailers: gRPC defines none, so only their end counts
        }
      } else if (msg instanceof Http2DataFrame frame && opening != null) {
        LengthPrefixedMessages.Refusal refusal = messages.add(frame.content());
        if (refusal != null) {
          refuse(refusal.code(), refusal.why());
        } else if (frame.isEndStream()) {
          onEnd();
        } else if (call != null) {
          tell(); // a streamed request's messages, as they complete
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
    headers = GrpcCalls.headers(frame.headers());
    answer = new GrpcAnswer(channel, opening.json(), this::caughtUp);
    messages = new LengthPrefixedMessages(ctx.alloc(), protocol.maxMessageBytes(), opening.gzip(), !streamsRequests(),
        "grpc-encoding");
    if (streamsRequests()) {
      startCall(); // before any message: its handler reads them as they come, within the call's deadline
      if (frame.isEndStream()) {
        onEnd();
      }
    } else if (frame.isEndStream()) {
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

  /**
   * The caller sent its last: the one message is taken and the call started, or the request refused; a streamed
   * request's call is told so after its last message.
   */
  private void onEnd() {
    stopArrivalTimer();
    LengthPrefixedMessages.Refusal refusal = messages.end();
    if (refusal != null) {
      refuse(refusal.code(), refusal.why());
      return;
    }
    if (call != null) {
      halfClosed = true;
      tell();
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
    startCall();
  }

  private void startCall() {
    if (streamsRequests()) {
      // a stream not read while its handler waits is not closed by Netty when its connection goes: this side is
      channel.parent().closeFuture().addListener(connectionClosed);
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

  /** Answers a health check or watch with its request, taken over (IO thread). */
  private void health() {
    ByteBuf check = request;
    request = null;
    health = new GrpcHealthWatch(protocol, channel, answer, streamId + " from " + connection.remoteText());
    health.answer(opening.health(), check, opening.timeoutMillis());
  }

  /**
   * The caller reset the stream (IO thread). Netty tells a reset at once, not behind the DATA frames a stream that is
   * not read holds back: a call whose handler reads slowly is cancelled now, and the stream read to its end, so that
   * it closes and frees what it held.
   */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof Http2ResetFrame && call != null && streamsRequests()) {
      cancelled = true;
      stopReading();
      call.onCancel();
    }
    ctx.fireUserEventTriggered(evt);
  }

  /**
   * A streamed request is read no further (IO thread): what it holds is freed, later frames are dropped, and reading
   * is on again, so that the stream reads to its end and closes.
   */
  private void stopReading() {
    try {
      ended = true;
      messages.release();
      if (!channel.config().isAutoRead()) {
        channel.config().setAutoRead(true);
      }
    } catch (Throwable e) {
      refusals.warn("gRPC stream {} from {} could not stop reading, closing it: {}", streamId,
          connection.remoteText(), MessageText.shorten(e.toString()));
      Channels.close(channel);
    }
  }

  /** The caller went away: a started call is cancelled, a watch forgotten, what is still held of the request freed. */
  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    stopArrivalTimer();
    if (channel != null) {
      channel.parent().closeFuture().removeListener(connectionClosed);
    }
    if (health != null) {
      health.stop();
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

  /**
   * Answers a refusal as trailers only, and resets the stream if the caller still sends. A streamed request's
   * call, started already, ends with the refusal: its answer's end, then the call cancelled, its handler told.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // void promises: a failed write closes the stream
  private void refuse(StatusCode code, String why) {
    ended = true;
    stopArrivalTimer();
    if (messages != null) {
      messages.release();
    }
    refusals.warn("gRPC {} for request id {} from {}: {}", code, streamId, connection.remoteText(),
        MessageText.shorten(why));
    if (call != null) {
      answer.end(null, code, why, null); // in order after what it answered; what it answers later is dropped
      cancelled = true;
      stopReading();
      call.onCancel();
      return;
    }
    Http2Headers trailers = GrpcAnswer.trailersOnly(opening != null && opening.httpStatus() != 200
        ? opening.httpStatus() : 200, opening != null && opening.json(), code, why, null);
    boolean callerDone = !channel.isActive() || !channel.stream().state().remoteSideOpen();
    channel.write(new DefaultHttp2HeadersFrame(trailers, true), channel.voidPromise());
    if (!callerDone) {
      channel.write(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR), channel.voidPromise());
    }
    channel.flush();
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
    if (streamsRequests()) {
      if (channel.eventLoop().inEventLoop()) {
        credit += count;
        tell();
      } else {
        try {
          channel.eventLoop().execute(() -> askedElsewhere(count)); // asked from the call's executor
        } catch (RejectedExecutionException e) {
          // the server is shutting down: the stream closes with it, and its call is cancelled
        }
      }
    } else if (count > 0 && !told) {
      told = true;
      ByteBuf one = request;
      request = null;
      call.onMessage(new LengthPrefixedMessages.Message(one, opening.method().descriptor(), opening.json()));
      call.onHalfClose();
    }
  }

  /** The call asked for messages from its own thread (now on the IO thread, which must go on). */
  private void askedElsewhere(int count) {
    try {
      request(count);
    } catch (Throwable e) {
      refusals.warn("gRPC stream {} from {} could not be read on, closing it: {}", streamId, connection.remoteText(),
          MessageText.shorten(e.toString()));
      Channels.close(channel);
    }
  }

  /**
   * Tells the call the messages it asked for that arrived, then its caller's half-close once every message was told;
   * reads on only while no message waits unasked (IO thread).
   */
  private void tell() {
    ByteBuf message;
    while (credit > 0 && !ended && (message = messages.take()) != null) {
      credit--;
      call.onMessage(new LengthPrefixedMessages.Message(message, opening.method().descriptor(), opening.json()));
    }
    if (ended) {
      return;
    }
    if (halfClosed && !toldHalfClose && messages.isEmpty()) {
      toldHalfClose = true;
      call.onHalfClose();
    }
    boolean read = messages.isEmpty();
    if (channel.config().isAutoRead() != read) {
      channel.config().setAutoRead(read); // true reads what waits in the stream
    }
  }

  @Override
  public boolean carriesRequestStreams() {
    return true;
  }

  /** Whether the caller streams its requests, told to the call as it asks (never a health check's). */
  private boolean streamsRequests() {
    return opening.method() != null && opening.method().descriptor().type().streamsRequests();
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
    return opening.method().descriptor().type().streamsAnswers();
  }

  private ByteBuf encode(Object result) {
    ByteBuf out = MessageForms.encodeResponse(opening.method().descriptor(), opening.json(), result, channel.alloc(),
        LengthPrefixedMessages.PREFIX_BYTES);
    out.setInt(1, out.readableBytes() - LengthPrefixedMessages.PREFIX_BYTES); // flag 0: not compressed
    return out;
  }

  @Override
  public void close(CallStatus status, boolean flush) {
    ByteBuf kept = response;
    response = null;
    if (streamsRequests()) {
      // the rest of the caller's stream is not read: what is held is freed, and the stream read to its end
      try {
        channel.eventLoop().execute(this::stopReading);
      } catch (RejectedExecutionException e) {
        // the server is shutting down: the stream closes with its connection, which frees what it held
      }
    }
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
