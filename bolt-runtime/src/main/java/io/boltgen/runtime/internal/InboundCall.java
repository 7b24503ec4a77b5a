package io.boltgen.runtime.internal;

import io.boltgen.annotation.BoltCallback;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerCall;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.codec.Marshaller;
import io.netty.buffer.ByteBuf;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request being served, and the task that serves it on the method's executor: it drops the request
 * if its connection closed meanwhile or it waited longer than the caller's timeout (fail-fast), runs the
 * service invoker and queues whichever answer comes first. Small requests are decoded on the IO thread
 * before the task is handed over, and every answer is encoded on the IO thread when its write queue drains:
 * buffers are allocated and freed on the thread that owns them, and the handler's thread only runs the
 * handler.
 *
 * <p>The connection counts this call as open (see {@link BoltConnection#requestsOpened(int)}) from the moment
 * it is read until its answer is written (or discarded), or until its handler returned without answering
 * yet (an asynchronous handler: its later answer waits on the channel's writability like any other), or
 * until it was refused or dropped; whichever comes first closes it, exactly once.
 */
final class InboundCall implements Runnable, ServerCall, ServerContext, DeferredFrame {

  private static final Logger log = LoggerFactory.getLogger(InboundCall.class);
  private static final RateLimitedLog dropped = RateLimitedLog.of(log);
  private static final RateLimitedLog refusedBusy = RateLimitedLog.of(log);
  private static final RateLimitedLog handlerFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog badRequests = RateLimitedLog.of(log);
  private static final RateLimitedLog encodeFailures = RateLimitedLog.of(log);
  private static final AtomicIntegerFieldUpdater<InboundCall> ANSWERED =
      AtomicIntegerFieldUpdater.newUpdater(InboundCall.class, "answered");
  private static final AtomicIntegerFieldUpdater<InboundCall> CLOSED =
      AtomicIntegerFieldUpdater.newUpdater(InboundCall.class, "closed");

  /** Requests with at most this much content are decoded on the IO thread (see {@link #decodeNow()}). */
  static final int DECODE_ON_IO_THREAD_MAX = 16 * 1024;

  private final BoltConnection connection;
  private final MethodEntry entry;
  private final int requestId;
  private final boolean oneway;
  private final int clientTimeout;
  private final long arrivalNanos;
  private final byte switchFlags;
  private BoltFrame frame;
  private Object request;
  private Map<String, String> headers;
  private volatile int answered;
  // 1 once the call no longer counts as open on its connection (0 by default: no store, no fence per call)
  private volatile int closed;
  // true while a shared task runs this call's handler: an answer the handler gives on that thread then
  // waits for the task's one flush (read and written only by the runner thread)
  private boolean inBatch;
  // the thread running the handler (an answer from any other thread is written at once), and when the
  // handler answered if it did so before returning (see run())
  private Thread runner;
  private long answeredNanos;
  // the answer, encoded later on the IO thread: a result, or an error (status, class, message, context)
  private Object result;
  private ResponseStatus errorStatus;
  private String errorClass;
  private String errorMessage;
  private String errorContext;

  InboundCall(BoltConnection connection, BoltFrame frame, MethodEntry entry, Map<String, String> headers) {
    this.connection = connection;
    this.frame = frame;
    this.entry = entry;
    this.headers = headers;
    this.requestId = frame.requestId();
    this.oneway = frame.isOneway();
    this.clientTimeout = frame.timeout();
    this.arrivalNanos = frame.arrivalNanos();
    this.switchFlags = frame.switchFlags();
  }

  /** The call no longer counts as open on its connection (the first caller wins; later ones do nothing). */
  private void closeRequest() {
    if (CLOSED.compareAndSet(this, 0, 1)) {
      connection.requestClosed();
    }
  }

  /**
   * On the IO thread: decodes a small request right away and releases its frame there, so that buffers
   * are freed on the thread that allocated them (a large one is left for the handler's thread). Returns
   * false when the request could not be decoded; it was then answered (or, oneway, dropped) already.
   */
  boolean decodeNow() {
    if (frame.contentLength() > DECODE_ON_IO_THREAD_MAX) {
      return true;
    }
    BoltFrame f = frame;
    frame = null;
    boolean decoded = false;
    try {
      decoded = decode(f);
      return decoded;
    } finally {
      f.release();
      if (!decoded) {
        closeRequest();
      }
    }
  }

  /** Decodes headers and content; false (with the caller answered) if that fails. Does not release. */
  private boolean decode(BoltFrame f) {
    try {
      if (headers == null) {
        headers = f.headersLength() == 0 ? Map.of() : HeadersCodec.read(f.headers());
      }
      Marshaller<?> marshaller = entry.method().requestMarshaller();
      if (f.codec() != marshaller.codecId()) {
        answerError(ResponseStatus.SERVER_DESERIAL_EXCEPTION, null, "codec " + f.codec() + " is not supported by "
            + entry.method().wireName() + ", which expects codec " + marshaller.codecId());
        return false;
      }
      request = marshaller.read(f.content());
      return true;
    } catch (RuntimeException | StackOverflowError e) {
      answerError(ResponseStatus.SERVER_DESERIAL_EXCEPTION, e.getClass().getName(),
          "could not decode the request of " + entry.method().wireName() + ": " + e.getMessage());
      return false;
    }
  }

  @Override
  public void run() {
    try {
      serve();
    } finally {
      if (answered == 0) {
        closeRequest(); // no answer queued (yet): the call no longer holds its connection's reads back
      }
    }
  }

  private void serve() {
    BoltFrame f = frame;
    frame = null;
    try {
      if (!connection.isActive()) {
        // its caller is gone with the connection: nobody would read the answer
        log.debug("dropped request id {} from {} for {}: its connection closed before it started", requestId,
            connection.remoteAddress(), entry.method().wireName());
        return;
      }
      if (!oneway && clientTimeout > 0 && remainingMillis() == 0) {
        dropped.warn("dropped request id {} from {} for {}: it waited {} ms on this server, past the caller's timeout"
            + " of {} ms", requestId, connection.remoteAddress(), entry.method().wireName(),
            TimeUnit.NANOSECONDS.toMillis(connection.ticker().nanoTime() - arrivalNanos), clientTimeout);
        return;
      }
      if (f != null && !decode(f)) {
        return;
      }
    } finally {
      if (f != null) {
        f.release();
      }
    }
    Object decoded = request;
    request = null;
    CurrentCall.set(this);
    runner = Thread.currentThread();
    long start = System.nanoTime();
    try {
      entry.invoker().invoke(entry.method().methodCode(), decoded, this);
      if (!oneway && entry.method().type() == MethodType.ONEWAY) {
        respond(null); // a peer sent a oneway method as a request: it still waits for an answer
      }
    } catch (Throwable e) {
      fail(e);
      if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
        throw (VirtualMachineError) e; // the JVM is in trouble; a deep recursion in one handler is not
      }
    } finally {
      CurrentCall.clear();
      runner = null;
      // the handler's own time: up to its answer when it answered itself, so that handing the answer to
      // the IO thread (which may wake it and yield this CPU to it) does not count as the handler's
      long end = answeredNanos != 0 ? answeredNanos : System.nanoTime();
      entry.recordHandlerTime(end - start);
    }
  }

  /** Runs the call as part of a shared task, which flushes the connection once all its calls ran. */
  void runInBatch() {
    inBatch = true;
    try {
      run();
    } finally {
      inBatch = false;
    }
  }

  /** Queues the answer; the IO thread encodes it ({@link #encode}). */
  private void send() {
    boolean fromHandler = Thread.currentThread() == runner;
    if (fromHandler) {
      answeredNanos = System.nanoTime();
    }
    if (fromHandler && inBatch) {
      connection.writeLater(this);
    } else {
      connection.write(this);
    }
  }

  /** The connection this call arrived on. */
  BoltConnection boltConnection() {
    return connection;
  }

  /** The executor refused the call (or may not run it here): answer SERVER_THREADPOOL_BUSY at once. */
  void rejectBusy() {
    BoltFrame f = frame;
    frame = null;
    if (f != null) {
      f.release();
    }
    request = null;
    closeRequest();
    refusedBusy.warn("server executor busy: refused request id {} from {} for {}", requestId,
        connection.remoteAddress(), entry.method().wireName());
    if (!oneway) {
      connection.writeFrame(ErrorFrames.busy(connection.alloc(), connection.format(),
          requestId, "the server's executor for " + entry.method().wireName() + " is full"));
    }
  }

  /**
   * Encodes the answer, on the IO thread (the buffer is allocated and freed there). A result that cannot be
   * encoded (too deep, cyclic, too large for the client, a failing codec) is answered
   * SERVER_SERIAL_EXCEPTION instead; only when even that fails does this throw, and the write queue then
   * closes the connection.
   */
  @Override
  public ByteBuf encode() {
    closeRequest();
    if (errorStatus != null) {
      return ErrorFrames.error(connection.alloc(), connection.format(), requestId,
          errorStatus, errorClass, errorMessage, errorContext);
    }
    MethodDescriptor<?, ?> method = entry.method();
    @SuppressWarnings("unchecked") // the invoker answers with its method's response type
    Marshaller<Object> marshaller = (Marshaller<Object>) method.responseMarshaller();
    try {
      return FrameEncoder.response(connection.alloc(), connection.format().withSwitchFlags(switchFlags), requestId, marshaller.codecId(), ResponseStatus.SUCCESS,
          WireNames.responseClassName(method), Map.of(), marshaller, result,
          connection.peerMaxFrameLength());
    } catch (Throwable e) {
      if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError) && !(e instanceof OutOfMemoryError)) {
        throw e;
      }
      String why = e instanceof FrameTooLargeException
          ? "the response of " + method.wireName() + " is a frame of " + ((FrameTooLargeException) e).frameLength()
              + " bytes, over the " + ((FrameTooLargeException) e).limit() + "-byte limit of the client (peerMaxFrameLength)"
          : "could not encode the response of " + method.wireName() + ": " + e;
      encodeFailures.warn("answered request id {} from {} with SERVER_SERIAL_EXCEPTION: {}", requestId,
          connection.remoteAddress(), LogText.shorten(why));
      return ErrorFrames.error(connection.alloc(), connection.format(), requestId,
          ResponseStatus.SERVER_SERIAL_EXCEPTION, e.getClass().getName(), why, "response of " + method.wireName());
    } finally {
      result = null;
    }
  }

  /** The connection closed before the answer could be written. */
  @Override
  public void discard() {
    result = null;
    closeRequest();
  }

  // ---------------------------------------------------------------- ServerCall

  @Override
  public void respond(Object result) {
    if (oneway || !ANSWERED.compareAndSet(this, 0, 1)) {
      return;
    }
    this.result = result;
    send();
  }

  @Override
  public void fail(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (oneway) {
      handlerFailures.warn("oneway {} from {} failed: {}", entry.method().wireName(), connection.remoteAddress(),
          LogText.shorten(cause.toString()));
      return;
    }
    if (!ANSWERED.compareAndSet(this, 0, 1)) {
      return;
    }
    if (cause instanceof RuntimeException || cause instanceof Error) {
      // an unchecked exception is a bug in the handler: say so
      handlerFailures.warn("{} failed for {} (request id {}): {}", entry.method().wireName(),
          connection.remoteAddress(), requestId, LogText.shorten(cause.toString()));
      log.debug("stack trace of the failure above", cause);
    } else {
      // a checked exception is one the method declares: an answer, not a server problem
      log.debug("{} answered {} (request id {}) with {}", entry.method().wireName(), connection.remoteAddress(),
          requestId, cause.toString(), cause);
    }
    setError(ResponseStatus.SERVER_EXCEPTION, cause.getClass().getName(), cause.getMessage(),
        "handler of " + entry.method().wireName() + " threw");
    send();
  }

  private void answerError(ResponseStatus status, String errorClass, String message) {
    badRequests.warn("{} for request id {} from {}: {}", status, requestId, connection.remoteAddress(),
        LogText.shorten(message));
    if (oneway || !ANSWERED.compareAndSet(this, 0, 1)) {
      return;
    }
    setError(status, errorClass, message, "request of " + entry.method().wireName());
    send();
  }

  private void setError(ResponseStatus status, String errorClass, String message, String context) {
    this.errorClass = errorClass;
    this.errorMessage = message;
    this.errorContext = context;
    this.errorStatus = status;
  }

  @Override
  public void respondWith(CompletionStage<?> stage) {
    stage.whenComplete((value, error) -> {
      if (error != null) {
        fail(error);
      } else {
        respond(value);
      }
    });
  }

  @Override
  public <T> BoltCallback<T> asCallback() {
    return new BoltCallback<>() {
      @Override
      public void onResponse(T result) {
        respond(result);
      }

      @Override
      public void onError(Throwable error) {
        fail(error);
      }
    };
  }

  @Override
  public ServerContext context() {
    return this;
  }

  // ---------------------------------------------------------------- ServerContext

  @Override
  public Connection connection() {
    return connection;
  }

  @Override
  public SocketAddress remoteAddress() {
    return connection.remoteAddress();
  }

  @Override
  public MethodDescriptor<?, ?> method() {
    return entry.method();
  }

  @Override
  public int requestId() {
    return requestId;
  }

  @Override
  public Map<String, String> headers() {
    Map<String, String> h = headers;
    return h != null ? h : Map.of();
  }

  @Override
  public boolean isOneway() {
    return oneway;
  }

  @Override
  public int clientTimeoutMillis() {
    return clientTimeout;
  }

  @Override
  public long remainingMillis() {
    if (oneway || clientTimeout <= 0) {
      return Long.MAX_VALUE;
    }
    long left = TimeUnit.MILLISECONDS.toNanos(clientTimeout) - (connection.ticker().nanoTime() - arrivalNanos);
    return left <= 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
  }
}
