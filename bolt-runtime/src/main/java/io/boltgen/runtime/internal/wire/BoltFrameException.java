package io.boltgen.runtime.internal.wire;

import io.netty.handler.codec.CorruptedFrameException;

/**
 * The inbound stream is not valid Bolt: unknown protocol code, type, command code or status, a negative
 * length, a frame over the size limit, a V2 version that is neither 1 nor 2, a negative switch byte, a CRC
 * mismatch. The connection that sent it is closed; its message is the reason logged.
 */
public final class BoltFrameException extends CorruptedFrameException {

  private static final long serialVersionUID = 1L;

  /** A protocol violation described by {@code reason}. */
  BoltFrameException(String reason) {
    super(reason);
  }

  @Override
  public Throwable fillInStackTrace() {
    return this; // the reason is the whole story; a stack trace per bad frame is noise
  }
}
