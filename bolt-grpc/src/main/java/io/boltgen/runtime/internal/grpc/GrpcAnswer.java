package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.call.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The frames of one gRPC answer, as gRPC orders them: the response headers once, before the first message; the
 * messages in DATA frames; then the trailers with the status, which end the stream. A failure before any message is
 * trailers only: one HEADERS frame with the HTTP status, the content type and the gRPC status. Whatever comes after
 * the end is dropped (a streamed message that lost the race with the deadline).
 *
 * <p>Messages and the end are queued from any thread ({@link #message}, {@link #end}) and written in that order by
 * one task on the stream's IO thread at a time, which writes all it finds and flushes once: a publisher faster than
 * the IO thread costs one wake-up and one flush per batch, not per message. The messages it finds one after another
 * go out together in one DATA frame (up to {@value #BATCH_MESSAGES} messages and {@value #BATCH_BYTES} bytes, not
 * copied), as gRPC's framing allows: the frame's way through HTTP/2's stream channel, codec and flow control is
 * paid once per batch. What is queued and not yet written is counted: {@link #hasRoom()} says whether it is under
 * {@value #CAUGHT_UP_BYTES} bytes, and once it said no, the IO thread says so ({@code caughtUp}) when it has written
 * enough.
 *
 * <p>Thread-safe: queued from any thread; written on the IO thread.
 */
final class GrpcAnswer {

  /** Queued message bytes under which the IO thread has caught up with whoever streams the messages. */
  static final int CAUGHT_UP_BYTES = 64 * 1024;

  /** The most bytes of messages found one after another that go out in one DATA frame: HTTP/2's default frame. */
  static final int BATCH_BYTES = 16 * 1024;

  /** The most messages that go out in one DATA frame. */
  static final int BATCH_MESSAGES = 64;

  /**
   * The slots the queue starts with, and grows by while more wait: a few hundred bytes per call, where an unbounded
   * queue of Netty's default chunk took 4 KiB of every call, unary ones too.
   */
  private static final int QUEUE_CHUNK = 16;

  /**
   * The queue's capacity, which is never reached: what waits is bounded by the demand the call's publisher is given
   * and {@value #CAUGHT_UP_BYTES} bytes; a publisher that ignores its demand exhausts memory long before.
   */
  private static final int QUEUE_CAPACITY = 1 << 30;

  private final Channel channel;
  private final boolean json;
  private final Runnable caughtUp;
  // messages (ByteBuf) and the end (End), in order, waiting for the IO thread
  private final Queue<Object> queue = PlatformDependent.newMpscQueue(QUEUE_CHUNK, QUEUE_CAPACITY);
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicLong queuedBytes = new AtomicLong();
  // hasRoom said no since the last caughtUp
  private volatile boolean wantsRoom;
  // IO thread only
  private boolean headersSent;
  private boolean endSent;
  // messages taken from the queue and not yet written, to go out in one DATA frame: null, one message, or a
  // composite of them made here
  private ByteBuf batch;
  private int batched;

  /** The end of an answer: its last message (a unary answer's one), and its status. */
  private record End(ByteBuf message, StatusCode code, String text, String details) {}

  /**
   * The answer on {@code channel}, its messages JSON ({@code application/grpc+json}) or protobuf; {@code caughtUp}
   * runs on the IO thread when queued messages fall back under {@value #CAUGHT_UP_BYTES} bytes.
   */
  GrpcAnswer(Channel channel, boolean json, Runnable caughtUp) {
    this.channel = channel;
    this.json = json;
    this.caughtUp = caughtUp;
  }

  /**
   * Whether the messages queued and not yet written are under {@value #CAUGHT_UP_BYTES} bytes (any thread). When not,
   * {@code caughtUp} runs once the IO thread brought them under it: whoever was told no is told when to go on.
   */
  boolean hasRoom() {
    if (queuedBytes.get() < CAUGHT_UP_BYTES) {
      return true;
    }
    wantsRoom = true;
    // the IO thread may have written them all since the read above, and read wantsRoom before it was set
    return queuedBytes.get() < CAUGHT_UP_BYTES;
  }

  /** Queues one message (any thread; taken over). */
  void message(ByteBuf message) {
    queuedBytes.addAndGet(message.readableBytes());
    enqueue(message);
  }

  /**
   * Queues the end (any thread): {@code message} if any (taken over), then trailers with {@code code}; for a failure
   * before any message, the trailers alone.
   */
  void end(ByteBuf message, StatusCode code, String text, String details) {
    enqueue(new End(message, code, text, details));
  }

  private void enqueue(Object item) {
    if (!queue.offer(item)) {
      release(item);
      throw new IllegalStateException("more than " + QUEUE_CAPACITY + " messages wait to be written on " + channel);
    }
    if (draining.compareAndSet(false, true)) {
      try {
        channel.eventLoop().execute(this::drain);
      } catch (RejectedExecutionException e) {
        // the server is shutting down: its connections are closing, and nothing queued will be written
        for (Object left = queue.poll(); left != null; left = queue.poll()) {
          release(left);
        }
        draining.set(false);
      }
    }
  }

  /** Writes everything queued, then flushes once (IO thread). */
  @SuppressWarnings("FutureReturnValueIgnored") // closing the stream is all there is left to do
  private void drain() {
    do {
      for (Object item = queue.poll(); item != null; item = queue.poll()) {
        try {
          if (item instanceof ByteBuf message) {
            gather(message);
          } else {
            writeBatch();
            write((End) item);
          }
        } catch (Throwable e) {
          // the stream cannot go on; the queue must: what follows is released as the closed channel drops it
          ReferenceCountUtil.safeRelease(item instanceof End end ? end.message() : item);
          dropBatch();
          channel.close();
        }
      }
      try {
        writeBatch();
      } catch (Throwable e) {
        dropBatch();
        channel.close();
      }
      channel.flush();
      draining.set(false);
    } while (!queue.isEmpty() && draining.compareAndSet(false, true));
    if (wantsRoom && queuedBytes.get() < CAUGHT_UP_BYTES) {
      wantsRoom = false;
      caughtUp.run();
    }
  }

  /** Adds a message (taken over) to the batch, writing the batch first when the message would not fit in it. */
  private void gather(ByteBuf message) {
    queuedBytes.addAndGet(-message.readableBytes());
    if (endSent || !channel.isActive()) {
      message.release();
      return;
    }
    if (batch != null
        && (batched == BATCH_MESSAGES || batch.readableBytes() + message.readableBytes() > BATCH_BYTES)) {
      writeBatch();
    }
    if (batch == null) {
      batch = message;
      batched = 1;
      return;
    }
    if (batched == 1) {
      CompositeByteBuf messages = channel.alloc().compositeDirectBuffer(BATCH_MESSAGES);
      // Netty releases a buffer it fails to add (out of memory): this one may then be released twice, which
      // ReferenceCountUtil.safeRelease only logs
      batch = messages.addComponent(true, batch);
    }
    ((CompositeByteBuf) batch).addComponent(true, message);
    batched++;
  }

  /** Writes the batch, if any, as one DATA frame (IO thread). */
  @SuppressWarnings("FutureReturnValueIgnored") // a void promise: a failed write closes the stream
  private void writeBatch() {
    ByteBuf messages = batch;
    if (messages == null) {
      return;
    }
    batch = null;
    batched = 0;
    headers();
    channel.write(new DefaultHttp2DataFrame(messages, false), channel.voidPromise());
  }

  private void dropBatch() {
    ReferenceCountUtil.safeRelease(batch);
    batch = null;
    batched = 0;
  }

  @SuppressWarnings("FutureReturnValueIgnored") // void promises: a failed write closes the stream
  private void write(End end) {
    if (endSent || !channel.isActive()) {
      ReferenceCountUtil.release(end.message());
      return;
    }
    endSent = true;
    if (end.code() != StatusCode.OK && !headersSent) {
      ReferenceCountUtil.release(end.message());
      resetIfStillSending(channel.write(new DefaultHttp2HeadersFrame(trailersOnly(200, json, end.code(), end.text(),
          end.details()), true)));
      return;
    }
    headers();
    if (end.message() != null) {
      channel.write(new DefaultHttp2DataFrame(end.message(), false), channel.voidPromise());
    }
    resetIfStillSending(channel.write(new DefaultHttp2HeadersFrame(status(new DefaultHttp2Headers(), end.code(),
        end.text(), end.details()), true)));
  }

  /**
   * Once the trailers went out (after the messages before them, which HTTP/2's flow control may hold), a caller still
   * streaming its request is told to stop (RST_STREAM {@code NO_ERROR}, as HTTP/2 and gRPC's own servers do), so that
   * what it sends is neither read nor held. A reset written before would drop the answer's frames still held.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // a close and a void promise: nothing left to report
  private void resetIfStillSending(ChannelFuture trailers) {
    trailers.addListener(written -> {
      if (!written.isSuccess()) {
        channel.close(); // as a failed write with a void promise does
      } else if (channel instanceof Http2StreamChannel stream && stream.stream().state().remoteSideOpen()) {
        channel.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR), channel.voidPromise());
      }
    });
  }

  private static void release(Object item) {
    ReferenceCountUtil.release(item instanceof End end ? end.message() : item);
  }

  @SuppressWarnings("FutureReturnValueIgnored") // void promises: a failed write closes the stream
  private void headers() {
    if (!headersSent) {
      headersSent = true;
      channel.write(new DefaultHttp2HeadersFrame(responseHeaders(200, json)), channel.voidPromise());
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
