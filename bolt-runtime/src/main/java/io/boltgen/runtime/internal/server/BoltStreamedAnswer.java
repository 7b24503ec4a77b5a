package io.boltgen.runtime.internal.server;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.internal.BoltConnection;
import io.boltgen.runtime.internal.BoltStreams;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The streamed answer of one Bolt request, as boltgen's extension of Bolt carries it ({@link StreamFrames}): each
 * message a frame of its own, sent while the caller has credit for it; what the publisher gives beyond the credit
 * (at most the messages the one server call asks for ahead) is held here until the caller grants more, and the
 * successful end follows the last of them. A failure, a cancellation and the deadline drop what is held.
 *
 * <p>Ready ({@link #isReady}) while the caller has credit, nothing is held and the connection is writable: a
 * caller that reads slowly slows its publisher down, and a connection the peer does not read stops them all.
 *
 * <p>Thread-safe: messages and the end come from the call's thread (or the timer's), credit and cancellation on
 * the connection's IO thread; frames leave in the order they were given.
 */
final class BoltStreamedAnswer implements BoltStreams.Served {

  private final BoltServerStream stream;
  private final BoltConnection connection;
  private final ReentrantLock lock = new ReentrantLock();
  @GuardedBy("lock")
  private int credit;
  @GuardedBy("lock")
  private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();
  @GuardedBy("lock")
  private boolean ended;
  @GuardedBy("lock")
  private CallStatus heldEnd; // the successful end, written once what is held is

  BoltStreamedAnswer(BoltServerStream stream, BoltConnection connection, int credit) {
    this.stream = stream;
    this.connection = connection;
    this.credit = credit;
  }

  /** Whether a message written now leaves at once. */
  boolean isReady() {
    lock.lock();
    try {
      if (ended || credit <= 0 || !held.isEmpty()) {
        return false;
      }
    } finally {
      lock.unlock();
    }
    return connection.isWritable();
  }

  /** Sends one encoded message frame (taking it), or holds it until the caller grants credit. */
  void write(ByteBuf frame) {
    lock.lock();
    try {
      if (ended) {
        frame.release(); // the call ended meanwhile (its deadline, its caller's cancellation): dropped
      } else if (credit > 0 && held.isEmpty()) {
        credit--;
        connection.writeFrame(frame);
      } else {
        held.add(frame);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The call ends with {@code status}: true when its end is written now; false when it is the successful end of a
   * stream still holding messages, written after them ({@link BoltServerStream#writeEnd}). Drops what is held for
   * any other end.
   */
  boolean end(CallStatus status) {
    lock.lock();
    try {
      ended = true;
      if (!status.isOk()) {
        releaseHeld();
      } else if (!held.isEmpty()) {
        heldEnd = status;
        return false;
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** The connection closed with messages held: they are freed. */
  void discard() {
    lock.lock();
    try {
      ended = true;
      heldEnd = null;
      releaseHeld();
    } finally {
      lock.unlock();
    }
  }

  @GuardedBy("lock")
  private void releaseHeld() {
    for (ByteBuf frame = held.poll(); frame != null; frame = held.poll()) {
      frame.release();
    }
  }

  /** The caller takes {@code count} more (IO thread): held messages leave, then the end, or the publisher goes on. */
  @Override
  public void credit(int count) {
    CallStatus end = null;
    boolean ready;
    lock.lock();
    try {
      credit = Math.min(StreamFrames.MAX_CREDIT, credit + count);
      while (credit > 0 && !held.isEmpty()) {
        credit--;
        connection.writeFrame(held.poll());
      }
      if (held.isEmpty() && heldEnd != null) {
        end = heldEnd;
        heldEnd = null;
      }
      ready = !ended && credit > 0 && held.isEmpty();
    } finally {
      lock.unlock();
    }
    if (end != null) {
      stream.writeEnd(end);
    } else if (ready) {
      stream.ready();
    }
  }

  @Override
  public void cancelled() {
    stream.cancelled();
  }

  @Override
  public void writable() {
    if (isReady()) {
      stream.ready();
    }
  }

  @Override
  public void message(BoltFrame frame) {
    stream.received(frame);
  }

  @Override
  public void halfClosed() {
    stream.halfClosed();
  }
}
