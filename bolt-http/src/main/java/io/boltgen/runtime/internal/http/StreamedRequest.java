package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.internal.PortConnection;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.LoggerFactory;

/**
 * The body of one request whose messages stream (Connect's client and bidirectional streaming), read as it arrives:
 * its envelopes are read by {@link LengthPrefixedMessages}, and each whole message is told to the call as its handler
 * asks for it ({@link #request}), then the caller's half-close after the last. While a whole message waits that the
 * call did not ask for, the body is not read: an HTTP/1.1 connection holds its reads ({@link PortConnection#holdReads})
 * and an HTTP/2 stream stops reading, so that its flow-control window closes; either way the caller waits. What is
 * held here is then the whole messages of the part being read and one message being assembled, each within the limit
 * (the call holds those it asked for ahead, 16 at most). A body that breaks the envelope rules, or a
 * message over the limit, is refused ({@link Refusal}); once the call ends or is cancelled, the rest of the body is
 * read and dropped ({@link #stop}).
 *
 * <p>Confined to the channel's IO thread, but for {@link #request}, which may be called from any thread.
 */
final class StreamedRequest {

  private static final RateLimitedLog failures = RateLimitedLog.of(LoggerFactory.getLogger(StreamedRequest.class));

  /** What ends a call whose body broke the rules: told once, on the IO thread. */
  interface Refusal {
    void refuse(LengthPrefixedMessages.Refusal refusal);
  }

  private final Channel channel;
  private final PortConnection connection;
  private final boolean http2;
  private final LengthPrefixedMessages messages;
  private final MethodDescriptor<?, ?> method;
  private final boolean json;
  private final int streamId;
  private final Refusal refusal;
  private ServerStream.Listener call;
  // the messages the call asked for and was not told; whether the body ended, and whether the call was told so
  private int credit;
  private boolean lastArrived;
  private boolean toldHalfClose;
  // read no further: the call ended, was cancelled or refused; what arrives is dropped
  private boolean stopped;
  private boolean holding;
  // an HTTP/2 stream that is not read is not closed by Netty when its connection goes: this side stops reading then
  private final ChannelFutureListener connectionClosed = closed -> stop();

  /**
   * The body of a request of {@code method} on {@code channel} (an HTTP/1.1 connection, or an HTTP/2 stream if
   * {@code http2}), in {@code messages}, JSON or binary protobuf as {@code json} says; a broken body is told to
   * {@code refusal}.
   */
  StreamedRequest(Channel channel, PortConnection connection, boolean http2, LengthPrefixedMessages messages,
      MethodDescriptor<?, ?> method, boolean json, int streamId, Refusal refusal) {
    this.channel = channel;
    this.connection = connection;
    this.http2 = http2;
    this.messages = messages;
    this.method = method;
    this.json = json;
    this.streamId = streamId;
    this.refusal = refusal;
    if (http2) {
      channel.parent().closeFuture().addListener(connectionClosed);
    }
  }

  /** The call the messages are told to (IO thread, before it asks for any). */
  void start(ServerStream.Listener call) {
    this.call = call;
  }

  /** Reads one part of the body (IO thread; not released here): its messages are told as the call asked for them. */
  void add(HttpContent content) {
    boolean last = content instanceof LastHttpContent;
    if (last) {
      lastArrived = true;
      stopListening();
    }
    if (stopped) {
      return;
    }
    if (!content.decoderResult().isSuccess()) {
      refuse(new LengthPrefixedMessages.Refusal(StatusCode.INVALID_ARGUMENT, "the request body is not valid HTTP: "
          + MessageText.shorten(String.valueOf(content.decoderResult().cause()))));
      return;
    }
    LengthPrefixedMessages.Refusal refused = messages.add(content.content());
    if (refused == null && last) {
      refused = messages.end();
    }
    if (refused != null) {
      refuse(refused);
      return;
    }
    tell();
  }

  private void refuse(LengthPrefixedMessages.Refusal refused) {
    stop();
    refusal.refuse(refused);
  }

  /** Asks for {@code count} more messages (any thread: the call's, as its handler reads). */
  void request(int count) {
    if (channel.eventLoop().inEventLoop()) {
      credit += count;
      tell();
      return;
    }
    try {
      channel.eventLoop().execute(() -> askedElsewhere(count));
    } catch (RejectedExecutionException e) {
      // the server is shutting down: the connection closes with it, and the call is cancelled
    }
  }

  /** The call asked from its own thread (now on the IO thread, which must go on). */
  private void askedElsewhere(int count) {
    try {
      request(count);
    } catch (Throwable e) {
      close("its body could not be read on", e);
    }
  }

  /** A task of the IO thread failed: one line, and the stream or connection closes (it cannot be read on as it is). */
  private void close(String what, Throwable e) {
    failures.warn("request id {} from {}: {}, closing the {}: {}", streamId, connection.remoteText(), what,
        http2 ? "stream" : "connection", MessageText.shorten(e.toString()));
    Channels.close(channel);
  }

  /**
   * Tells the call the messages it asked for that arrived, then the caller's half-close once the last was told;
   * reads on only while no message waits unasked (IO thread).
   */
  private void tell() {
    ByteBuf message;
    while (credit > 0 && !stopped && (message = messages.take()) != null) {
      credit--;
      call.onMessage(new LengthPrefixedMessages.Message(message, method, json));
    }
    if (stopped) {
      return;
    }
    if (lastArrived && !toldHalfClose && messages.isEmpty()) {
      toldHalfClose = true;
      call.onHalfClose();
    }
    hold(!messages.isEmpty() && !lastArrived);
  }

  /** Holds reads of the body, or lets them go on (IO thread). */
  private void hold(boolean hold) {
    if (holding == hold) {
      return;
    }
    holding = hold;
    if (http2) {
      channel.config().setAutoRead(!hold); // true reads what waits in the stream
    } else {
      connection.holdReads(hold);
    }
  }

  /**
   * Reads no further (IO thread): the call ended, was cancelled, or its body was refused, or the stream or connection
   * closed; what is held is freed and reads go on, so that the rest of the body is read and dropped (and an HTTP/2
   * stream reads to its end and closes).
   */
  void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    stopListening();
    messages.release();
    try {
      hold(false);
    } catch (Throwable e) {
      close("its body's reading could not go on", e);
    }
  }

  private void stopListening() {
    if (http2) {
      channel.parent().closeFuture().removeListener(connectionClosed);
    }
  }

}
