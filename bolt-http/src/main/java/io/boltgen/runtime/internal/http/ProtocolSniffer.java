package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.Future;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * Tells, by a server connection's first bytes, which protocol its peer speaks, then steps aside: Bolt
 * (a first byte of 1 or 2, the protocol codes of Bolt v1 and v2) keeps the Bolt pipeline; the HTTP/2
 * connection preface ({@code PRI * HTTP/2.0}) gets {@link HttpPipelines#http2}; an ASCII capital letter
 * (an HTTP/1 method) gets {@link HttpPipelines#http1}; anything else is left to the Bolt decoder, which
 * refuses it. It holds at most {@value #PREFACE_LENGTH} bytes, for at most the frame timeout.
 *
 * <p>Confined to the channel's event loop.
 */
final class ProtocolSniffer extends ByteToMessageDecoder {

  private static final RateLimitedLog slowStarts = RateLimitedLog.of(LoggerFactory.getLogger(ProtocolSniffer.class));
  private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  static final int PREFACE_LENGTH = 24;

  private final HttpPipelines pipelines;
  private final long timeoutMillis;
  private Future<?> deadline;

  ProtocolSniffer(HttpPipelines pipelines, long timeoutMillis) {
    this.pipelines = pipelines;
    this.timeoutMillis = timeoutMillis;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    int n = in.readableBytes();
    if (n == 0) {
      return;
    }
    int start = in.readerIndex();
    byte first = in.getByte(start);
    if (first == 'P') {
      int prefix = Math.min(n, PREFACE_LENGTH);
      boolean preface = true;
      for (int i = 0; i < prefix && preface; i++) {
        preface = in.getByte(start + i) == PREFACE[i];
      }
      if (preface && n < PREFACE_LENGTH) {
        waitForMore(ctx);
        return;
      }
      if (preface) {
        pipelines.http2(ctx.pipeline(), ctx.name());
        decided(ctx);
        return;
      }
    }
    if (first >= 'A' && first <= 'Z') {
      pipelines.http1(ctx.pipeline(), ctx.name());
    }
    // otherwise Bolt (or garbage, which the frame decoder refuses); removing this handler hands the bytes on to
    // whatever now follows it, so the new handlers go in first
    decided(ctx);
  }

  private void decided(ChannelHandlerContext ctx) {
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
    ctx.pipeline().remove(this);
  }

  private void waitForMore(ChannelHandlerContext ctx) {
    if (deadline == null && timeoutMillis > 0) {
      deadline = ctx.executor().schedule(() -> {
        if (ctx.channel().isOpen() && !ctx.isRemoved()) {
          slowStarts.info("closing connection from {}: its first bytes did not arrive within {} ms",
              ctx.channel().remoteAddress(), timeoutMillis);
          Channels.close(ctx);
        }
      }, timeoutMillis, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
  }
}
