package io.boltgen.runtime.transport;

import io.boltgen.runtime.invoke.PendingCall;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.VoidChannelPromise;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frames waiting to be written to one channel, from any thread. One task on the channel's event loop
 * drains the queue, writing every frame and flushing once per batch (and every {@value #FLUSH_EVERY}
 * frames): many calls or responses share one system call, and a writer thread never waits for the IO
 * thread. Queued bytes are counted, so a connection whose queue and outbound buffer grow past their
 * limits refuses new calls instead of buffering without bound.
 *
 * <p>Items are a {@link ByteBuf} (heartbeats, oneway requests, error answers: written with the void
 * promise), a {@link PendingCall} holding its encoded frame (a failed write fails the call), or a
 * {@link DeferredFrame} (a server's answer) that is encoded here, on the IO thread.
 */
final class WriteQueue implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(WriteQueue.class);

  static final int FLUSH_EVERY = 128;

  private final Channel channel;
  private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final AtomicLong queuedBytes = new AtomicLong();
  // a failed write of a response or heartbeat means a dead channel, which closes anyway: stay quiet
  private final VoidChannelPromise voidPromise;

  WriteQueue(Channel channel) {
    this.channel = channel;
    this.voidPromise = new VoidChannelPromise(channel, false);
  }

  /** Bytes queued and not yet handed to the channel. */
  long queuedBytes() {
    return queuedBytes.get();
  }

  /** Queues an encoded frame; ownership passes to the queue. */
  void enqueue(ByteBuf frame) {
    queuedBytes.addAndGet(frame.readableBytes());
    queue.add(frame);
    schedule();
  }

  /** Queues a frame the IO thread will encode. */
  void enqueue(DeferredFrame frame) {
    queue.add(frame);
    schedule();
  }

  /**
   * Queues a frame the IO thread will encode, without waking it: the caller promises a {@link #flush()}
   * soon (after a batch of answers), so that the whole batch leaves in one write.
   */
  void enqueueLater(DeferredFrame frame) {
    queue.add(frame);
  }

  /** Makes sure frames queued with {@link #enqueueLater} get written. */
  void flush() {
    if (!queue.isEmpty()) {
      schedule();
    }
  }

  /** Queues a call whose encoded frame is parked in it; the frame's ownership passes to the queue. */
  void enqueue(PendingCall<?> call, int bytes) {
    queuedBytes.addAndGet(bytes);
    queue.add(call);
    schedule();
  }

  private void schedule() {
    if (scheduled.compareAndSet(false, true)) {
      try {
        channel.eventLoop().execute(this);
      } catch (RejectedExecutionException e) {
        // the event loop is shutting down: nothing will ever be written
        scheduled.set(false);
        discardAll();
      }
    }
  }

  @Override
  public void run() {
    for (;;) {
      drain();
      scheduled.set(false);
      if (queue.isEmpty() || !scheduled.compareAndSet(false, true)) {
        return;
      }
    }
  }

  private void drain() {
    int sinceFlush = 0;
    long bytes = 0;
    boolean wrote = false;
    Object item;
    while ((item = queue.poll()) != null) {
      wrote = true;
      if (item instanceof ByteBuf) {
        ByteBuf frame = (ByteBuf) item;
        bytes += frame.readableBytes();
        channel.write(frame, voidPromise);
      } else if (item instanceof DeferredFrame) {
        ByteBuf frame;
        try {
          frame = ((DeferredFrame) item).encode();
        } catch (RuntimeException | OutOfMemoryError e) {
          // encode() answers its own codec failures; this is worse (no memory for even an error answer):
          // drop this frame, keep the queue draining for the others
          log.warn("could not encode a frame for {}: {}", channel.remoteAddress(), e.toString());
          continue;
        }
        channel.write(frame, voidPromise);
      } else {
        PendingCall<?> call = (PendingCall<?>) item;
        ByteBuf frame = call.takeOutbound();
        bytes += frame.readableBytes();
        if (call.isDone()) {
          frame.release(); // timed out or failed while it waited here
          continue;
        }
        channel.write(frame).addListener(call);
      }
      if (++sinceFlush == FLUSH_EVERY) {
        queuedBytes.addAndGet(-bytes);
        bytes = 0;
        sinceFlush = 0;
        channel.flush();
      }
    }
    queuedBytes.addAndGet(-bytes);
    if (wrote) {
      channel.flush();
    }
  }

  /** Releases every queued frame (the channel is gone); calls among them fail through their own paths. */
  void discardAll() {
    Object item;
    while ((item = queue.poll()) != null) {
      if (item instanceof DeferredFrame) {
        continue; // never encoded: nothing to free
      }
      ByteBuf frame = item instanceof ByteBuf ? (ByteBuf) item : ((PendingCall<?>) item).takeOutbound();
      queuedBytes.addAndGet(-frame.readableBytes());
      frame.release();
    }
  }
}
