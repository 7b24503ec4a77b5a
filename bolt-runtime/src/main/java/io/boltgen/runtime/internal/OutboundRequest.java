package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;

/**
 * A request frame waiting in a connection's write queue with the call it belongs to. The transport owns it:
 * the queue writes the frame while the call still waits (and frees it if the call completed first), and a
 * failed write fails the call with {@code CLIENT_SEND_ERROR}.
 *
 * <p>The frame is handed over once, on the connection's event loop (or by {@link BoltConnection#send} when
 * the queue refuses it).
 */
final class OutboundRequest implements ChannelFutureListener {

  private final PendingCall<?> call;
  private ByteBuf frame;

  OutboundRequest(PendingCall<?> call, ByteBuf frame) {
    this.call = call;
    this.frame = frame;
  }

  PendingCall<?> call() {
    return call;
  }

  /** The frame, taken out: the caller writes or releases it. */
  ByteBuf takeFrame() {
    ByteBuf f = frame;
    frame = null;
    return f;
  }

  /** The write finished: a failure fails the call. */
  @Override
  public void operationComplete(ChannelFuture future) {
    if (!future.isSuccess()) {
      call.fail(new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "could not send " + call.method().wireName()
          + " to " + call.remoteAddress() + " (request id " + call.requestId() + "): " + future.cause(),
          null, null, call.remoteAddress(), call.requestId(), future.cause()));
    }
  }
}
