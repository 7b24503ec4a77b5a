package io.boltgen.runtime.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.MethodDescriptor;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A started server-streaming call's listener as the call tells it over Bolt: the messages the server sent, each
 * told once the caller asked for it, then the close. The server sends at most {@value #WINDOW} messages the
 * caller has not read (its credit, granted in the request and again, {@value #GRANT} at a time, as the caller
 * reads them; see {@code wire.StreamFrames}), so that what waits here is bounded and a caller that reads slowly
 * slows its server's publisher down. The end is told after the messages before it: all of them when it is
 * successful; those already asked for when it is a failure (a failure is told whatever the demand), the rest
 * dropped; none after the caller cancelled.
 *
 * <p>Threads: messages arrive on the connection's IO thread, demand and completion from any thread; the listener
 * runs on the call's callback executor, one method at a time (one drain task at a time delivers).
 *
 * @param <R> the response type
 */
final class StreamedMessages<R> implements StartedListener<R> {

  /** The credit a stream's request grants: the most messages waiting here for the caller. */
  static final int WINDOW = 16;
  /** The caller's reads are granted back to its server in steps of this many messages. */
  static final int GRANT = WINDOW / 2;

  private final ClientCall.Listener<? super R> listener;
  private final Executor executor;
  private final MethodDescriptor<?, ?> method;
  private final ReentrantLock lock = new ReentrantLock();
  @GuardedBy("lock")
  private final ArrayDeque<R> arrived = new ArrayDeque<>(WINDOW);
  @GuardedBy("lock")
  private long demand;
  @GuardedBy("lock")
  private boolean draining;
  @GuardedBy("lock")
  private boolean ended; // the server's end came: told once what arrived before it was read
  @GuardedBy("lock")
  private boolean closed; // the close was handed to the listener (or is being)
  @GuardedBy("lock")
  private Throwable failure;
  @GuardedBy("lock")
  private boolean readyToTell; // the call can send its requests again: the listener is told onReady
  private Map<String, String> trailers = Map.of(); // set before the end completes the call
  // where credit goes: the connection and request id the messages arrived on (IO thread; read by the drain)
  private volatile BoltStreams streams;
  private volatile int requestId;
  private int read; // read and not yet granted back (the drain task's)

  StreamedMessages(ClientCall.Listener<? super R> listener, Executor executor, MethodDescriptor<?, ?> method) {
    this.listener = listener;
    this.executor = executor;
    this.method = method;
  }

  /**
   * One message from the server (IO thread), arrived on {@code streams}' connection as {@code requestId}; false
   * when the server sent more than its credit allows (the caller then fails the call).
   */
  boolean onMessage(R message, BoltStreams streams, int requestId) {
    this.streams = streams;
    this.requestId = requestId;
    lock.lock();
    try {
      if (closed) {
        return true; // failed or cancelled meanwhile: dropped
      }
      if (arrived.size() >= WINDOW) {
        return false;
      }
      arrived.add(message);
    } finally {
      lock.unlock();
    }
    drainLater();
    return true;
  }

  /** The call can send its stream of requests again (any thread): the listener is told, in turn. */
  void ready() {
    lock.lock();
    try {
      readyToTell = true;
    } finally {
      lock.unlock();
    }
    drainLater();
  }

  /** The header entries the server ended the stream with, set before the end completes the call. */
  void trailers(Map<String, String> entries) {
    trailers = entries;
  }

  @Override
  public void request(int count) {
    lock.lock();
    try {
      demand = demand + count < 0 ? Long.MAX_VALUE : demand + count;
    } finally {
      lock.unlock();
    }
    drainLater();
  }

  @Override
  public void onComplete(R ignored, Throwable error) {
    lock.lock();
    try {
      if (error != null) {
        failure = Callbacks.unwrap(error);
        if (failure instanceof CancellationException) {
          arrived.clear(); // the caller cancelled: nothing more is told but the close
        }
      }
      ended = true;
    } finally {
      lock.unlock();
    }
    drainLater();
  }

  private void drainLater() {
    lock.lock();
    try {
      if (draining || closed || !((ended && (arrived.isEmpty() || failure != null))
          || (demand > 0 && !arrived.isEmpty()) || readyToTell)) {
        return;
      }
      draining = true;
    } finally {
      lock.unlock();
    }
    Callbacks.execute(executor, this::drain, "listener", method);
  }

  /** Tells the listener what it asked for, and the close once everything before it was told (one at a time). */
  private void drain() {
    while (true) {
      R next;
      Throwable error;
      boolean open;
      boolean tellReady = false;
      lock.lock();
      try {
        open = !ended;
        if (readyToTell && !closed) {
          readyToTell = false;
          tellReady = true;
          next = null;
          error = null;
        } else if (!arrived.isEmpty() && demand > 0 && !closed) {
          next = arrived.poll();
          demand--;
          error = null;
        } else if (ended && (arrived.isEmpty() || failure != null) && !closed) {
          closed = true; // a failure after the messages asked for: the others are dropped
          arrived.clear();
          next = null;
          error = failure;
        } else {
          draining = false;
          return;
        }
      } finally {
        lock.unlock();
      }
      if (tellReady) {
        ready(listener);
      } else if (next != null) {
        tell(next, open);
      } else {
        close(error);
      }
    }
  }

  /** Tells one message, and grants the server more once the caller read {@value #GRANT} while it streams on. */
  private void tell(R message, boolean open) {
    try {
      listener.onMessage(message);
    } catch (RuntimeException | Error e) {
      Callbacks.threw("listener", method, e);
    }
    if (++read >= GRANT && open) {
      BoltStreams to = streams;
      if (to != null) {
        to.credit(requestId, read);
      }
      read = 0;
    }
  }

  private void ready(ClientCall.Listener<? super R> caller) {
    try {
      caller.onReady();
    } catch (RuntimeException | Error e) {
      Callbacks.threw("listener", method, e);
    }
  }

  private void close(Throwable error) {
    try {
      listener.onClose(error, error == null ? trailers : Map.of());
    } catch (RuntimeException | Error e) {
      Callbacks.threw("listener", method, e);
    }
  }
}
