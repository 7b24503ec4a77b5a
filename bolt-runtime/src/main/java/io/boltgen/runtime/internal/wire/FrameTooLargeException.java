package io.boltgen.runtime.internal.wire;

/**
 * A frame that would be larger than its receiver accepts. Thrown before any buffer is allocated, so that
 * only the call or answer it belongs to fails and the connection stays usable.
 */
public final class FrameTooLargeException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final long frameLength;
  private final int limit;

  FrameTooLargeException(long frameLength, int limit) {
    super("a frame of " + frameLength + " bytes exceeds the peer's limit of " + limit + " bytes");
    this.frameLength = frameLength;
    this.limit = limit;
  }

  /** The size the frame would have had, in bytes. */
  public long frameLength() {
    return frameLength;
  }

  /** The largest frame the receiver accepts, in bytes. */
  public int limit() {
    return limit;
  }
}
