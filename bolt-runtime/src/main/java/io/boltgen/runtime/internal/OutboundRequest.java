package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.internal.wire.Bolt;
import io.boltgen.runtime.internal.wire.FrameEncoder;
import io.boltgen.runtime.internal.wire.FrameFormat;
import io.boltgen.runtime.internal.wire.FrameTooLargeException;
import io.boltgen.runtime.internal.wire.HeadersCodec;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

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

  /**
   * The request frame of {@code call} as {@code requestId}, its timeout field the time the call has left;
   * {@code null} after failing the call with {@code CODEC_EXCEPTION}: a value that cannot be encoded (nested
   * too deeply or in a cycle, a failing codec) or a frame larger than the peer accepts.
   */
  static ByteBuf encode(PendingCall<?> call, int requestId, ByteBufAllocator alloc, FrameFormat format, WireNames names,
      int peerMaxFrameLength) {
    MethodDescriptor<Object, ?> method = call.method();
    boolean oneway = call.isOneway();
    try {
      if (call.outgoing() != null) { // a stream of requests: the request carries none, its messages follow
        return StreamFrames.opening(alloc, format, requestId, Math.max(1, call.remainingMillis()), names.of(method),
            HeadersCodec.merge(method.requestHeaders(), call.options().headers()),
            method.requestMarshaller().codecId(), peerMaxFrameLength);
      }
      return FrameEncoder.request(alloc, format, oneway ? Bolt.TYPE_ONEWAY : Bolt.TYPE_REQUEST, requestId,
          oneway ? Bolt.NO_TIMEOUT : Math.max(1, call.remainingMillis()), names.of(method),
          HeadersCodec.merge(method.requestHeaders(), call.options().headers()), method.requestMarshaller(),
          call.takeRequest(), peerMaxFrameLength);
    } catch (FrameTooLargeException e) {
      call.fail(new BoltException(ResponseStatus.CODEC_EXCEPTION, "the request of " + method.toString()
          + " is a frame of " + e.frameLength() + " bytes, over the " + e.limit() + "-byte limit of frames the peer"
          + " accepts (peerMaxFrameLength); it was not sent", null, null, null, 0, e));
      return null;
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      call.fail(new BoltException(ResponseStatus.CODEC_EXCEPTION,
          "could not encode the request of " + method.toString() + ": " + e, null, null, null, 0, e));
      return null;
    }
  }

  /** The frame, taken out: the caller writes or releases it. */
  ByteBuf takeFrame() {
    ByteBuf f = frame;
    frame = null;
    return f;
  }
}
