package io.boltgen.runtime.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.internal.wire.StreamFrames;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A call's stream of requests over Bolt, as boltgen's extension carries it ({@link StreamFrames}): each message the
 * caller sends goes out as a oneway frame of the call's request id once the call's request is on a connection and
 * the server has granted credit for it; the others wait here, in order, and so does the end of the caller's side
 * (the {@code end} control frame), which follows the last of them. The call is ready ({@link #isReady}) while a
 * message sent now leaves at once.
 *
 * <p>What waits here is bounded by the caller, which sends while the call is ready (a stub's publisher is asked for
 * at most 16 messages ahead); the server grants what its handler asks for. A caller that sends regardless meets
 * {@value #MAX_WAITING} waiting messages at most: the next one cancels its call and is refused.
 *
 * <p>Thread-safe: the caller sends from its thread, credit arrives on the connection's IO thread. One thread at a
 * time takes what may leave and encodes and writes it, outside the lock, so that frames leave in the order the
 * messages were sent and the IO thread never waits on an encoding: credit that arrives meanwhile is left to that
 * thread.
 */
final class OutgoingRequests {

  private static final Object END = new Object();

  /**
   * The most messages that wait for credit: a caller that sends without waiting for the call to be ready (a raw
   * {@link io.boltgen.runtime.ClientCall} user) is told at the next one, and its call cancelled.
   */
  static final int MAX_WAITING = 1024;

  private final PendingCall<?> call;
  private final MethodDescriptor<Object, ?> method;
  private final ReentrantLock lock = new ReentrantLock();
  @GuardedBy("lock")
  private final ArrayDeque<Object> waiting = new ArrayDeque<>();
  @GuardedBy("lock")
  private BoltConnection connection;
  @GuardedBy("lock")
  private int requestId;
  @GuardedBy("lock")
  private int credit;
  @GuardedBy("lock")
  private boolean ended;
  @GuardedBy("lock")
  private boolean flushing;
  @GuardedBy("lock")
  private boolean sentAny;
  // credit that came before the request was known to be on its connection (its server answers that fast)
  @GuardedBy("lock")
  private BoltConnection early;
  @GuardedBy("lock")
  private int earlyCredit;

  OutgoingRequests(PendingCall<?> call, MethodDescriptor<Object, ?> method) {
    this.call = call;
    this.method = method;
  }

  /** Sends {@code message}, now or once it can go. */
  void send(Object message) {
    add(Objects.requireNonNull(message, "a request message"));
  }

  /** The caller sends no more: the end follows the messages waiting. */
  void end() {
    add(END);
  }

  /**
   * The call's request went out on {@code connection} as {@code requestId} (its first attempt's, or a later one's
   * when nothing was sent): what waits goes as the server there grants credit.
   */
  void opened(BoltConnection connection, int requestId) {
    boolean wasReady;
    lock.lock();
    try {
      wasReady = ready();
      this.connection = connection;
      this.requestId = requestId;
      this.credit = early == connection ? earlyCredit : 0; // what another instance granted is not this one's
      early = null;
      earlyCredit = 0;
    } finally {
      lock.unlock();
    }
    flush();
    tellIfReady(wasReady);
  }

  /**
   * The server on {@code from} takes {@code count} more messages (its IO thread): what waits goes, and the caller may
   * send more. Credit from another connection than the request's (an earlier attempt's) is no credit here.
   */
  void granted(BoltConnection from, int count) {
    boolean wasReady;
    lock.lock();
    try {
      wasReady = ready();
      if (from == connection) {
        credit = Math.min(StreamFrames.MAX_CREDIT, credit + count);
      } else {
        if (early != from) {
          early = from;
          earlyCredit = 0;
        }
        earlyCredit = Math.min(StreamFrames.MAX_CREDIT, earlyCredit + count);
      }
    } finally {
      lock.unlock();
    }
    flush();
    tellIfReady(wasReady);
  }

  /** Whether a message sent now leaves at once. */
  boolean isReady() {
    lock.lock();
    try {
      return ready();
    } finally {
      lock.unlock();
    }
  }

  /** Whether any message (or the end) left: the stream cannot be sent to another instance again. */
  boolean sentAny() {
    lock.lock();
    try {
      return sentAny;
    } finally {
      lock.unlock();
    }
  }

  @GuardedBy("lock")
  private boolean ready() {
    return connection != null && credit > 0 && waiting.isEmpty() && !ended;
  }

  /** A call that turned ready tells its caller ({@link io.boltgen.runtime.ClientCall.Listener#onReady}). */
  private void tellIfReady(boolean wasReady) {
    if (!wasReady && isReady() && call.told() instanceof StreamedMessages<?> messages) {
      messages.ready();
    }
  }

  private void add(Object next) {
    if (call.isDone()) {
      return; // the call ended (its caller's listener was told how): what the caller still sends is dropped
    }
    lock.lock();
    try {
      if (ended) {
        throw new IllegalStateException("the call of " + method + " was half-closed already");
      }
      if (next != END && waiting.size() >= MAX_WAITING) {
        waiting.clear();
        ended = true;
      } else {
        ended = next == END;
        waiting.add(next);
        next = null;
      }
    } finally {
      lock.unlock();
    }
    if (next != null) {
      String why = MAX_WAITING + " messages of the call of " + method + " wait for its server to ask for them: send"
          + " while the call isReady() (its listener's onReady says when it turns ready again)";
      call.cancel(why, null);
      throw new IllegalStateException(why);
    }
    flush();
  }

  /** Writes what may leave, in order, unless another thread is at it (it takes what this one would have). */
  private void flush() {
    while (true) {
      Object next;
      BoltConnection c;
      int id;
      lock.lock();
      try {
        c = connection;
        next = waiting.peek();
        if (flushing || c == null || next == null || (next != END && credit <= 0)) {
          return;
        }
        waiting.poll();
        if (next != END) {
          credit--;
        }
        id = requestId;
        flushing = true;
        sentAny = true;
      } finally {
        lock.unlock();
      }
      BoltException unsendable = write(c, id, next);
      lock.lock();
      try {
        flushing = false;
        if (unsendable != null) {
          waiting.clear();
        }
      } finally {
        lock.unlock();
      }
      if (unsendable != null) {
        call.fail(unsendable); // its server is told to cancel the stream
        return;
      }
    }
  }

  /** Encodes and queues one message (or the end) on {@code c}; the failure to encode it, else null. */
  private BoltException write(BoltConnection c, int id, Object next) {
    if (next == END) {
      c.writeFrame(StreamFrames.requestsEnd(c.alloc(), c.format(), id));
      return null;
    }
    try {
      c.writeFrame(StreamFrames.requestMessage(c.alloc(), c.format(), id, method.requestMarshaller(), next,
          c.peerMaxFrameLength()));
      return null;
    } catch (RuntimeException | StackOverflowError e) {
      return new BoltException(ResponseStatus.CODEC_EXCEPTION, "could not encode a request of " + method + " to "
          + c.remoteAddress() + ": " + e, null, null, c.remoteAddress(), id, e);
    }
  }
}
