package io.boltgen.runtime.internal;

import io.netty.channel.Channel;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops reading an accepted connection while the server cannot keep up with it, so that a peer that sends
 * faster than it reads costs a bounded amount of memory:
 *
 * <ul>
 *   <li>while the channel is not writable (its outbound buffer is above the high water mark: the peer does
 *       not read its answers), and</li>
 *   <li>while {@code maxOpen} requests of the connection are open: read and not yet run to their end, or
 *       answered and the answer not yet written, and</li>
 *   <li>while the protocol holds reads ({@link #hold}): a request whose body streams has a message waiting that its
 *       call did not ask for yet.</li>
 * </ul>
 *
 * Reading resumes once the channel is writable again, at most half of {@code maxOpen} requests are open and no hold
 * is on.
 * Only the accepting side throttles: a client always reads (its responses free memory), so two peers can
 * never both wait for the other to read.
 *
 * <p>Thread-safe: {@link #open(int)} and {@link #close()} from any thread, {@link #update()} on the event loop.
 */
final class ReadThrottle {

  private static final Logger log = LoggerFactory.getLogger(ReadThrottle.class);

  private final Channel channel;
  // set on the event loop before the first request (limit), read on any thread
  private volatile int maxOpen;
  private volatile int resumeAt;
  private final AtomicInteger open = new AtomicInteger();
  private final Runnable update = this::update;
  // written on the event loop only
  private volatile boolean paused;
  private boolean held;

  ReadThrottle(Channel channel, int maxOpen) {
    this.channel = channel;
    this.maxOpen = maxOpen;
    this.resumeAt = maxOpen / 2;
  }

  /**
   * Pauses at {@code maxOpen} open requests from now on, resuming at half: an HTTP/1.1 connection's
   * pipelining bound instead of the server's Bolt one (event loop, before the connection's first request).
   */
  void limit(int maxOpen) {
    this.maxOpen = maxOpen;
    this.resumeAt = maxOpen / 2;
  }

  /** {@code count} more requests are open. */
  void open(int count) {
    open.addAndGet(count);
  }

  /** One request less is open; may resume reading. */
  void close() {
    int now = open.decrementAndGet();
    if (paused && now == resumeAt) {
      try {
        channel.eventLoop().execute(update);
      } catch (RejectedExecutionException e) {
        // the event loop is gone, and the channel with it
      }
    }
  }

  /** Holds reads while {@code hold} is true, whatever else allows them (event loop); released by false. */
  void hold(boolean hold) {
    held = hold;
    update();
  }

  /** Whether reads are paused now. */
  boolean isPaused() {
    return paused;
  }

  /** Pauses or resumes reading as the channel's writability and the open count say (event loop). */
  void update() {
    assert channel.eventLoop().inEventLoop();
    boolean writable = channel.isWritable();
    if (!paused && (!writable || open.get() >= maxOpen || held)) {
      paused = true;
      channel.config().setAutoRead(false);
      log.debug("paused reading from {}: {}", channel.remoteAddress(), !writable ? "it does not read its answers"
          : held ? "a streamed request's call has not asked for its next message"
          : open.get() + " requests open (the limit is " + maxOpen + ")");
    }
    // read the count again after pausing: a close() that crossed resumeAt before it saw the pause did not
    // schedule this update, so this is the only chance to notice
    if (paused && writable && !held && open.get() <= resumeAt) {
      paused = false;
      channel.config().setAutoRead(true);
      log.debug("resumed reading from {}", channel.remoteAddress());
    }
  }
}
