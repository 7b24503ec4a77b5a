package io.boltgen.runtime.internal;

import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.internal.wire.ErrorFrames;
import io.boltgen.runtime.internal.wire.FrameDecoder;
import io.boltgen.runtime.internal.wire.FrameFormat;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.LoggerFactory;

/**
 * The time a peer has to finish a frame once its first byte arrived. A peer that trickles a frame (one byte
 * every few seconds keeps the idle timeout from ever firing) or stops in the middle of one holds a
 * connection and a buffer for nothing; after the frame timeout its connection is closed with one log line,
 * and if the unfinished frame is a request whose id arrived, that request is answered (in the frame's own
 * format) {@code SERVER_DESERIAL_EXCEPTION} first, so its caller learns why.
 *
 * <p>One timer entry per connection at most, and only while a frame is unfinished: after each read the
 * decoder says whether bytes of an unfinished frame are buffered; the timer, when it fires, checks the age
 * of that frame and either closes the connection or waits for the rest of the timeout.
 *
 * <p>State is confined to the channel's event loop; the timer only hands over to it.
 */
final class FrameDeadline implements TimerTask {

  private static final RateLimitedLog expired = RateLimitedLog.of(LoggerFactory.getLogger(FrameDeadline.class));

  private final Channel channel;
  private final FrameDecoder decoder;
  private final Timer timer;
  private final LongSupplier nanoClock;
  private final long timeoutNanos;
  private final Runnable check = this::check;
  private boolean unfinished;
  private long unfinishedSince;
  private long framesBefore;
  private Timeout armed;

  FrameDeadline(Channel channel, FrameDecoder decoder, Timer timer, LongSupplier nanoClock, long timeoutMillis) {
    this.channel = channel;
    this.decoder = decoder;
    this.timer = timer;
    this.nanoClock = nanoClock;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
  }

  /** A read was decoded (event loop): start timing an unfinished frame, or stop. */
  void afterRead() {
    assert channel.eventLoop().inEventLoop();
    if (decoder.pendingBytes() == 0) {
      unfinished = false; // a timer still armed finds nothing to do
      return;
    }
    long frames = decoder.framesDecoded();
    if (!unfinished || frames != framesBefore) {
      // a new unfinished frame: the one timed before (if any) completed in this read
      unfinished = true;
      unfinishedSince = nanoClock.getAsLong();
      framesBefore = frames;
    }
    if (armed == null) {
      arm(timeoutNanos);
    }
  }

  private void arm(long delayNanos) {
    try {
      armed = timer.newTimeout(this, delayNanos, TimeUnit.NANOSECONDS);
    } catch (IllegalStateException e) {
      armed = null; // the timer stopped: the process is shutting down
    }
  }

  /** The timer fired: look at the frame on the event loop. */
  @Override
  public void run(Timeout timeout) {
    try {
      channel.eventLoop().execute(check);
    } catch (RejectedExecutionException e) {
      // the event loop is gone, and the channel with it
    }
  }

  private void check() {
    armed = null;
    if (!unfinished || !channel.isActive() || decoder.pendingBytes() == 0) {
      return;
    }
    long age = nanoClock.getAsLong() - unfinishedSince;
    if (age < timeoutNanos) {
      arm(timeoutNanos - age);
      return;
    }
    int received = decoder.pendingBytes();
    long millis = TimeUnit.NANOSECONDS.toMillis(timeoutNanos);
    int requestId = decoder.pendingRequestId();
    expired.warn("closing connection with {}: a frame was not finished within {} ms of its first byte ({} bytes of it"
        + " arrived{})", channel.remoteAddress(), millis, received, requestId != 0 ? ", request id " + requestId : "");
    unfinished = false;
    if (requestId != 0) {
      String why = "the request frame was not finished within " + millis + " ms of its first byte (" + received
          + " bytes arrived); the server closed the connection";
      channel.writeAndFlush(ErrorFrames.error(channel.alloc(), FrameFormat.of(decoder.pendingProtocolCode(), decoder.pendingVersion(), (byte) 0),
          requestId, ResponseStatus.SERVER_DESERIAL_EXCEPTION, null, why, "frame timeout"))
          .addListener(ChannelFutureListener.CLOSE);
    } else {
      Channels.close(channel);
    }
  }
}
