package io.boltgen.runtime.transport;

import io.netty.buffer.ByteBuf;

/** A frame queued before it is encoded: the write queue encodes it on the IO thread when it drains. */
public interface DeferredFrame {

  /** Encodes the frame (IO thread); the queue writes and releases it. */
  ByteBuf encode();
}
