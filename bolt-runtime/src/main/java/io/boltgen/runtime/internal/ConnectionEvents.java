package io.boltgen.runtime.internal;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ConnectionListener;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers connection events to the listeners of one endpoint, one at a time and in order, on a single
 * daemon thread of its own (started only when there are listeners), so a slow listener never stalls IO.
 * At most {@value #MAX_QUEUED} events wait for a listener that is behind; more are dropped, with a
 * rate-limited log line.
 */
public final class ConnectionEvents {

  /** Events waiting for their listeners at most. */
  static final int MAX_QUEUED = 10_000;

  private static final Logger log = LoggerFactory.getLogger(ConnectionEvents.class);
  private static final RateLimitedLog dropped = RateLimitedLog.of(log);
  private static final RateLimitedLog listenerFailures = RateLimitedLog.of(log);

  private final List<ConnectionListener> listeners;
  private final ThreadPoolExecutor executor;

  /** Events for {@code listeners}; {@code name} names the delivering thread. */
  public ConnectionEvents(List<ConnectionListener> listeners, String name) {
    this.listeners = List.copyOf(listeners);
    this.executor = this.listeners.isEmpty() ? null
        : new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(MAX_QUEUED),
            new DefaultThreadFactory("boltgen-events-" + name, true));
  }

  void connected(Connection connection) {
    fire(l -> l.onConnect(connection));
  }

  void closed(Connection connection) {
    fire(l -> l.onClose(connection));
  }

  /** A client's connection attempt to {@code address} failed. */
  void connectFailed(SocketAddress address, Throwable cause) {
    fire(l -> l.onConnectFailed(address, cause));
  }

  private void fire(Consumer<ConnectionListener> event) {
    if (executor == null) {
      return;
    }
    try {
      executor.execute(() -> {
        for (ConnectionListener listener : listeners) {
          try {
            event.accept(listener);
          } catch (RuntimeException e) {
            listenerFailures.warn("connection listener {} threw {}", listener, e.toString());
          }
        }
      });
    } catch (RejectedExecutionException e) {
      if (!executor.isShutdown()) {
        dropped.warn("connection event dropped: {} events already wait for the listeners", MAX_QUEUED);
      }
    }
  }

  /** Delivers the events already fired (waiting up to {@code timeoutMillis}), then stops the thread. */
  public void shutdown(long timeoutMillis) {
    if (executor == null) {
      return;
    }
    executor.shutdown();
    try {
      if (!executor.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
