package io.boltgen.runtime.internal.grpc;

import io.boltgen.runtime.call.StatusCode;
import io.boltgen.runtime.internal.Channels;
import io.boltgen.runtime.support.MessageText;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The answer of one call of {@code grpc.health.v1.Health} on a gRPC stream: a check's one message, or a watch's
 * status now, then {@code NOT_SERVING} when the server begins to close, until the caller goes away or its
 * {@code grpc-timeout} passes ({@code DEADLINE_EXCEEDED}).
 *
 * <p>Confined to the stream's IO thread, but for {@link #notServing}, which only queues a message.
 */
final class GrpcHealthWatch implements GrpcHealth.Watcher {

  private final GrpcCalls protocol;
  private final Channel channel;
  private final GrpcAnswer answer;
  private final String where;
  // whether it watches, and when its grpc-timeout passes
  private boolean watching;
  private ScheduledFuture<?> deadline;

  /** The health call {@code where} (its stream and caller, for a log line), answered on {@code channel}. */
  GrpcHealthWatch(GrpcCalls protocol, Channel channel, GrpcAnswer answer, String where) {
    this.protocol = protocol;
    this.channel = channel;
    this.answer = answer;
    this.where = where;
  }

  /** Answers {@code method} ({@link GrpcHealth#CHECK} or {@link GrpcHealth#WATCH}) to {@code request} (taken over). */
  void answer(String method, ByteBuf request, long timeoutMillis) {
    boolean watch = method.equals(GrpcHealth.WATCH);
    GrpcHealth.Answer status = protocol.health().check(request, channel.alloc(), watch ? this : null);
    if (!watch || status.failure() != null) {
      answer.end(status.message(), status.failure() == null ? StatusCode.OK : status.failure(), status.why(), null);
      return;
    }
    watching = true;
    answer.message(status.message());
    if (timeoutMillis > 0) {
      deadline = channel.eventLoop().schedule(() -> timedOut(timeoutMillis), timeoutMillis, TimeUnit.MILLISECONDS);
    }
  }

  /** The server began to close (its closing thread): a watch is told {@code NOT_SERVING}. */
  @Override
  public void notServing() {
    answer.message(GrpcHealth.status(channel.alloc(), GrpcHealth.NOT_SERVING));
  }

  /** The watch's {@code grpc-timeout} passed: it ends {@code DEADLINE_EXCEEDED}. */
  private void timedOut(long timeoutMillis) {
    try {
      protocol.health().unwatch(this);
      answer.end(null, StatusCode.DEADLINE_EXCEEDED, GrpcHealth.WATCH + " did not end its stream within "
          + timeoutMillis + " ms", null);
    } catch (Throwable e) {
      protocol.refusals().warn("gRPC health watch {} could not be ended, closing it: {}", where,
          MessageText.shorten(e.toString()));
      Channels.close(channel);
    }
  }

  /** The caller went away: the watch is forgotten. */
  void stop() {
    if (watching) {
      protocol.health().unwatch(this);
      if (deadline != null) {
        deadline.cancel(false);
      }
    }
  }
}
