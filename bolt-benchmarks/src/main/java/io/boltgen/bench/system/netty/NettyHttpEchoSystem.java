package io.boltgen.bench.system.netty;

import io.boltgen.bench.system.ServedSystem;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;

/**
 * The ceiling of HTTP/1.1 on this machine for the {@code http} command: Netty 4.2's {@link HttpServerCodec} and
 * {@link HttpObjectAggregator}, and a handler on the IO thread that answers every request 200 with its body (and its
 * {@code Content-Type}), keep-alive unless the request says otherwise, one flush per read batch. No routing, no
 * decoding of the body: what any HTTP RPC on Netty pays at least. Epoll where available. Loaded by wrk, so it has no
 * client of its own.
 */
public final class NettyHttpEchoSystem implements ServedSystem {

  /** The largest request body: the boltgen server's default frame limit. */
  static final int MAX_BODY = 16 * 1024 * 1024;

  @Override
  public String id() {
    return "netty-http";
  }

  @Override
  public String family() {
    return "netty";
  }

  @Override
  public String description() {
    return "HttpServerCodec + HttpObjectAggregator + a handler on the IO thread answering 200 with the request's body,"
        + " keep-alive, one flush per read batch";
  }

  @Override
  public EchoServer startServer(String host, int port) throws InterruptedException {
    ChannelHandler echo = new EchoHandler();
    return Transport.serve(host, port, "netty-http", () -> new ChannelHandler[] {new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY), echo});
  }

  /** Answers each request with its body; writes as it reads, flushes once per read batch. */
  @ChannelHandler.Sharable
  static final class EchoHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // a void promise: a failed write closes the channel (the pipeline's)
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
      FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
          request.content().retain());
      CharSequence type = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
      if (type != null) {
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
      }
      HttpUtil.setContentLength(response, response.content().readableBytes());
      if (HttpUtil.isKeepAlive(request)) {
        if (!request.protocolVersion().isKeepAliveDefault()) {
          response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        ctx.write(response, ctx.voidPromise());
      } else {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }

    @Override
    @SuppressWarnings("FutureReturnValueIgnored") // closing is all there is to do; its outcome does not matter
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
