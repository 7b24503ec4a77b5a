package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.internal.PortConnection;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.codec.http2.WeightedFairQueueByteDistributor;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.function.Predicate;

/**
 * Turns a server connection that {@link ProtocolSniffer} found to speak HTTP into an HTTP/1.1 or HTTP/2
 * one: Netty's HTTP codecs with boltgen's limits, then {@link HttpExchanges} (on HTTP/2, each stream goes to
 * the protocol its headers name: an {@link Http2StreamProtocol} such as gRPC, else Connect). The Bolt
 * pipeline's last handler stays behind them (it keeps the connection's lifecycle: open and close events, TLS
 * identity, idle timeout), and a sink in front of it takes whatever the HTTP/2 codec passes on.
 *
 * <p>Limits: a request line of {@value #MAX_INITIAL_LINE} bytes, a header block of {@value #MAX_HEADER_BYTES}
 * bytes (431 beyond, with HTTP/2 as its header list size), a body of the server's maximum frame length (413
 * beyond, read no further), {@value HttpExchanges#MAX_PIPELINED} pipelined requests per HTTP/1.1 connection
 * and {@value #MAX_CONCURRENT_STREAMS} concurrent streams per HTTP/2 connection, each with HTTP/2's initial
 * flow-control window of 64 KiB, and a connection window of them all ({@value #CONNECTION_WINDOW} bytes), so that a
 * stream whose reader waits closes its own window, never the connection's.
 */
final class HttpPipelines {

  /** The longest HTTP/1.1 request line, in bytes. */
  static final int MAX_INITIAL_LINE = 4096;

  /** The largest header block, in bytes (HTTP/2: the header list size it announces). */
  static final int MAX_HEADER_BYTES = 16 * 1024;

  /** The most concurrent streams of one HTTP/2 connection. */
  static final int MAX_CONCURRENT_STREAMS = 100;

  /** The connection's flow-control window: every concurrent stream's initial window. */
  static final int CONNECTION_WINDOW = MAX_CONCURRENT_STREAMS * Http2CodecUtil.DEFAULT_WINDOW_SIZE;

  /**
   * The most bytes one HTTP/2 stream writes in its turn while several have data to send: one DATA frame of HTTP/2's
   * default size, not Netty's 1 KiB, which cut every message of a kilobyte or more in two and made a frame of each
   * half. Fairness between streams holds at this grain; each stream's own window still bounds what it sends.
   */
  static final int WRITE_QUANTUM = Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE;

  private final ConnectRpcCalls service;
  private final List<Http2StreamProtocol> streamProtocols;
  private final int maxBodyBytes;
  private final long requestTimeoutMillis;

  HttpPipelines(ConnectRpcCalls service, List<Http2StreamProtocol> streamProtocols, int maxBodyBytes,
      long requestTimeoutMillis) {
    this.service = service;
    this.streamProtocols = List.copyOf(streamProtocols);
    this.maxBodyBytes = maxBodyBytes;
    this.requestTimeoutMillis = requestTimeoutMillis;
  }

  /** Replaces the Bolt decoder with HTTP/1.1's handlers, after the handler named {@code after}. */
  void http1(ChannelPipeline pipeline, String after) {
    PortConnection connection = PortConnection.of(pipeline.channel());
    connection.takenOver();
    connection.limitOpenRequests(HttpExchanges.MAX_PIPELINED);
    pipeline.remove("decoder");
    HttpReadDeadline deadline = new HttpReadDeadline(connection, requestTimeoutMillis);
    pipeline.addAfter(after, "http-deadline", deadline);
    pipeline.addAfter("http-deadline", "http-decoder", new StrictRequestDecoder());
    pipeline.addAfter("http-decoder", "http-encoder", new HttpResponseEncoder());
    pipeline.addAfter("http-encoder", "http-continue", new BoundedExpectContinue(maxBodyBytes, service::streamsBody));
    pipeline.addAfter("http-continue", "http-aggregator", new BoundedAggregator(maxBodyBytes, service::streamsBody));
    // one socket read may hold hundreds of pipelined requests, all decoded at once: while reading is paused
    // they wait here, whole, and go on one at a time, so that no more than MAX_PIPELINED are ever dispatched
    pipeline.addAfter("http-aggregator", "http-flow", new FlowControlHandler());
    HttpExchanges exchanges = new HttpExchanges(service, connection, deadline, false);
    pipeline.addAfter("http-flow", "http-exchanges", exchanges);
    connection.busyWhile(exchanges::inProgress); // a request being served is not idleness, however quiet
    pipeline.addAfter("http-exchanges", "http-sink", new Sink());
  }

  /** Replaces the Bolt decoder with HTTP/2's handlers (one child channel per stream), after {@code after}. */
  @SuppressWarnings("FutureReturnValueIgnored") // a void promise: a failed write closes the connection
  void http2(ChannelPipeline pipeline, String after) {
    PortConnection connection = PortConnection.of(pipeline.channel());
    connection.takenOver();
    pipeline.remove("decoder");
    pipeline.addAfter(after, "http-deadline", new HttpReadDeadline(connection, 0));
    Http2FrameCodec codec = new ServerCodecBuilder()
        .initialSettings(Http2Settings.defaultSettings()
            .maxConcurrentStreams(MAX_CONCURRENT_STREAMS)
            .maxHeaderListSize(MAX_HEADER_BYTES))
        .build();
    pipeline.addAfter("http-deadline", "h2-codec", codec);
    connection.busyWhile(() -> codec.connection().numActiveStreams() > 0); // an open stream is not idleness
    pipeline.addAfter("h2-codec", "h2-streams", new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
      @Override
      protected void initChannel(Http2StreamChannel stream) {
        stream.pipeline().addLast(new StreamRouter(connection));
      }
    }));
    pipeline.addAfter("h2-streams", "http-sink", new Sink());
    // after the server's preface, sent as the codec was added: the connection's window grows to all its streams'
    ChannelHandlerContext streams = pipeline.context("h2-streams");
    streams.writeAndFlush(new DefaultHttp2WindowUpdateFrame(CONNECTION_WINDOW - Http2CodecUtil.DEFAULT_WINDOW_SIZE),
        streams.voidPromise());
  }

  /** Netty's server codec over a connection whose streams write {@value #WRITE_QUANTUM} bytes a turn. */
  private static final class ServerCodecBuilder extends Http2FrameCodecBuilder {
    ServerCodecBuilder() {
      DefaultHttp2Connection connection = new DefaultHttp2Connection(true);
      WeightedFairQueueByteDistributor distributor = new WeightedFairQueueByteDistributor(connection);
      distributor.allocationQuantum(WRITE_QUANTUM);
      connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection, distributor));
      connection(connection);
      gracefulShutdownTimeoutMillis(0); // as forServer() sets it
    }
  }

  /**
   * Hands an HTTP/2 stream to the protocol its request headers name: the first {@link Http2StreamProtocol} that
   * serves it, else Connect (Netty's HTTP/1.1 objects over the stream, the body limit, {@link HttpExchanges}).
   */
  private final class StreamRouter extends ChannelInboundHandlerAdapter {
    private final PortConnection connection;

    StreamRouter(PortConnection connection) {
      this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ChannelPipeline pipeline = ctx.pipeline();
      Http2StreamProtocol chosen = null;
      if (msg instanceof Http2HeadersFrame headers) {
        for (Http2StreamProtocol protocol : streamProtocols) {
          if (protocol.serves(headers.headers())) {
            chosen = protocol;
            break;
          }
        }
      }
      if (chosen != null) {
        pipeline.addLast(chosen.newStream(connection));
      } else {
        pipeline.addLast(new Http2StreamFrameToHttpObjectCodec(true),
            new BoundedAggregator(maxBodyBytes, service::streamsBody),
            new HttpExchanges(service, connection, null, true));
      }
      pipeline.remove(this);
      pipeline.fireChannelRead(msg);
    }
  }

  /**
   * Netty's request decoder, except that a request with both {@code Content-Length} and
   * {@code Transfer-Encoding} is refused (400, and the connection closes) instead of read as chunked: a
   * proxy in front may have framed it the other way (request smuggling).
   */
  static final class StrictRequestDecoder extends HttpRequestDecoder {
    StrictRequestDecoder() {
      super(new io.netty.handler.codec.http.HttpDecoderConfig()
          .setMaxInitialLineLength(MAX_INITIAL_LINE)
          .setMaxHeaderSize(MAX_HEADER_BYTES)
          .setMaxChunkSize(8192));
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
      throw new IllegalArgumentException("the request has both Content-Length and Transfer-Encoding");
    }
  }

  /**
   * Netty's aggregator with the body limit, answering a request over it with a Connect error (413) and
   * closing the connection without waiting for the rest of the body. On HTTP/1.1 the refusal goes on to
   * {@link HttpExchanges} as a request that failed with {@link TooLongHttpContentException}, so that it is
   * answered after the requests pipelined before it; on an HTTP/2 stream it is answered at once. A request whose
   * body streams ({@code streamsBody}: Connect's client and bidirectional streams) is not aggregated: its head and
   * its body's parts go on as they arrive, each message of it then under the limit.
   */
  static final class BoundedAggregator extends HttpObjectAggregator {
    private final int maxBodyBytes;
    private final Predicate<HttpRequest> streamsBody;

    BoundedAggregator(int maxBodyBytes, Predicate<HttpRequest> streamsBody) {
      super(maxBodyBytes, true);
      this.maxBodyBytes = maxBodyBytes;
      this.streamsBody = streamsBody;
    }

    @Override
    protected boolean isStartMessage(HttpObject msg) throws Exception {
      return super.isStartMessage(msg) && !(msg instanceof HttpRequest request && streamsBody.test(request));
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      String why = "the request body is over the server's limit of " + maxBodyBytes + " bytes";
      if (!(ctx.channel() instanceof Http2StreamChannel) && oversized instanceof HttpRequest request) {
        // HTTP/1.1: answered in its place among pipelined requests (HttpExchanges, then ConnectRpcCalls: 413), after
        // which the connection closes; the rest of the body is dropped meanwhile
        FullHttpRequest refused = new DefaultFullHttpRequest(request.protocolVersion(), request.method(),
            request.uri(), Unpooled.EMPTY_BUFFER);
        refused.setDecoderResult(DecoderResult.failure(new TooLongHttpContentException(why)));
        ctx.fireChannelRead(refused);
        return;
      }
      FullHttpResponse response = ConnectRpcErrors.response(ctx.alloc(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
          ConnectRpcErrors.RESOURCE_EXHAUSTED, why, null, null);
      response.headers().set(HttpHeaderNames.CONNECTION, "close");
      ctx.writeAndFlush(response).addListener(io.netty.channel.ChannelFutureListener.CLOSE);
    }
  }

  /**
   * Netty's {@code Expect: 100-continue} handler, except that a request whose Content-Length is already over the
   * body limit gets no {@code 100 Continue} (which would invite the body): its expectation is dropped and the
   * aggregator answers it 413. A request whose body streams ({@code streamsBody}) has no limit on its whole body
   * (each message has one), so it is invited whatever its length.
   */
  static final class BoundedExpectContinue extends HttpServerExpectContinueHandler {
    private final int maxBodyBytes;
    private final Predicate<HttpRequest> streamsBody;

    BoundedExpectContinue(int maxBodyBytes, Predicate<HttpRequest> streamsBody) {
      this.maxBodyBytes = maxBodyBytes;
      this.streamsBody = streamsBody;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
      if (msg instanceof HttpRequest request && HttpUtil.is100ContinueExpected(request)
          && HttpUtil.getContentLength(request, -1L) > maxBodyBytes && !streamsBody.test(request)) {
        request.headers().remove(HttpHeaderNames.EXPECT);
      }
      super.channelRead(ctx, msg);
    }
  }

  /** Takes what the HTTP handlers pass on (HTTP/2 connection frames): the Bolt handler behind reads frames only. */
  static final class Sink extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ReferenceCountUtil.release(msg);
    }
  }
}
