package io.boltgen.runtime.internal;

import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.BoltFrameException;
import io.boltgen.runtime.internal.wire.FrameBatch;
import io.boltgen.runtime.internal.wire.FrameEncoder;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CodecException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of every pipeline. For each frame of a batch: a response completes its call, a request
 * goes to the endpoint's {@link RequestHandler}, a heartbeat is acked at once, a heartbeat ack goes to the
 * connection's {@link Heartbeat}. After each read it lets the connection pause reading when too much is
 * open and times unfinished frames ({@link FrameDeadline}); when the channel becomes writable again it
 * resumes the write queue. It also closes connections on bad frames and idleness (one rate-limited log line
 * each) and fails every pending call the moment the channel goes inactive.
 *
 * <p>On a connection error that the codec of the port protocol which took the connection over answers itself
 * before it closes ({@link PortProtocol#closesItself}: HTTP/2's GOAWAY), it does not close the connection
 * itself: closing first would leave the peer with no GOAWAY, or with a graceful NO_ERROR it may take as leave
 * to retry at once.
 *
 * <p>What an outsider can cause (a bad frame, a codec's refusal, an HTTP/2 connection error, a reset) is logged
 * as one rate-limited line without a stack trace; a stack trace is logged only for what must be a bug.
 *
 * <p>Not thread-safe: one per channel, confined to its event loop.
 */
final class InboundHandler extends ChannelInboundHandlerAdapter {

  private static final Logger log = LoggerFactory.getLogger(InboundHandler.class);
  private static final RateLimitedLog badFrames = RateLimitedLog.of(log);
  private static final RateLimitedLog closedByError = RateLimitedLog.of(log);
  private static final RateLimitedLog unexpected = RateLimitedLog.of(log);
  private static final RateLimitedLog idleClosed = RateLimitedLog.of(log);
  private static final RateLimitedLog tlsFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog refusedByCodec = RateLimitedLog.of(log);

  private final BoltConnection connection;
  private final FrameDeadline deadline;
  // the requests of the batch being read, handed to the dispatcher in one go (reused: IO thread only)
  private final List<BoltFrame> requests = new ArrayList<>();
  private boolean handshaken;
  private boolean closing;

  /** {@code deadline} may be null (no frame timeout). */
  InboundHandler(BoltConnection connection, FrameDeadline deadline) {
    this.connection = connection;
    this.deadline = deadline;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    connection.onActive();
    connection.endpoint().opened(connection);
    ctx.fireChannelActive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    try {
      connection.onInactive();
      connection.endpoint().closed(connection);
    } finally {
      connection.markInactive();
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    connection.markReceived();
    FrameBatch batch = (FrameBatch) msg;
    int n = batch.size();
    List<BoltFrame> requests = this.requests;
    try {
      for (int i = 0; i < n; i++) {
        BoltFrame frame = batch.get(i);
        try {
          if (!frame.isRequest()) {
            onResponse(frame);
          } else if (frame.isHeartbeat()) {
            onHeartbeat(frame);
          } else {
            connection.latch(frame);
            requests.add(frame);
          }
        } catch (Throwable e) {
          // the frame at i was released by its handler; the rest of the batch is still ours
          for (int j = i + 1; j < n; j++) {
            batch.get(j).release();
          }
          for (BoltFrame request : requests) {
            request.release();
          }
          throw e;
        }
      }
      if (!requests.isEmpty()) {
        connection.endpoint().requests().onRequests(connection, requests);
        connection.afterRead();
      }
    } finally {
      requests.clear();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    connection.afterReadComplete();
    if (deadline != null) {
      deadline.afterRead();
    }
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    connection.onWritabilityChanged();
    ctx.fireChannelWritabilityChanged();
  }

  private void onHeartbeat(BoltFrame frame) {
    connection.latch(frame);
    int id = frame.requestId();
    frame.release();
    connection.writeFrame(FrameEncoder.heartbeatAck(connection.alloc(), connection.format(), id));
  }

  private void onResponse(BoltFrame frame) {
    try {
      if (frame.isHeartbeat()) {
        Heartbeat heartbeat = connection.heartbeat();
        if (heartbeat != null) {
          heartbeat.onAck(frame.requestId(), frame.status());
        }
        return;
      }
      PendingCall<?> call = connection.calls().take(frame.requestId());
      if (call == null) {
        log.debug("response for request id {} from {} arrived after its call completed; dropped",
            frame.requestId(), connection.remoteAddress());
        return;
      }
      if (call.streams()) {
        Answers.stream(call, frame, connection);
      } else {
        Answers.complete(call, frame);
      }
    } finally {
      frame.release();
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof SslHandshakeCompletionEvent handshake) {
      if (handshake.isSuccess()) {
        handshaken = true;
        connection.onHandshake(ctx.pipeline().get(SslHandler.class).engine().getSession());
      } else {
        tlsFailed(ctx, handshake.cause());
      }
      ctx.fireUserEventTriggered(event);
      return;
    }
    if (event instanceof IdleStateEvent) {
      Heartbeat heartbeat = connection.heartbeat();
      if (heartbeat != null) {
        heartbeat.onIdle();
      } else if (!connection.endpoint().settings().client()) {
        idleClosed.info("closing connection from {}: idle for {} ms", connection.remoteAddress(),
            connection.endpoint().settings().idleTimeoutMillis());
        Channels.close(ctx);
      }
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  /**
   * A TLS handshake or record failed (an untrusted, expired or missing certificate, a host name that does
   * not match, a peer without TLS): one line naming the peer and the reason, and the connection closes.
   */
  private void tlsFailed(ChannelHandlerContext ctx, Throwable reason) {
    if (closing || reason instanceof ClosedChannelException) {
      // a request written (with a void promise) just as the channel closed: the close itself fails its calls
      return;
    }
    closing = true;
    if (connection.endpoint().settings().client() && !handshaken) {
      Channels.close(ctx); // a failed connect: the connection pool's line says why, with its next attempt
      return;
    }
    String why = reason instanceof NotSslRecordException ? "the peer does not speak TLS"
        : reason.getMessage() != null ? reason.getMessage() : reason.toString();
    tlsFailures.warn("TLS with {} failed, closing the connection: {}", connection.remoteAddress(),
        MessageText.shorten(why));
    Channels.close(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable reason = cause instanceof DecoderException && !(cause instanceof BoltFrameException)
        && cause.getCause() != null ? cause.getCause() : cause;
    if (reason instanceof SSLException || reason instanceof NotSslRecordException) {
      tlsFailed(ctx, reason);
      return;
    }
    if (closing || reason instanceof ClosedChannelException) {
      // a request written (with a void promise) just as the channel closed: the close itself fails its calls
      return;
    }
    PortProtocol port = connection.endpoint().port();
    if (port != null && port.closesItself(ctx, reason, connection.remoteText())) {
      closing = true; // the protocol's codec answers the peer, then closes (or the protocol does, a little later)
      return;
    }
    if (reason instanceof CodecException && !ctx.channel().isActive()) {
      // a codec refusing what it held when the connection closed (the aggregator's "closed while still
      // aggregating"): the close has its own line already
      log.debug("connection {} -> {} closed with a message unfinished: {}", ctx.channel().localAddress(),
          connection.remoteAddress(), reason.toString());
      return;
    }
    closing = true;
    if (reason instanceof BoltFrameException) {
      badFrames.warn("closing connection {} -> {}: bad frame: {}", ctx.channel().localAddress(),
          connection.remoteAddress(), reason.getMessage());
    } else if (reason instanceof CodecException) {
      // an HTTP codec refusing the peer's bytes: the peer's doing, not a bug here
      refusedByCodec.warn("closing connection {} -> {}: {}", ctx.channel().localAddress(), connection.remoteAddress(),
          MessageText.shorten(reason.toString()));
    } else if (reason instanceof IOException || reason instanceof OutOfMemoryError) {
      // the peer went away, or this process is short of (direct) memory: expected, no stack trace
      closedByError.info("closing connection {} -> {}: {}", ctx.channel().localAddress(), connection.remoteAddress(),
          reason.toString());
    } else {
      unexpected.warn("closing connection {} -> {}: unexpected {}", ctx.channel().localAddress(),
          connection.remoteAddress(), reason.toString(), reason);
    }
    Channels.close(ctx);
  }
}
