package io.boltgen.runtime.internal;

import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.HeadersCodec;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streams of one Bolt connection ({@link StreamFrames}, boltgen's extension): on a server, the streamed answers
 * open on it, by request id, which its caller's control frames reach ({@link #control}); on a client, the control
 * frames its streaming calls send ({@link #credit}, {@link #cancel}).
 *
 * <p>A connection carries at most {@value #MAX_OPEN} streamed answers at once; a caller asking for another is
 * answered busy.
 *
 * <p>Thread-safe.
 */
public final class BoltStreams {

  /** The most streamed answers one connection carries at once. */
  public static final int MAX_OPEN = 100;

  private static final Logger log = LoggerFactory.getLogger(BoltStreams.class);
  private static final RateLimitedLog badControl = RateLimitedLog.of(log);

  /** A streamed answer as its caller's control frames and its connection reach it (on the IO thread). */
  public interface Served {

    /** The caller takes {@code count} more messages. */
    void credit(int count);

    /** The caller cancelled the stream. */
    void cancelled();

    /** The connection is writable again. */
    void writable();

    /** One of the caller's messages of a stream of requests ({@code frame}, taken over). */
    void message(BoltFrame frame);

    /** The caller sends no more messages. */
    void halfClosed();
  }

  private final BoltConnection connection;
  private final ConcurrentHashMap<Integer, Served> open = new ConcurrentHashMap<>();

  BoltStreams(BoltConnection connection) {
    this.connection = connection;
  }

  // ------------------------------------------------------------------ server side

  /** Registers the streamed answer of {@code requestId}; false when the connection carries {@value #MAX_OPEN}. */
  public boolean open(int requestId, Served stream) {
    if (open.size() >= MAX_OPEN) {
      return false;
    }
    open.put(requestId, stream);
    return true;
  }

  /** The streamed answer of {@code requestId} ended. */
  public void closed(int requestId, Served stream) {
    open.remove(requestId, stream);
  }

  /**
   * A control frame from the caller (IO thread; taken over): credit or cancellation for a stream still open, or a
   * message or the end of its stream of requests; one for a stream that ended meanwhile is dropped, as are
   * malformed ones (one rate-limited line).
   */
  public void control(BoltFrame frame) {
    int requestId = frame.requestId();
    Map<String, String> headers;
    try {
      headers = frame.headersLength() == 0 ? Map.of() : HeadersCodec.read(frame.headers());
    } catch (RuntimeException e) {
      headers = Map.of();
    }
    Served stream = open.get(requestId);
    String kind = headers.get(StreamFrames.HEADER);
    if (StreamFrames.MESSAGE.equals(kind) && stream != null) {
      stream.message(frame);
      return;
    }
    frame.release();
    int credit = StreamFrames.grantedCredit(headers);
    if (StreamFrames.MESSAGE.equals(kind)) {
      return; // a message of a stream that ended meanwhile
    } else if (StreamFrames.END.equals(kind)) {
      if (stream != null) {
        stream.halfClosed();
      }
    } else if (credit > 0) {
      if (stream != null) {
        stream.credit(credit);
      }
    } else if (StreamFrames.CANCEL.equals(kind)) {
      if (stream != null) {
        stream.cancelled();
      }
    } else {
      badControl.warn("dropped a malformed stream control frame (request id {} from {})", requestId,
          connection.remoteAddress());
    }
  }

  /** The connection is writable again (IO thread): streamed answers waiting for it go on. */
  void writable() {
    if (!open.isEmpty()) {
      for (Served stream : open.values()) {
        stream.writable();
      }
    }
  }

  // ------------------------------------------------------------------ client side

  /** Grants the stream {@code requestId} {@code count} more messages. */
  void credit(int requestId, int count) {
    connection.writeFrame(StreamFrames.credit(connection.alloc(), connection.format(), requestId, count));
  }

  /** Tells the server that the stream {@code requestId} is cancelled. */
  void cancel(int requestId) {
    connection.writeFrame(StreamFrames.cancel(connection.alloc(), connection.format(), requestId));
  }
}
