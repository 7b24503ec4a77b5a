package io.boltgen.runtime.internal;

import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.LoggerFactory;

/**
 * The handler of a server's listening channel: when accepting fails (typically "Too many open files"), the
 * server stops accepting for {@value #PAUSE_MILLIS} ms instead of retrying in a busy loop, and says so in one
 * rate-limited line without a stack trace. Connections waiting in the backlog meanwhile are accepted when it
 * resumes.
 *
 * <p>Confined to the listening channel's event loop, like every handler of a pipeline.
 */
final class AcceptErrors extends ChannelInboundHandlerAdapter {

  /** How long accepting pauses after a failure. */
  static final long PAUSE_MILLIS = 1000;

  private static final RateLimitedLog failures = RateLimitedLog.of(LoggerFactory.getLogger(AcceptErrors.class));

  private final IntSupplier openConnections;

  AcceptErrors(IntSupplier openConnections) {
    this.openConnections = openConnections;
  }

  @Override
  @SuppressWarnings("FutureReturnValueIgnored") // the scheduled task sets a flag: it cannot fail
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ChannelConfig config = ctx.channel().config();
    if (config.isAutoRead()) {
      config.setAutoRead(false);
      ctx.executor().schedule(() -> config.setAutoRead(true), PAUSE_MILLIS, TimeUnit.MILLISECONDS);
      failures.warn("could not accept a connection on {} ({}): accepting paused for {} ms, {} connections open",
          ctx.channel().localAddress(), cause.getMessage() != null ? cause.getMessage() : cause.toString(),
          PAUSE_MILLIS, openConnections.getAsInt());
    }
    // not passed on: Netty's tail would log it again, with a stack trace
  }
}
