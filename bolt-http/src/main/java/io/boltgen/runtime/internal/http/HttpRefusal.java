package io.boltgen.runtime.internal.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseEncoder;

/**
 * Before the Bolt decoder of a refused connection on a server that serves HTTP: a first read that starts
 * with an ASCII capital letter (an HTTP/1.1 method) is answered 503 and the connection closed; anything
 * else passes on to the Bolt refusal.
 */
final class HttpRefusal extends ChannelInboundHandlerAdapter {
  private final String why;

  HttpRefusal(String why) {
    this.why = why;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ctx.pipeline().remove(this); // one look, at the first bytes
    if (msg instanceof ByteBuf bytes && bytes.isReadable()) {
      int at = bytes.readerIndex();
      byte first = bytes.getByte(at);
      // not "PRI": an HTTP/2 preface, which the Bolt side closes
      boolean http2 = bytes.readableBytes() >= 3 && first == 'P' && bytes.getByte(at + 1) == 'R'
          && bytes.getByte(at + 2) == 'I';
      if (first >= 'A' && first <= 'Z' && !http2) {
        bytes.release();
        FullHttpResponse answer = ConnectRpcErrors.response(ctx.alloc(),
            ConnectRpcErrors.UNAVAILABLE, why);
        answer.headers().set(HttpHeaderNames.CONNECTION, "close");
        // last in the pipeline, so that a write from the channel is encoded first, then (under TLS) encrypted
        ctx.pipeline().addLast("http-encoder", new HttpResponseEncoder());
        ctx.channel().writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
        return;
      }
    }
    ctx.fireChannelRead(msg);
  }
}
