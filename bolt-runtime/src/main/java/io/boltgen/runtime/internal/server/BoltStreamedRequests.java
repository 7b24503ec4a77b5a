package io.boltgen.runtime.internal.server;

import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.internal.BoltConnection;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The caller's stream of requests of one Bolt request, as boltgen's extension of Bolt carries it
 * ({@link StreamFrames}): as the one server call asks for messages, the caller is granted as many in a
 * {@code SUCCESS} response of the request's id marked {@code credit}, and each message it then sends (a oneway frame
 * of the request's id) is told to the call. The caller sends only against its credit, so that what waits on the
 * server is what its handler asked for; a caller that sends more breaks the protocol, and its connection closes.
 *
 * <p>Thread-safe: credit is asked from the call's thread, messages arrive on the connection's IO thread.
 */
final class BoltStreamedRequests {

  private static final Logger log = LoggerFactory.getLogger(BoltStreamedRequests.class);
  private static final RateLimitedLog overrun = RateLimitedLog.of(log);

  private final BoltConnection connection;
  private final int requestId;
  private final MethodEntry entry;
  // messages granted and not yet received
  private final AtomicInteger credit = new AtomicInteger();

  BoltStreamedRequests(BoltConnection connection, int requestId, MethodEntry entry) {
    this.connection = connection;
    this.requestId = requestId;
    this.entry = entry;
  }

  /** The call takes {@code count} more messages: the caller is granted them (any thread). */
  void request(int count) {
    credit.addAndGet(count);
    connection.writeFrame(StreamFrames.requestCredit(connection.alloc(), connection.format(), requestId,
        entry.method().responseMarshaller().codecId(), entry.responseClassName(), count));
  }

  /**
   * One of the caller's messages (IO thread; taken over), told to {@code call}; false, the frame released, when the
   * caller sent more than it was granted.
   */
  boolean received(BoltFrame frame, ServerStream.Listener call) {
    if (credit.decrementAndGet() < 0) {
      frame.release();
      overrun.warn("closing connection from {}: it sent more messages of {} than it was granted (request id {})",
          connection.remoteAddress(), entry, requestId);
      return false;
    }
    call.onMessage(new Message(frame, entry));
    return true;
  }

  /** One of the caller's messages, decoded on the call's thread by its method's request marshaller. */
  private static final class Message implements ServerStream.Message {
    private final MethodEntry entry;
    private BoltFrame frame;

    Message(BoltFrame frame, MethodEntry entry) {
      this.frame = frame;
      this.entry = entry;
    }

    @Override
    public boolean decodeOnArrival() {
      return false;
    }

    @Override
    public Object decode() {
      BoltFrame f = frame;
      frame = null;
      return BoltServerStream.decode(f, entry);
    }

    @Override
    public void release() {
      BoltFrame f = frame;
      frame = null;
      if (f != null) {
        f.release();
      }
    }
  }
}
