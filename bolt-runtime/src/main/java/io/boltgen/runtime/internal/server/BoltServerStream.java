package io.boltgen.runtime.internal.server;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.call.CallStatus;
import io.boltgen.runtime.call.ServerStream;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.internal.Answers;
import io.boltgen.runtime.internal.BoltConnection;
import io.boltgen.runtime.internal.BoltStreams;
import io.boltgen.runtime.internal.DeferredFrame;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.ErrorFrames;
import io.boltgen.runtime.internal.wire.FrameEncoder;
import io.boltgen.runtime.internal.wire.FrameTooLargeException;
import io.boltgen.runtime.internal.wire.HeadersCodec;
import io.boltgen.runtime.internal.wire.StreamFrames;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Bolt request as a stream of the one call path: its frame is the call's one message (decoded on the IO
 * thread when it is small, {@link #decodeOnArrival()}), and its answer is one response frame, encoded on the IO
 * thread when the write queue drains ({@link #encode()}), so that buffers are allocated and freed on the thread
 * that owns them: the result, a handler's failure (a Bolt error frame with the remote class and message, or
 * inside a successful frame for a {@link FailureMarshaller}), a refusal, or a busy frame. A oneway request,
 * a cancelled one and one whose caller's timeout passed are answered nothing. A result that cannot be encoded
 * is answered {@code SERVER_SERIAL_EXCEPTION}.
 *
 * <p>It keeps the connection's count of open requests: the request counts as open from the moment it is read
 * until its answer is written or discarded, its handler returned without answering yet, or it was refused or
 * dropped; whichever comes first closes it, exactly once ({@link #closeRequest()}).
 *
 * <p>Threads: made and decoded (when small) on the IO thread; decoded (when large) and closed on the call's
 * thread; encoded on the IO thread. The frame and headers are handed from the IO thread to the handler's thread
 * through the executor, which orders them; the answer's fields are written before the call's close hands it to
 * the write queue, and read by the IO thread after the queue hands it over.
 */
final class BoltServerStream implements ServerStream, ServerStream.Message, DeferredFrame {

  private static final Logger log = LoggerFactory.getLogger(BoltServerStream.class);
  private static final RateLimitedLog encodeFailures = RateLimitedLog.of(log);
  private static final AtomicIntegerFieldUpdater<BoltServerStream> CLOSED =
      AtomicIntegerFieldUpdater.newUpdater(BoltServerStream.class, "closed");

  /** Requests with at most this much content are decoded on the IO thread (see {@link #decodeOnArrival()}). */
  static final int DECODE_ON_IO_THREAD_MAX = 16 * 1024;

  private final BoltConnection connection;
  private final MethodEntry entry;
  private final int requestId;
  private final boolean oneway;
  private final byte switchFlags;
  private BoltFrame frame;
  private Map<String, String> headers;
  // the one server call, told of the connection's close once its handler listens for it
  private Listener call;
  // whether the request was told to the call (IO thread)
  private boolean told;
  private volatile Runnable closeHook;
  // 1 once the request no longer counts as open on its connection (0 by default: no store, no fence per call)
  @SuppressWarnings("UnusedVariable") // read and written through CLOSED, its field updater
  private volatile int closed;
  // the answer, encoded later on the IO thread
  private Object result;
  private CallStatus status;
  // a streamed answer's (boltgen's extension of Bolt), made on the IO thread before the call starts; else null
  private BoltStreamedAnswer streamed;
  // the caller's stream of requests, for a method that takes one; else null
  private BoltStreamedRequests requests;

  BoltServerStream(BoltConnection connection, BoltFrame frame, MethodEntry entry, Map<String, String> headers) {
    this.connection = connection;
    this.frame = frame;
    this.entry = entry;
    this.headers = headers;
    this.requestId = frame.requestId();
    this.oneway = frame.isOneway();
    this.switchFlags = frame.switchFlags();
  }

  /** The one server call this stream carries (IO thread, before anything is told to it). */
  @Override
  public void start(Listener call) {
    this.call = call;
  }

  /** The request no longer counts as open on its connection (the first caller wins; later ones do nothing). */
  private void closeRequest() {
    if (CLOSED.compareAndSet(this, 0, 1)) {
      connection.requestClosed();
    }
  }

  // ------------------------------------------------------------------ the request: the call's one message

  @Override
  public boolean decodeOnArrival() {
    return frame.contentLength() <= DECODE_ON_IO_THREAD_MAX;
  }

  @Override
  public Object decode() {
    BoltFrame f = frame;
    frame = null;
    if (headers == null) {
      try {
        headers = f.headersLength() == 0 ? Map.of() : HeadersCodec.read(f.headers());
      } catch (RuntimeException e) {
        f.release();
        throw new BoltException(ResponseStatus.SERVER_DESERIAL_EXCEPTION,
            "could not decode the request of " + entry + ": " + e.getMessage(), e);
      }
    }
    return decode(f, entry);
  }

  /** Decodes the request {@code f} of {@code entry} and releases it. */
  static Object decode(BoltFrame f, MethodEntry entry) {
    try {
      Marshaller<?> marshaller = entry.method().requestMarshaller();
      if (f.codec() != marshaller.codecId()) {
        throw new BoltException(ResponseStatus.SERVER_DESERIAL_EXCEPTION, "codec " + f.codec()
            + " is not supported by " + entry + ", which expects codec " + marshaller.codecId());
      }
      return marshaller.read(f.content());
    } catch (BoltException e) {
      throw e;
    } catch (RuntimeException | StackOverflowError e) {
      throw new BoltException(ResponseStatus.SERVER_DESERIAL_EXCEPTION,
          "could not decode the request of " + entry + ": " + e.getMessage(), e);
    } finally {
      f.release();
    }
  }

  @Override
  public void release() {
    BoltFrame f = frame;
    frame = null;
    if (f != null) {
      f.release();
    }
  }

  // ------------------------------------------------------------------ ServerStream

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public String remoteText() {
    return connection.remoteText();
  }

  @Override
  public int streamId() {
    return requestId;
  }

  @Override
  public Map<String, String> headers() {
    Map<String, String> h = headers;
    if (h == null) {
      BoltFrame f = frame;
      if (f == null) {
        return Map.of();
      }
      try {
        h = f.headersLength() == 0 ? Map.of() : HeadersCodec.read(f.headers());
      } catch (RuntimeException e) {
        return Map.of(); // malformed: the request is refused when it is decoded
      }
      headers = h;
    }
    return h;
  }

  @Override
  public void request(int count) {
    if (requests != null) {
      requests.request(count); // a stream of requests: the caller is granted as many more
      return;
    }
    // a Bolt request is one message, and the end of the caller's side: told once, when first asked for
    if (count > 0 && !told) {
      told = true;
      call.onMessage(this);
      call.onHalfClose();
    }
  }

  @Override
  public boolean isReady() {
    return streamed == null || streamed.isReady();
  }

  /**
   * Whether the caller asked for a streamed answer of a streaming method (its request carries its credit): only a
   * boltgen caller does; a SOFABolt caller's request for one is refused.
   */
  @Override
  public boolean carriesStreams() {
    MethodType type = entry.method().type();
    if (streamed == null && (type.streamsAnswers() || type.streamsRequests())) {
      int credit = StreamFrames.initialCredit(headers());
      if (credit > 0) { // a stream of requests is answered as a stream too, of one message for client streaming
        streamed = new BoltStreamedAnswer(this, connection, credit);
        if (type.streamsRequests()) {
          requests = new BoltStreamedRequests(connection, requestId, entry);
        }
      }
    }
    return streamed != null;
  }

  /** Whether the caller streams its requests over this request's stream (a boltgen caller's). */
  @Override
  public boolean carriesRequestStreams() {
    return carriesStreams() && requests != null;
  }

  /** One of the caller's messages (IO thread; taken over). */
  void received(BoltFrame message) {
    if (requests == null || !requests.received(message, call)) {
      connection.close(); // more than it was granted, or a message for a unary request: the peer breaks the protocol
    }
  }

  /** The caller sends no more messages (IO thread). */
  void halfClosed() {
    if (requests != null) {
      call.onHalfClose();
    }
  }

  /**
   * Opens the streamed answer on its connection, whose control frames then reach it, and cancels the call when the
   * connection closes (IO thread, before the call starts); false, after answering busy, when the connection
   * carries {@value BoltStreams#MAX_OPEN} already. True for a unary answer.
   */
  boolean open() {
    if (!carriesStreams()) {
      return true;
    }
    if (requests != null) {
      headers();
      release(); // a stream of requests' request carries none: its messages follow
    }
    if (!connection.streams().open(requestId, streamed)) {
      release();
      closeRequest();
      connection.writeFrame(ErrorFrames.busy(connection.alloc(), connection.format(), requestId, "the connection "
          + "already carries " + BoltStreams.MAX_OPEN + " streams, the most it carries at once"));
      return false;
    }
    Runnable hook = () -> call.onCancel();
    closeHook = hook;
    connection.closeHooks.add(hook);
    return true;
  }

  @Override
  public void writeMessage(Object message) {
    if (streamed == null) {
      this.result = message;
      return;
    }
    @SuppressWarnings("unchecked") // the invoker answers with its method's response type
    Marshaller<Object> marshaller = (Marshaller<Object>) entry.method().responseMarshaller();
    streamed.write(FrameEncoder.response(connection.alloc(), connection.format().withSwitchFlags(switchFlags),
        requestId, marshaller.codecId(), ResponseStatus.SUCCESS, entry.responseClassName(),
        StreamFrames.MESSAGE_HEADERS, marshaller, message, connection.peerMaxFrameLength()));
  }

  /** The caller can take messages again (IO thread). */
  void ready() {
    call.onReady();
  }

  /** The caller cancelled its stream (IO thread). */
  void cancelled() {
    call.onCancel();
  }

  /** Writes the successful end of a stream once the messages held before it left (IO thread). */
  void writeEnd(CallStatus end) {
    connection.closeHooks.remove(closeHook);
    connection.streams().closed(requestId, streamed);
    this.status = end;
    connection.write(this);
  }

  @Override
  public void close(CallStatus status, boolean flush) {
    Runnable hook = closeHook;
    if (hook != null) {
      connection.closeHooks.remove(hook);
    }
    if (streamed != null) {
      // the end may follow the messages held for the caller's credit: they are freed if the connection closes (the
      // hook is in place before the end is, so that a credit that writes the end at once removes it)
      Runnable discard = streamed::discard;
      closeHook = discard;
      connection.closeHooks.add(discard);
      if (!streamed.end(status)) {
        closeRequest();
        return;
      }
      connection.closeHooks.remove(discard);
      connection.streams().closed(requestId, streamed);
    }
    CallStatus.Kind kind = status.kind();
    if (oneway || kind == CallStatus.Kind.CANCELLED || kind == CallStatus.Kind.DEADLINE_EXCEEDED) {
      // nobody waits for an answer: a oneway caller, one gone, or one whose own timeout has passed
      result = null;
      closeRequest();
      return;
    }
    if (kind == CallStatus.Kind.BUSY) {
      closeRequest();
      connection.writeFrame(ErrorFrames.busy(connection.alloc(), connection.format(), requestId, status.message()));
      return;
    }
    this.status = status;
    if (flush) {
      connection.write(this);
    } else {
      connection.writeLater(this);
    }
  }

  @Override
  public void flush() {
    connection.flushLater();
  }

  @Override
  public boolean isOpen() {
    return connection.isActive();
  }

  @Override
  public void watchCancellation() {
    if (closeHook != null) {
      return; // a stream's call is cancelled when its connection closes already
    }
    Listener listener = call;
    Runnable hook = listener::onCancel;
    closeHook = hook;
    connection.closeHooks.add(hook);
  }

  @Override
  public void handlerReturned() {
    closeRequest(); // an asynchronous handler does not hold its connection's reads back
  }

  // ------------------------------------------------------------------ the answer, encoded on the IO thread

  /**
   * Encodes the answer, on the IO thread (the buffer is allocated and freed there). A result that cannot be
   * encoded (too deep, cyclic, too large for the client, a failing codec) is answered SERVER_SERIAL_EXCEPTION
   * instead; only when even that fails does this throw, and the write queue then closes the connection.
   */
  @Override
  public ByteBuf encode() {
    closeRequest();
    CallStatus s = status;
    MethodDescriptor<?, ?> method = entry.method();
    @SuppressWarnings("unchecked") // the invoker answers with its method's response type
    Marshaller<Object> marshaller = (Marshaller<Object>) method.responseMarshaller();
    try {
      if (s.kind() == CallStatus.Kind.FAILED && marshaller instanceof FailureMarshaller<?> answers) {
        // the protocol answers the handler's failure inside a successful frame
        return FrameEncoder.response(connection.alloc(), connection.format().withSwitchFlags(switchFlags), requestId,
            marshaller.codecId(), ResponseStatus.SUCCESS, entry.responseClassName(), answers.failureHeaders(s.cause()),
            Answers.failureBody(answers), s.cause(), connection.peerMaxFrameLength());
      }
      if (s.kind() == CallStatus.Kind.FAILED) {
        Throwable cause = s.cause();
        return ErrorFrames.error(connection.alloc(), connection.format(), requestId, ResponseStatus.SERVER_EXCEPTION,
            cause.getClass().getName(), cause.getMessage(), "handler of " + entry + " threw");
      }
      if (!s.isOk()) {
        Throwable cause = s.cause();
        return ErrorFrames.error(connection.alloc(), connection.format(), requestId, s.code(),
            cause == null ? null : cause.getClass().getName(), s.message(), "request of " + entry);
      }
      if (streamed != null) {
        return StreamFrames.end(connection.alloc(), connection.format().withSwitchFlags(switchFlags), requestId,
            marshaller.codecId(), entry.responseClassName());
      }
      return FrameEncoder.response(connection.alloc(), connection.format().withSwitchFlags(switchFlags), requestId,
          marshaller.codecId(), ResponseStatus.SUCCESS, entry.responseClassName(), Map.of(), marshaller,
          result, connection.peerMaxFrameLength());
    } catch (Throwable e) {
      if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError) && !(e instanceof OutOfMemoryError)) {
        throw e;
      }
      String why = e instanceof FrameTooLargeException tooLarge
          ? "the response of " + entry + " is a frame of " + tooLarge.frameLength() + " bytes, over the "
              + tooLarge.limit() + "-byte limit of the client (peerMaxFrameLength)"
          : "could not encode the response of " + entry + ": " + e;
      encodeFailures.warn("answered request id {} from {} with SERVER_SERIAL_EXCEPTION: {}", requestId,
          connection.remoteAddress(), MessageText.shorten(why));
      return ErrorFrames.error(connection.alloc(), connection.format(), requestId,
          ResponseStatus.SERVER_SERIAL_EXCEPTION, e.getClass().getName(), why, "response of " + entry);
    } finally {
      result = null;
      status = null;
    }
  }

  /** The connection closed before the answer could be written. */
  @Override
  public void discard() {
    result = null;
    status = null;
    closeRequest();
  }
}
