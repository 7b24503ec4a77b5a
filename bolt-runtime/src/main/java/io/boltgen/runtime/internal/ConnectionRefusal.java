package io.boltgen.runtime.internal;

import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.ErrorFrames;
import io.boltgen.runtime.internal.wire.FrameBatch;
import io.boltgen.runtime.internal.wire.FrameDecoder;
import io.boltgen.runtime.internal.wire.FrameFormat;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * The whole pipeline of a connection accepted beyond the server's connection limit. It is never served:
 * every request it sends is answered {@code SERVER_THREADPOOL_BUSY} with a message naming the limit (so a
 * boltgen or SOFABolt client fails its call at once with a clear reason instead of hanging), then the
 * connection is closed; one that sends nothing is closed after {@value #LINGER_MILLIS} ms. On a server that
 * also speaks another protocol, its {@link PortProtocol#refusal} answers that protocol's clients instead (HTTP:
 * {@code 503} with a Connect {@code unavailable} error naming the limit).
 */
final class ConnectionRefusal extends ChannelInboundHandlerAdapter {

  /** How long a refused connection may stay open waiting for a request to answer. */
  static final long LINGER_MILLIS = 1000;

  private static final RateLimitedLog refused = RateLimitedLog.of(LoggerFactory.getLogger(ConnectionRefusal.class));

  private final int open;
  private final int limit;
  private final String why;

  private ConnectionRefusal(int open, int limit, String why) {
    this.open = open;
    this.limit = limit;
    this.why = why;
  }

  /**
   * Makes {@code channel}'s pipeline answer busy and close; {@code open} connections, {@code limit} allowed;
   * {@code port}: the protocol the server also speaks (or {@code null}), whose clients are answered in its terms.
   */
  static void install(Channel channel, int maxFrameLength, int open, int limit, PortProtocol port) {
    String why = "the server at " + channel.localAddress() + " refused the connection: " + open
        + " connections are open and its limit (maxConnections) is " + limit;
    if (port != null) {
      channel.pipeline().addLast("port-refusal", port.refusal(why));
    }
    channel.pipeline().addLast("decoder", new FrameDecoder(maxFrameLength));
    channel.pipeline().addLast("refusal", new ConnectionRefusal(open, limit, why));
  }

  @Override
  @SuppressWarnings("FutureReturnValueIgnored") // the scheduled close cannot fail (see Channels.close)
  public void channelActive(ChannelHandlerContext ctx) {
    refused.warn("refused connection from {}: {} connections are open and the limit (maxConnections) is {}",
        ctx.channel().remoteAddress(), open, limit);
    ctx.executor().schedule(() -> Channels.close(ctx), LINGER_MILLIS, TimeUnit.MILLISECONDS);
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    FrameBatch batch = (FrameBatch) msg;
    ChannelFuture last = null;
    for (int i = 0, n = batch.size(); i < n; i++) {
      BoltFrame frame = batch.get(i);
      try {
        if (frame.isRequest() && !frame.isHeartbeat() && !frame.isOneway()) {
          last = ctx.write(ErrorFrames.busy(ctx.alloc(), FrameFormat.of(frame.protocolCode(), frame.version(), (byte) 0), frame.requestId(), why));
        }
      } finally {
        frame.release();
      }
    }
    if (last != null) {
      ctx.flush();
      last.addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Channels.close(ctx); // a refused connection gets no second chance, and no log line of its own
  }
}
