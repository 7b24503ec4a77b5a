package io.boltgen.runtime.internal;

import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.internal.wire.FrameEncoder;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client connection's heartbeat. When nothing was read for the heartbeat interval, one heartbeat goes
 * out (never two at once, unlike SOFABolt #329); an ack with SUCCESS within the timeout resets the miss
 * count, anything else counts a miss, and the configured number of misses in a row closes the connection
 * (its calls then fail with CONNECTION_CLOSED and the pool reconnects).
 *
 * <p>State is confined to the connection's event loop; the timer only hands the timeout over to it.
 */
final class Heartbeat {

  private static final Logger log = LoggerFactory.getLogger(Heartbeat.class);
  private static final RateLimitedLog closing = RateLimitedLog.of(log);

  private final BoltConnection connection;
  private final Timer timer;
  private final long timeoutMillis;
  private final int maxMisses;
  private int outstandingId;
  private int misses;
  private Timeout ackTimeout;
  private boolean stopped;

  Heartbeat(BoltConnection connection, Timer timer, long timeoutMillis, int maxMisses) {
    this.connection = connection;
    this.timer = timer;
    this.timeoutMillis = timeoutMillis;
    this.maxMisses = maxMisses;
  }

  /** Nothing was read for the interval (IO thread). */
  void onIdle() {
    assert connection.eventLoop().inEventLoop();
    if (stopped || outstandingId != 0) {
      return;
    }
    int id = connection.nextId();
    outstandingId = id;
    connection.writeFrame(FrameEncoder.heartbeat(connection.alloc(), connection.format(), id));
    try {
      ackTimeout = timer.newTimeout(t -> {
        try {
          connection.eventLoop().execute(() -> onTimeout(id));
        } catch (RejectedExecutionException e) {
          // the event loop is gone, and the connection with it
        }
      }, timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (IllegalStateException e) {
      // the timer stopped: the process is shutting down
    }
  }

  /** A heartbeat ack arrived (IO thread). */
  void onAck(int requestId, short status) {
    assert connection.eventLoop().inEventLoop();
    if (requestId != outstandingId) {
      return; // late or unsolicited
    }
    outstandingId = 0;
    if (ackTimeout != null) {
      ackTimeout.cancel();
    }
    if (status == ResponseStatus.SUCCESS.code()) {
      misses = 0;
    } else {
      miss("answered with status " + status);
    }
  }

  private void onTimeout(int requestId) {
    assert connection.eventLoop().inEventLoop();
    if (requestId != outstandingId || stopped) {
      return;
    }
    outstandingId = 0;
    miss("not answered within " + timeoutMillis + " ms");
  }

  private void miss(String why) {
    misses++;
    if (misses >= maxMisses) {
      closing.warn("closing connection to {}: {} heartbeats in a row failed (the last {})",
          connection.remoteAddress(), misses, why);
      stopped = true;
      connection.close();
    } else {
      log.debug("heartbeat to {} {} ({} of {})", connection.remoteAddress(), why, misses, maxMisses);
    }
  }

  void stop() {
    stopped = true;
    if (ackTimeout != null) {
      ackTimeout.cancel();
    }
  }
}
