package io.boltgen.runtime.internal.http;

import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.internal.PortConnection;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CodecException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP requests of one HTTP/1.1 connection (or of one HTTP/2 stream) and their answers, in order: each
 * whole request goes to the {@link ConnectRpcCalls}, and answers, which may complete in any order on any
 * thread, are written in the order their requests arrived (HTTP/1.1 pipelining). On HTTP/1.1 each request is
 * open on its connection's {@code ReadThrottle} from its read until its answer is handed to the channel, so
 * reading pauses while {@value #MAX_PIPELINED} requests are open or while the channel is not writable (the
 * client does not read its answers), and resumes once half are answered and the channel is writable: a client
 * that never reads costs at most the channel's high water mark plus the answers of
 * {@value #MAX_PIPELINED} requests. (An HTTP/2 stream carries one request; its answer waits for the stream's
 * flow-control window in Netty's codec, and the connection's streams are bounded by
 * {@link HttpPipelines#MAX_CONCURRENT_STREAMS}.) A request that broke HTTP's framing is answered and the
 * connection closed. A request whose messages stream (its head only, passed on by the aggregator) starts its call at
 * once, and its body's parts go to its {@link StreamedRequest} as they arrive; the request's frame timeout stops at its
 * head, the call's deadline covering the rest ({@link ArrivingBody}). An answer that ends before its request's body did
 * drops the rest of the body: on HTTP/1.1 the connection then closes once the body ended or the frame timeout passed
 * ({@link #closeAfter}), on HTTP/2 the stream is reset after the answer ({@link #write}).
 *
 * <p>Confined to the channel's event loop; {@link #answer} may be called from any thread.
 */
final class HttpExchanges extends ChannelInboundHandlerAdapter {

  private static final Logger log = LoggerFactory.getLogger(HttpExchanges.class);
  private static final RateLimitedLog streamErrors = RateLimitedLog.of(log);
  private static final RateLimitedLog unexpected = RateLimitedLog.of(log);

  /** The most requests of one HTTP/1.1 connection that are read and not yet answered. */
  static final int MAX_PIPELINED = 16;

  /** One request's place in the queue, the call serving it, and its answer once there is one. */
  static final class Exchange {
    final int requestId;
    boolean keepAlive;
    FullHttpResponse response;
    // a streamed answer's parts, written as they come once it is at the head of the queue; else null
    StreamedResponse streamed;
    // the call serving it, cancelled if the HTTP stream or connection closes before the answer (set on the IO thread)
    HttpCall.Served call;
    // the Access-Control-Allow-Origin its answer carries: the request came from a page of an allowed origin; or null
    String allowOrigin;

    Exchange(int requestId, boolean keepAlive) {
      this.requestId = requestId;
      this.keepAlive = keepAlive;
    }
  }

  private final ConnectRpcCalls service;
  private final ServerCalls.Dispatch dispatch;
  private final PortConnection connection;
  private final HttpReadDeadline deadline;
  private final boolean http2;
  private final ArrayDeque<Exchange> open = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  private int nextRequestId = 1;
  private boolean closing;
  // the body of a request whose messages stream, read as it arrives
  private final ArrivingBody body = new ArrivingBody();
  // the write of the last answer, when the connection closes once the body still arriving ended (closeAfter)
  private ChannelFuture lingering;

  /**
   * Exchanges of {@code connection}; {@code deadline} is null on HTTP/2 streams, and {@code http2} says whether
   * this serves one HTTP/2 stream (its stream id is then the request id).
   */
  HttpExchanges(ConnectRpcCalls service, PortConnection connection, HttpReadDeadline deadline, boolean http2) {
    this.service = service;
    this.dispatch = service.newDispatch();
    this.connection = connection;
    this.deadline = deadline;
    this.http2 = http2;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      // a request whose body streams comes as its head (or, on HTTP/2 with nothing after its headers, whole)
      if (msg instanceof HttpRequest head
          && (!(msg instanceof FullHttpRequest) || (http2 && service.streamsBody(head)))) {
        if (deadline != null) {
          deadline.bodyStreams(true); // the call's deadline covers its body
        }
        if (!closing) {
          Exchange exchange = opened(head);
          body.begin(exchange); // before its call starts: an answer before its body's end is known as one
          body.readBy(service.handleStreamed(this, exchange, head));
          afterRead();
        }
        if (msg instanceof FullHttpRequest whole) {
          bodyPart(whole); // its body, whole: its last part
        }
      } else if (msg instanceof FullHttpRequest request) {
        if (deadline != null) {
          deadline.requestComplete();
        }
        if (!closing) { // else after a request that broke the framing: nothing more is read from this connection
          service.handle(this, opened(request), request);
          afterRead();
        }
      } else if (msg instanceof HttpContent content) {
        bodyPart(content);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  /** A request was read: its exchange, open from now on in request order. */
  private Exchange opened(HttpRequest request) {
    boolean framed = request.decoderResult().isSuccess();
    int id = http2 ? streamId(ctx) : nextRequestId++;
    Exchange exchange = new Exchange(id, !http2 && framed && HttpUtil.isKeepAlive(request));
    exchange.allowOrigin = service.cors().allowed(request.headers().get(HttpHeaderNames.ORIGIN));
    open.add(exchange);
    if (!http2) {
      connection.requestsOpened(1);
    }
    if (!framed) {
      closing = true; // the connection's next bytes cannot be trusted to start a request
    }
    return exchange;
  }

  private void afterRead() {
    if (!http2) {
      connection.afterRead(); // pauses reading at the pipelining bound, or while answers cannot leave
    }
  }

  /** A part of a streamed request's body: to its call, or dropped; its last ends the request's reading. */
  private void bodyPart(HttpContent content) {
    if (!content.decoderResult().isSuccess() && body.arriving()) {
      closing = true; // the body broke HTTP's framing: the decoder reads nothing more, and the answer says why
    }
    if (body.part(content)) {
      if (lingering != null) {
        lingering.addListener(ChannelFutureListener.CLOSE); // the body ended: the close it waited for
      }
      if (deadline != null) {
        deadline.bodyStreams(false);
      }
    }
  }

  private static int streamId(ChannelHandlerContext ctx) {
    if (ctx.channel() instanceof io.netty.handler.codec.http2.Http2StreamChannel stream) {
      return stream.stream().id();
    }
    return 0;
  }

  /** The connection the requests arrive on. */
  PortConnection connection() {
    return connection;
  }

  /** Where the calls of this connection (or HTTP/2 stream) start (IO thread). */
  ServerCalls.Dispatch dispatch() {
    return dispatch;
  }

  /** Whether this is an HTTP/2 stream. */
  boolean http2() {
    return http2;
  }

  /** The channel's allocator. */
  io.netty.buffer.ByteBufAllocator alloc() {
    return ctx.alloc();
  }

  /** The channel the requests arrive on: the connection's, or the HTTP/2 stream's. */
  io.netty.channel.Channel channel() {
    return ctx.channel();
  }

  /** Whether the channel takes more bytes now. */
  boolean isWritable() {
    return ctx.channel().isWritable();
  }

  /**
   * Adds one part of {@code exchange}'s streamed answer (from any thread; its head first, its last content last):
   * written in order once the answers before it were, or released if it cannot go.
   */
  void stream(Exchange exchange, HttpObject part) {
    StreamedResponse streamed = exchange.streamed;
    streamed.add(part);
    if (!streamed.scheduled.compareAndSet(false, true)) {
      return; // a task already on its way writes it too
    }
    try {
      ctx.executor().execute(() -> {
        streamed.scheduled.set(false);
        writeHeads();
      });
    } catch (RejectedExecutionException e) {
      streamed.release(); // the event loop shut down with the server
    }
  }

  /** Answers {@code exchange} with {@code response} (from any thread); the response is released if it cannot go. */
  void answer(Exchange exchange, FullHttpResponse response) {
    if (ctx.executor().inEventLoop()) {
      complete(exchange, response);
      return;
    }
    try {
      ctx.executor().execute(() -> complete(exchange, response));
    } catch (RejectedExecutionException e) {
      response.release(); // the event loop shut down with the server
    }
  }

  @SuppressWarnings("FutureReturnValueIgnored") // a failed write fires exceptionCaught (void promise): it closes
  private void complete(Exchange exchange, FullHttpResponse response) {
    // not open any more: the connection was told to close after an earlier answer (its write may still be
    // pending, so the channel is active), and nothing will write or release this one
    if (!ctx.channel().isActive() || exchange.response != null || !open.contains(exchange)) {
      response.release();
      return;
    }
    exchange.response = response;
    writeHeads();
  }

  /**
   * Writes the answers at the head of the queue, in request order (IO thread): whole ones, and a streamed one's
   * parts so far; a streamed answer stays at the head, holding those after it, until its last content is written.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // a failed write fires exceptionCaught (void promise): it closes
  private void writeHeads() {
    if (!ctx.channel().isActive()) {
      return; // channelInactive releases what is open
    }
    boolean wrote = false;
    while (!open.isEmpty()) {
      Exchange streaming = open.peek();
      if (streaming.streamed != null && streaming.response == null) {
        boolean last = false;
        HttpObject part;
        while (!last && (part = streaming.streamed.poll()) != null) {
          last = part instanceof LastHttpContent;
          if (part instanceof HttpResponse head) {
            answering(streaming, head);
          }
          write(part, last && body.answeredBefore(streaming));
          wrote = true;
        }
        if (!last) {
          if (streaming.streamed.caughtUp() && streaming.call != null) {
            streaming.call.ready();
          }
          break;
        }
        open.poll();
        closed();
        if (!streaming.keepAlive && !http2) {
          closeAfter(ctx.writeAndFlush(Unpooled.EMPTY_BUFFER));
          return;
        }
        continue;
      }
      if (streaming.response == null) {
        break;
      }
      Exchange head = open.poll();
      FullHttpResponse answer = head.response;
      head.response = null;
      closed();
      boolean unread = body.answeredBefore(head);
      answering(head, answer);
      wrote = true;
      if (!head.keepAlive && !http2) {
        closeAfter(ctx.writeAndFlush(answer));
        return;
      }
      write(answer, unread);
    }
    if (wrote) {
      ctx.flush();
      connection.markWritten(); // a long streamed answer keeps its connection from its idle timeout
    }
  }

  /**
   * The connection (HTTP/1.1) closes once its last answer was {@code written}; nothing after it is served. If a
   * request's body is still arriving, it closes only once that body ended, or the frame timeout passed (a lingering
   * close: closing a socket with bytes unread makes the kernel reset the connection, and the client may then lose the
   * answer it did not read yet); meanwhile the body is read and dropped.
   */
  private void closeAfter(ChannelFuture written) {
    closing = true;
    releaseOpen();
    body.stop(); // its call was cancelled with the others: the rest of its body is dropped
    if (!body.arriving() || deadline == null || deadline.timeoutMillis() <= 0) {
      written.addListener(ChannelFutureListener.CLOSE);
      return;
    }
    lingering = written;
    ScheduledFuture<?> timer = ctx.executor().schedule(() -> Channels.close(ctx), deadline.timeoutMillis(),
        TimeUnit.MILLISECONDS);
    ctx.channel().closeFuture().addListener(closed -> timer.cancel(false));
  }

  /**
   * Writes the last of an answer, or a part of it; on HTTP/2, when {@code thenReset}, followed by
   * {@code RST_STREAM NO_ERROR} once it was written, which asks the client to stop sending the rest of its body (a
   * reset written before the answer's last DATA left Netty's flow controller would discard it).
   */
  @SuppressWarnings("FutureReturnValueIgnored") // void promises: a failed write fires exceptionCaught, which closes
  private void write(Object part, boolean thenReset) {
    if (!thenReset || !http2) {
      ctx.write(part, ctx.voidPromise());
      return;
    }
    ctx.write(part).addListener(written -> {
      if (written.isSuccess()) {
        ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR), ctx.voidPromise());
      }
    });
  }

  /** The head of {@code exchange}'s answer, as it goes: keep-alive said (HTTP/1.1), and CORS marked if allowed. */
  private void answering(Exchange exchange, HttpResponse head) {
    if (!http2) {
      HttpUtil.setKeepAlive(head, exchange.keepAlive);
    }
    if (exchange.allowOrigin != null) {
      HttpCors.mark(head.headers(), exchange.allowOrigin);
    }
  }

  /** Whether a request is being served (IO thread): read, and its answer not yet wholly handed to the channel. */
  boolean inProgress() {
    return !open.isEmpty();
  }

  /** One exchange is no longer open: its answer went to the channel, or never will. */
  private void closed() {
    if (!http2) {
      connection.requestClosed();
    }
  }

  /**
   * Ends every open exchange: the connection or stream closed, or will once the answer before them is
   * written. A call not answered yet is cancelled (its answer could not be written); an answer not written
   * yet is released.
   */
  private void releaseOpen() {
    for (Exchange e : open) {
      if (e.response == null && e.call != null) {
        e.call.cancel();
      }
      if (e.streamed != null) {
        e.streamed.release();
      }
      if (e.response != null) {
        e.response.release();
        e.response = null;
      }
      closed();
    }
    open.clear();
  }

  /**
   * On an HTTP/1.1 connection, passes the exception on to the connection's last handler. On an HTTP/2 stream,
   * where this is the last handler: a codec's refusal of a stream that is already closed (a reset stream's
   * unfinished request) is nothing to report; a stream error, or a codec's refusal of an open stream, is one
   * rate-limited line and the stream closes; anything else is a bug, logged with its stack trace.
   */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!http2) {
      ctx.fireExceptionCaught(cause);
      return;
    }
    boolean open = ctx.channel().isActive();
    if (cause instanceof ClosedChannelException) {
      // an answer written to a stream the client had reset: nothing to tell anyone
      log.debug("HTTP/2 stream {} from {} was closed before its answer: {}", streamId(ctx), connection.remoteText(),
          cause.toString());
      return;
    }
    if (Http2CodecUtil.getEmbeddedHttp2Exception(cause) != null || cause instanceof CodecException) {
      if (open) {
        streamErrors.info("closing HTTP/2 stream {} from {}: {}", streamId(ctx), connection.remoteText(),
            MessageText.shorten(cause.toString()));
      } else {
        log.debug("HTTP/2 stream {} from {} closed with its request unfinished: {}", streamId(ctx),
            connection.remoteText(), cause.toString());
      }
    } else {
      unexpected.warn("closing HTTP/2 stream {} from {}: unexpected {}", streamId(ctx), connection.remoteText(),
          cause.toString(), cause);
    }
    if (open) {
      Channels.close(ctx);
    }
  }

  /** The channel is writable again: a streamed answer at the head of the queue goes on. */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    Exchange head = open.peek();
    if (head != null && head.streamed != null && head.call != null && ctx.channel().isWritable()) {
      head.call.ready();
    }
    ctx.fireChannelWritabilityChanged();
  }

  /**
   * The stream (HTTP/2: reset by the client, or its connection closed) or the connection (HTTP/1.1) closed:
   * every call not answered yet is cancelled, and answers not yet written are released.
   */
  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    body.stop();
    releaseOpen();
    ctx.fireChannelInactive();
  }

  /**
   * The client reset the HTTP/2 stream: a streamed request's call is cancelled now, not behind the frames a stream
   * that is not read holds back, and the stream is read to its end, so that it closes and frees what it held.
   */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof Http2ResetFrame) {
      body.reset();
    }
    ctx.fireUserEventTriggered(evt);
  }
}
