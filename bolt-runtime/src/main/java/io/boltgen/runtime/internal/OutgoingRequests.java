package io.boltgen.runtime.internal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A call's stream of requests over Bolt, as boltgen's extension carries it ({@link StreamFrames}): each message the
 * caller sends goes out as a oneway frame of the call's request id once the call's request is on a connection and
 * the server has granted credit for it; the others wait here, in order, and so does the end of the caller's side
 * (the {@code end} control frame), which follows the last of them. The call is ready ({@link #isReady}) while a
 * message sent now leaves at once.
 *
 * <p>What waits here is bounded by the caller, which sends while the call is ready (a stub's publisher is asked for
 * at most 16 messages ahead); the server grants what its handler asks for.
 *
 * <p>Thread-safe: the caller sends from its thread, credit arrives on the connection's IO thread; frames leave in
 * the order the messages were sent.
 */
final class OutgoingRequests {

  private static final Object END = new Object();

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

  OutgoingRequests(PendingCall<?> call, MethodDescriptor<Object, ?> method) {
    this.call = call;
    this.method = method;
  }

  /** Sends {@code message}, now or once it can go. */
  void send(Object message) {
    flushAfter(message);
  }

  /** The caller sends no more: the end follows the messages waiting. */
  void end() {
    flushAfter(END);
  }

  /** The call's request went out on {@code connection} as {@code requestId}: what waits goes as credit allows. */
  void opened(BoltConnection connection, int requestId) {
    boolean wasReady;
    lock.lock();
    try {
      wasReady = ready();
      this.connection = connection;
      this.requestId = requestId;
    } finally {
      lock.unlock();
    }
    flushAfter(null);
    tellIfReady(wasReady);
  }

  /** The server takes {@code count} more messages (IO thread): what waits goes, and the caller may send more. */
  void granted(int count) {
    boolean wasReady;
    lock.lock();
    try {
      wasReady = ready();
      credit = Math.min(StreamFrames.MAX_CREDIT, credit + count);
    } finally {
      lock.unlock();
    }
    flushAfter(null);
    tellIfReady(wasReady);
  }

  /** A call that turned ready tells its caller ({@link io.boltgen.runtime.ClientCall.Listener#onReady}). */
  private void tellIfReady(boolean wasReady) {
    if (!wasReady && isReady() && call.told() instanceof StreamedMessages<?> messages) {
      messages.ready();
    }
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

  @GuardedBy("lock")
  private boolean ready() {
    return connection != null && credit > 0 && waiting.isEmpty() && !ended;
  }

  /** Adds {@code next} (unless null) after what waits, then sends what credit allows, in order. */
  private void flushAfter(Object next) {
    BoltException unsendable = null;
    lock.lock();
    try {
      if (next != null) {
        if (ended) {
          throw new IllegalStateException("the call of " + method + " was half-closed already");
        }
        ended = next == END;
        waiting.add(next);
      }
      BoltConnection c = connection;
      while (c != null && !waiting.isEmpty() && (credit > 0 || waiting.peek() == END)) {
        Object message = waiting.poll();
        if (message == END) {
          c.writeFrame(StreamFrames.requestsEnd(c.alloc(), c.format(), requestId));
          continue;
        }
        credit--;
        try {
          c.writeFrame(StreamFrames.requestMessage(c.alloc(), c.format(), requestId, method.requestMarshaller(),
              message, c.peerMaxFrameLength()));
        } catch (RuntimeException | StackOverflowError e) {
          waiting.clear();
          unsendable = new BoltException(ResponseStatus.CODEC_EXCEPTION, "could not encode a request of " + method
              + " to " + c.remoteAddress() + ": " + e, null, null, c.remoteAddress(), requestId, e);
        }
      }
    } finally {
      lock.unlock();
    }
    if (unsendable != null) {
      call.fail(unsendable); // its server is told to cancel the stream
    }
  }
}
