package io.boltgen.runtime.internal;

import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.VoidChannelPromise;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frames waiting to be written to one channel, from any thread. One task on the channel's event loop
 * drains the queue, writing frames and flushing once per batch (and every {@value #FLUSH_EVERY} frames):
 * many calls or answers share one system call, and a writer thread never waits for the IO thread.
 *
 * <p>On the IO thread itself (a call made from a callback that runs there, a handler on a direct executor),
 * a frame with nothing queued before it skips the queue: it is written at once and flushed with the
 * others written in the same turn of the event loop, by one task.
 *
 * <p>Back-pressure: the queue hands frames to the channel only while the channel is writable (its
 * outbound buffer below the high water mark). When it is not, the rest waits here and the drain resumes
 * when the channel becomes writable again ({@link #resume()}). So the channel's own buffer holds at most
 * the high water mark plus one frame; frames encoded before they were queued (requests, error answers,
 * heartbeats) are counted in {@link #queuedBytes()}, which callers hold below their budget; answers are
 * queued before they are encoded and cost no buffer until they leave.
 *
 * <p>Items are a {@link ByteBuf} (heartbeats, oneway requests, error answers: written with the void
 * promise), an {@link OutboundRequest} (a request frame with its call, written with a void promise that
 * reports a failure to the pipeline, which closes the connection and so fails the call), or a
 * {@link DeferredFrame} (a server's answer) that is encoded here, on the IO thread.
 *
 * <p>Thread-safe: enqueue from any thread; draining, purging and discarding run on the channel's event
 * loop (discarding also on the caller's thread once the event loop is gone).
 */
final class WriteQueue implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(WriteQueue.class);
  private static final RateLimitedLog encodeFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog drainFailures = RateLimitedLog.of(log);

  static final int FLUSH_EVERY = 128;

  private final Channel channel;
  private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final AtomicBoolean purgeScheduled = new AtomicBoolean();
  private final AtomicLong queuedBytes = new AtomicLong();
  // a failed write of an answer or heartbeat means a dead channel, which closes anyway: stay quiet
  private final VoidChannelPromise voidPromise;
  private final VoidChannelPromise requestPromise;
  private final OutboundMemory memory;
  private final IdleTimeout idleTimeout; // told once per drain that the connection wrote; may be null
  private final Runnable purge = this::purgeNow;
  private final Runnable flushWritten = this::flushWrittenNow;
  // frames that skipped the queue and wait for a flush (event loop only)
  private boolean flushScheduled;
  private int writtenUnflushed;
  // what this queue last reported to the process-wide account (written on the event loop)
  private volatile long reported;
  // set once the process-wide account chose this queue's connection to close
  private volatile boolean shed;

  WriteQueue(Channel channel, OutboundMemory memory, IdleTimeout idleTimeout) {
    this.channel = channel;
    this.idleTimeout = idleTimeout;
    this.voidPromise = new VoidChannelPromise(channel, false);
    this.requestPromise = new VoidChannelPromise(channel, true);
    this.memory = memory;
  }

  /** Encoded bytes queued and not yet handed to the channel. */
  long queuedBytes() {
    return queuedBytes.get();
  }

  /** Encoded bytes queued here plus those the channel holds and has not yet written to the socket. */
  long outboundBytes() {
    ChannelOutboundBuffer buffer = channel.unsafe().outboundBuffer();
    return queuedBytes.get() + (buffer == null ? 0 : buffer.totalPendingWriteBytes());
  }

  /** Queues an encoded frame whatever the budget (heartbeats, acks, error answers); takes ownership. */
  void enqueue(ByteBuf frame) {
    queuedBytes.addAndGet(frame.readableBytes());
    queue.add(frame);
    schedule();
  }

  /**
   * Queues an encoded frame unless the queue would then hold more than {@code budget} bytes (a frame into an
   * empty queue always fits, however large). Takes ownership only when it returns true.
   */
  boolean tryEnqueue(ByteBuf frame, long budget) {
    if (!reserve(frame.readableBytes(), budget)) {
      return false;
    }
    queue.add(frame);
    schedule();
    return true;
  }

  /**
   * Queues a request frame of {@code bytes} bytes with its call, unless the queue would then
   * hold more than {@code budget} bytes (see {@link #tryEnqueue(ByteBuf, long)}). The frame's ownership
   * passes to the queue only when it returns true.
   */
  boolean tryEnqueue(OutboundRequest request, int bytes, long budget) {
    if (canWriteNow()) {
      writeRequest(request);
      writtenNow();
      return true;
    }
    if (!reserve(bytes, budget)) {
      return false;
    }
    queue.add(request);
    schedule();
    return true;
  }

  private boolean reserve(int bytes, long budget) {
    long after = queuedBytes.addAndGet(bytes);
    if (after > budget && after != bytes) {
      queuedBytes.addAndGet(-bytes);
      purgeLater(); // calls that completed while they waited here still hold their frames: free them
      return false;
    }
    return true;
  }

  /** Queues a frame the IO thread will encode (or, called on the IO thread with nothing queued, writes it now). */
  void enqueue(DeferredFrame frame) {
    if (canWriteNow()) {
      writeDeferred(frame);
      writtenNow();
      return;
    }
    queue.add(frame);
    schedule();
  }

  /**
   * Whether a frame may skip the queue: on the IO thread (a call made, or a handler run, there), with nothing
   * queued that it would overtake, on a channel that takes it now. The frame is then written at once and
   * flushed with the others written until the event loop runs its tasks: no queue, no task per frame.
   */
  private boolean canWriteNow() {
    return channel.eventLoop().inEventLoop() && queue.isEmpty() && channel.isActive() && channel.isWritable();
  }

  /** After a frame skipped the queue: flushes every {@value #FLUSH_EVERY} frames, and once more soon after. */
  private void writtenNow() {
    if (++writtenUnflushed >= FLUSH_EVERY) {
      channel.flush();
      writtenUnflushed = 0;
    }
    if (!flushScheduled) {
      flushScheduled = true;
      try {
        channel.eventLoop().execute(flushWritten);
      } catch (RejectedExecutionException e) {
        flushWrittenNow(); // the event loop is shutting down: flush what can still leave
      }
    }
  }

  /** Flushes what skipped the queue (event loop). */
  private void flushWrittenNow() {
    flushScheduled = false;
    writtenUnflushed = 0;
    try {
      channel.flush();
      if (idleTimeout != null) {
        idleTimeout.touch();
      }
    } catch (Throwable e) {
      drainFailures.warn("closing connection to {}: flushing failed unexpectedly", channel.remoteAddress(), e);
      Channels.close(channel);
    }
    report();
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

  /** The channel became writable again: drain what waited (event loop). */
  void resume() {
    if (!queue.isEmpty()) {
      schedule();
    }
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
      try {
        if (channel.isActive()) {
          drain();
        } else {
          discardAll(); // closed: whatever was queued after the close would otherwise stay forever
        }
      } catch (Throwable e) {
        // a bug: the queue must not stall, and the callers on this connection must not wait for timeouts
        drainFailures.warn("closing connection to {}: writing failed unexpectedly", channel.remoteAddress(), e);
        Channels.close(channel);
      } finally {
        scheduled.set(false);
      }
      report();
      // more arrived meanwhile, and the channel can take it: go on, unless another task already will
      if (queue.isEmpty() || (channel.isActive() && !channel.isWritable()) || !scheduled.compareAndSet(false, true)) {
        return;
      }
    }
  }

  private void drain() {
    assert channel.eventLoop().inEventLoop();
    int sinceFlush = 0;
    long bytes = 0;
    boolean wrote = false;
    try {
      Object item;
      while (channel.isWritable() && (item = queue.poll()) != null) {
        wrote = true;
        if (item instanceof ByteBuf) {
          ByteBuf frame = (ByteBuf) item;
          bytes += frame.readableBytes();
          write(frame, voidPromise);
        } else if (item instanceof DeferredFrame) {
          writeDeferred((DeferredFrame) item);
        } else {
          bytes += writeRequest((OutboundRequest) item);
        }
        if (++sinceFlush == FLUSH_EVERY) {
          queuedBytes.addAndGet(-bytes);
          bytes = 0;
          sinceFlush = 0;
          channel.flush();
        }
      }
    } finally {
      queuedBytes.addAndGet(-bytes);
      if (wrote) {
        channel.flush();
        if (idleTimeout != null) {
          idleTimeout.touch();
        }
      }
    }
  }

  /** Writes a request's frame unless its call is already done; returns the frame's size. */
  private int writeRequest(OutboundRequest request) {
    ByteBuf frame = request.takeFrame();
    int bytes = frame.readableBytes();
    // marked before the check: a thread failing the call meanwhile either sees it written (and never
    // sends it again elsewhere) or is seen here (and the frame is dropped)
    request.call().markWritten();
    if (request.call().isDone()) {
      frame.release(); // timed out or failed while it waited
      return bytes;
    }
    // no promise per request: a failed write fires exceptionCaught, which closes the connection and
    // fails every call waiting on it (this one included) with CONNECTION_CLOSED
    write(frame, requestPromise);
    return bytes;
  }

  /**
   * Encodes and writes an answer. The answer reports its own codec failures to its caller (an error
   * status); if even that fails (no memory for an error answer), the connection is closed, so that its
   * callers learn at once that no answer is coming instead of waiting for their timeouts.
   */
  private void writeDeferred(DeferredFrame deferred) {
    ByteBuf frame;
    try {
      frame = deferred.encode();
    } catch (Throwable e) {
      encodeFailures.warn("closing connection to {}: could not encode an answer ({}) and not even an error"
          + " answer; the callers waiting on this connection fail with CONNECTION_CLOSED", channel.remoteAddress(),
          e.toString());
      Channels.close(channel);
      return;
    }
    write(frame, voidPromise);
  }

  /**
   * Hands {@code frame} to the channel. Its future is the void promise passed in, which is why it is not watched:
   * {@link #voidPromise} drops a failure (the channel is dead and closes anyway), {@link #requestPromise} fires it
   * through the pipeline, which closes the connection and so fails its calls.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // returns the void promise passed in: see above
  private void write(ByteBuf frame, VoidChannelPromise promise) {
    channel.write(frame, promise);
  }

  /** Reports this queue's outbound bytes to the process-wide account (event loop). */
  void report() {
    if (memory == null) {
      return;
    }
    long now = channel.isActive() ? outboundBytes() : 0;
    long delta = now - reported;
    // small moves are not worth a shared atomic: the account is about megabytes
    if (delta != 0 && (now == 0 || Math.abs(delta) >= OutboundMemory.REPORT_STEP)) {
      reported = now;
      memory.add(delta);
    }
  }

  /** The bytes this queue last reported to the process-wide account. */
  long reported() {
    return reported;
  }

  /** Whether the process-wide account already chose this queue's connection to close. */
  boolean isShed() {
    return shed;
  }

  /** Closes the channel: the process holds too many outbound bytes, and this queue holds the most. */
  void shed() {
    shed = true;
    Channels.close(channel);
  }

  Channel channel() {
    return channel;
  }

  private void purgeLater() {
    if (purgeScheduled.compareAndSet(false, true)) {
      try {
        channel.eventLoop().execute(purge);
      } catch (RejectedExecutionException e) {
        purgeScheduled.set(false);
      }
    }
  }

  /**
   * Frees the frames of calls that completed (timed out) while they waited in the queue (event loop: the
   * only thread that removes items, so a removal here never races a drain).
   */
  private void purgeNow() {
    purgeScheduled.set(false);
    long freed = 0;
    for (Iterator<Object> it = queue.iterator(); it.hasNext(); ) {
      Object item = it.next();
      if (item instanceof OutboundRequest request && request.call().isDone()) {
        it.remove();
        ByteBuf frame = request.takeFrame();
        freed += frame.readableBytes();
        frame.release();
      }
    }
    queuedBytes.addAndGet(-freed);
  }

  /**
   * Releases every queued frame (the channel is gone); calls among them fail through their own paths,
   * answers are told that they will never leave.
   */
  void discardAll() {
    Object item;
    while ((item = queue.poll()) != null) {
      if (item instanceof DeferredFrame) {
        ((DeferredFrame) item).discard();
        continue;
      }
      ByteBuf frame = item instanceof ByteBuf ? (ByteBuf) item : ((OutboundRequest) item).takeFrame();
      queuedBytes.addAndGet(-frame.readableBytes());
      frame.release();
    }
  }
}
