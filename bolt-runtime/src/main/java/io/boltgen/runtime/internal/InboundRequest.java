package io.boltgen.runtime.internal;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.codec.Marshaller;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The first role of an {@link InboundCall}: the request as it arrived, and the {@link ServerContext} a
 * handler sees. It decodes the request (small ones on the IO thread, see {@link #decodeNow()}) and keeps the
 * connection's count of open requests: the call counts as open from the moment it is read until its answer
 * is written or discarded, its handler returned without answering yet, or it was refused or dropped;
 * whichever comes first closes it, exactly once ({@link #closeRequest()}).
 *
 * <p>One object per request plays all three roles (request, {@link InboundAnswer answer}, {@link InboundCall
 * task}), so that serving a request allocates nothing more. Fields set at construction are final; the
 * frame, request and headers are handed from the IO thread to the handler's thread through the executor,
 * which orders them.
 */
abstract class InboundRequest implements ServerContext {

  private static final AtomicIntegerFieldUpdater<InboundRequest> CLOSED =
      AtomicIntegerFieldUpdater.newUpdater(InboundRequest.class, "closed");

  /** Requests with at most this much content are decoded on the IO thread (see {@link #decodeNow()}). */
  static final int DECODE_ON_IO_THREAD_MAX = 16 * 1024;

  final BoltConnection connection;
  final MethodEntry entry;
  final int requestId;
  final boolean oneway;
  final int clientTimeout;
  final long arrivalNanos;
  final byte switchFlags;
  BoltFrame frame;
  Object request;
  private Map<String, String> headers;
  // 1 once the call no longer counts as open on its connection (0 by default: no store, no fence per call)
  @SuppressWarnings("UnusedVariable") // read and written through CLOSED, its field updater
  private volatile int closed;

  InboundRequest(BoltConnection connection, BoltFrame frame, MethodEntry entry, Map<String, String> headers) {
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

  /** Answers a request that could not be decoded (an error status), unless it is oneway. */
  abstract void answerError(ResponseStatus status, String errorClass, String message);

  /** The call no longer counts as open on its connection (the first caller wins; later ones do nothing). */
  final void closeRequest() {
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
  final boolean decode(BoltFrame f) {
    try {
      if (headers == null) {
        headers = f.headersLength() == 0 ? Map.of() : HeadersCodec.read(f.headers());
      }
      Marshaller<?> marshaller = entry.method().requestMarshaller();
      if (f.codec() != marshaller.codecId()) {
        answerError(ResponseStatus.SERVER_DESERIAL_EXCEPTION, null, "codec " + f.codec() + " is not supported by "
            + entry.method().toString() + ", which expects codec " + marshaller.codecId());
        return false;
      }
      request = marshaller.read(f.content());
      return true;
    } catch (RuntimeException | StackOverflowError e) {
      answerError(ResponseStatus.SERVER_DESERIAL_EXCEPTION, e.getClass().getName(),
          "could not decode the request of " + entry.method().toString() + ": " + e.getMessage());
      return false;
    }
  }

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
  }}
