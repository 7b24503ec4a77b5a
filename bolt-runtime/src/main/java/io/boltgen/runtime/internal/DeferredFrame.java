package io.boltgen.runtime.internal;

import io.netty.buffer.ByteBuf;

/**
 * A frame queued before it is encoded (a server's answer): the write queue encodes it on the IO thread when
 * the channel can take it, or discards it when the channel closed first. Exactly one of the two happens.
 */
public interface DeferredFrame {

  /** Encodes the frame (IO thread); the queue writes and releases it. */
  ByteBuf encode();

  /** The channel closed before the frame could be encoded: it will never be written. */
  void discard();
}
