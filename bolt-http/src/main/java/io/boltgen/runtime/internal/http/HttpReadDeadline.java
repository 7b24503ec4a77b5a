package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.internal.PortConnection;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * On an HTTP connection: counts every read as activity (the idle timeout), and gives a peer the frame
 * timeout to finish each HTTP/1.1 request once its first byte arrived, headers and body, as the Bolt
 * decoder gives it for a frame ({@code FrameDeadline}). A peer that trickles a request is closed with one
 * log line. {@link HttpExchanges} says when a request is complete.
 *
 * <p>Confined to the channel's event loop.
 */
final class HttpReadDeadline extends ChannelInboundHandlerAdapter {

  private static final RateLimitedLog expired = RateLimitedLog.of(LoggerFactory.getLogger(HttpReadDeadline.class));

  private final PortConnection connection;
  private final long timeoutNanos;
  private ChannelHandlerContext ctx;
  private boolean inRequest;
  // a request's body streams: its reads are the call's, timed by its deadline
  private boolean bodyStreams;
  private long since;
  private Future<?> armed;

  /** {@code timeoutMillis} 0: activity only, no deadline (HTTP/2, whose streams have their own). */
  HttpReadDeadline(PortConnection connection, long timeoutMillis) {
    this.connection = connection;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    connection.markReceived();
    if (timeoutNanos > 0 && !inRequest && !bodyStreams) {
      inRequest = true;
      since = System.nanoTime();
      if (armed == null) {
        armed = ctx.executor().schedule(this::check, timeoutNanos, TimeUnit.NANOSECONDS);
      }
    }
    ctx.fireChannelRead(msg);
  }

  /** The frame timeout, in milliseconds: 0 for none. */
  long timeoutMillis() {
    return TimeUnit.NANOSECONDS.toMillis(timeoutNanos);
  }

  /** The request being read is complete: its time stops. */
  void requestComplete() {
    inRequest = false;
  }

  /**
   * A request's head arrived and its body streams ({@code true}): the request's time stops, and the reads of its body
   * are not timed (its call's deadline covers them) until its last part arrived ({@code false}).
   */
  void bodyStreams(boolean streams) {
    inRequest = false;
    bodyStreams = streams;
  }

  private void check() {
    armed = null;
    if (!inRequest || !ctx.channel().isOpen()) {
      return;
    }
    long left = timeoutNanos - (System.nanoTime() - since);
    if (left > 0) {
      armed = ctx.executor().schedule(this::check, left, TimeUnit.NANOSECONDS);
      return;
    }
    expired.warn("closing HTTP connection from {}: a request took longer than {} ms to arrive", connection.remoteText(),
        TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
    Channels.close(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (armed != null) {
      armed.cancel(false);
      armed = null;
    }
    ctx.fireChannelInactive();
  }
}
