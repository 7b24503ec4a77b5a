package io.boltgen.runtime.internal;

import io.netty.channel.Channel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A server connection's idle timeout: once nothing was read from it or written to it for the idle time, and no
 * call is in progress on it (as the protocol that took it over says, {@link #busyWhile}: a quiet stream or a slow
 * handler is not idleness), it fires an {@link IdleStateEvent} down its pipeline (where {@link InboundHandler}
 * closes it), as Netty's
 * {@code IdleStateHandler} with an all-idle time does. Unlike that handler it adds nothing to a write: the
 * write queue says when it wrote a batch ({@link #touch()} once per drain), instead of a promise and a
 * listener per frame.
 *
 * <p>Event loop only: one task scheduled on the channel's event loop at a time, measured on the loop's ticker.
 */
final class IdleTimeout implements Runnable {

  private final Channel channel;
  private final long idleNanos;
  private final Ticker ticker;
  private long lastActivity;
  private Future<?> task;
  private boolean stopped;
  // whether calls are in progress, for a protocol whose peers do not heartbeat; null: idle time alone decides
  private BooleanSupplier busy;

  IdleTimeout(Channel channel, long idleMillis) {
    this.channel = channel;
    this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
    this.ticker = channel.eventLoop().ticker();
  }

  /** The connection became active: the idle time starts now. */
  void start() {
    lastActivity = ticker.nanoTime();
    task = channel.eventLoop().schedule(this, idleNanos, TimeUnit.NANOSECONDS);
  }

  /** While {@code callsInProgress} says so, the connection is not idle, however quiet (event loop). */
  void busyWhile(BooleanSupplier callsInProgress) {
    this.busy = callsInProgress;
  }

  private boolean callsInProgress() {
    try {
      return busy != null && busy.getAsBoolean();
    } catch (Throwable e) {
      return false; // the protocol cannot say: idle time alone decides, and the timer goes on
    }
  }

  /** Something was read or written now. */
  void touch() {
    lastActivity = ticker.nanoTime();
  }

  /** The connection closed: nothing more to time. */
  void stop() {
    stopped = true;
    if (task != null) {
      task.cancel(false);
      task = null;
    }
  }

  @Override
  public void run() {
    if (stopped || !channel.isOpen()) {
      return;
    }
    long left = idleNanos - (ticker.nanoTime() - lastActivity);
    if (left <= 0 && callsInProgress()) {
      lastActivity = ticker.nanoTime(); // a call in progress: the idle time starts again when it is over
      left = idleNanos;
    }
    if (left > 0) {
      task = channel.eventLoop().schedule(this, left, TimeUnit.NANOSECONDS);
      return;
    }
    task = null;
    channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
  }
}
