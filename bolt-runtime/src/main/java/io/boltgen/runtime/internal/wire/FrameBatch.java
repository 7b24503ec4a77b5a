package io.boltgen.runtime.internal.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * Every whole frame that one decode pass found in the inbound buffer, in arrival order. The receiver owns
 * the frames (see {@link BoltFrame} for ownership).
 *
 * <p>Not thread-safe: filled on the IO thread, then handed over whole.
 */
public final class FrameBatch {

  private final List<BoltFrame> frames;

  FrameBatch(int expected) {
    this.frames = new ArrayList<>(expected);
  }

  void add(BoltFrame frame) {
    frames.add(frame);
  }

  /** The number of frames. */
  public int size() {
    return frames.size();
  }

  /** The frame at {@code index}. */
  public BoltFrame get(int index) {
    return frames.get(index);
  }
}
