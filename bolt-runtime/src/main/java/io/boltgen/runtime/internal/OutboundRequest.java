package io.boltgen.runtime.internal;

import io.netty.buffer.ByteBuf;

/**
 * A request frame waiting in a connection's write queue with the call it belongs to. The transport owns it:
 * the queue writes the frame while the call still waits (and frees it if the call completed first); a failed
 * write closes the connection, which fails the call with {@code CONNECTION_CLOSED}.
 *
 * <p>The frame is handed over once, on the connection's event loop (or by {@link BoltConnection#send} when
 * the queue refuses it).
 */
final class OutboundRequest {

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
}
