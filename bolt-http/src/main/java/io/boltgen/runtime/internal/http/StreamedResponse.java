package io.boltgen.runtime.internal.http;

import io.netty.buffer.ByteBufHolder;
import io.netty.handler.codec.http.HttpObject;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parts of one streamed HTTP answer (its head, each chunk, its last content) on their way from the call's
 * thread to the IO thread, which writes them in order once every answer before it was written
 * ({@link HttpExchanges}). What waits here is bounded: the call is ready for another message ({@link #hasRoom})
 * only while less than {@value #ROOM_BYTES} bytes wait, and is told when the IO thread caught up ({@link #caughtUp}).
 *
 * <p>Thread-safe: parts are added from any thread, taken on the IO thread.
 */
final class StreamedResponse {

  /** Bytes of parts waiting for the IO thread below which the call may add another message. */
  static final int ROOM_BYTES = 64 * 1024;

  private final ConcurrentLinkedQueue<HttpObject> parts = new ConcurrentLinkedQueue<>();
  private final AtomicLong waitingBytes = new AtomicLong();
  private final AtomicBoolean wantsRoom = new AtomicBoolean();
  private volatile boolean released;
  // whether a task to write the parts is on its way to the IO thread
  final AtomicBoolean scheduled = new AtomicBoolean();

  /** Adds one part (taking it); one added after {@link #release} is freed at once. */
  void add(HttpObject part) {
    waitingBytes.addAndGet(size(part));
    parts.add(part);
    if (released) {
      release(); // the exchange ended meanwhile
    }
  }

  /** The next part, or null (IO thread). */
  HttpObject poll() {
    HttpObject part = parts.poll();
    if (part != null) {
      waitingBytes.addAndGet(-size(part));
    }
    return part;
  }

  /** Whether another message may be added now; if not, {@link #caughtUp} says when it may. */
  boolean hasRoom() {
    if (waitingBytes.get() < ROOM_BYTES) {
      return true;
    }
    wantsRoom.set(true);
    return waitingBytes.get() < ROOM_BYTES; // written meanwhile
  }

  /** Whether a call that found no room may go on now (IO thread, after writing): told once per wait. */
  boolean caughtUp() {
    return waitingBytes.get() < ROOM_BYTES && wantsRoom.compareAndSet(true, false);
  }

  /** Frees every part still waiting, and every part added later (the exchange ended without writing them). */
  void release() {
    released = true;
    for (HttpObject part = parts.poll(); part != null; part = parts.poll()) {
      ReferenceCountUtil.release(part);
    }
    waitingBytes.set(0);
  }

  private static long size(HttpObject part) {
    return part instanceof ByteBufHolder holder ? holder.content().readableBytes() : 0;
  }
}
