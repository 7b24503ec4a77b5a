package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.PeerNotAuthorizedException;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerCall;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.codec.json.JsonMarshaller;
import io.boltgen.runtime.codec.json.ProtoJson;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.io.IOException;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Connect unary call: an HTTP request served by the method's handler exactly as a Bolt request is
 * ({@link InboundCall}): on the method's executor, through the server's interceptors, with the HTTP headers
 * as the call's headers ({@link ServerContext#headers()}, lower-case names) and {@code Connect-Timeout-Ms}
 * (else the method's timeout) as the caller's timeout. The request body is decoded on the executor; the
 * first outcome wins and is written by {@link HttpExchanges} in request order: the result (200, the
 * request's content type), the handler's exception (a declared one as {@code failed_precondition} with a
 * detail naming its class, another as {@code internal}), a body that does not decode
 * ({@code invalid_argument}), a full executor ({@code unavailable}), or the timeout passing first
 * ({@code deadline_exceeded}; the handler still runs to its end, as on Bolt). If the client resets the
 * stream or closes the connection first, the call is cancelled ({@link #cancel}): nothing is answered, a call
 * still queued is dropped without running its handler, a running handler sees {@link #isCancelled()} and its
 * {@link #onCancel} listeners, and the deadline's timer is stopped.
 *
 * <p>Thread-safe: the answer is claimed by one compare-and-set.
 */
final class ConnectCall implements Runnable, ServerCall, ServerContext, TimerTask {

  private static final Logger log = LoggerFactory.getLogger(ConnectCall.class);
  private static final RateLimitedLog handlerFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog badRequests = RateLimitedLog.of(log);
  private static final RateLimitedLog encodeFailures = RateLimitedLog.of(log);
  private static final AtomicIntegerFieldUpdater<ConnectCall> ANSWERED =
      AtomicIntegerFieldUpdater.newUpdater(ConnectCall.class, "answered");
  private static final AtomicReferenceFieldUpdater<ConnectCall, ServerInterceptor.Listener[]> LISTENERS =
      AtomicReferenceFieldUpdater.newUpdater(ConnectCall.class, ServerInterceptor.Listener[].class, "listeners");

  private final HttpExchanges exchanges;
  private final HttpExchanges.Exchange exchange;
  private final BoltConnection connection;
  private final MethodEntry entry;
  private final Map<String, String> headers;
  private final boolean json;
  private final int timeoutMillis;
  private final long arrivalNanos;
  private final CallEnvironment calls;
  private final Cancellation cancellation = new Cancellation();
  private ByteBuf body;
  private volatile int answered;
  private volatile ServerInterceptor.Listener[] listeners;
  private volatile Timeout deadline;

  ConnectCall(HttpExchanges exchanges, HttpExchanges.Exchange exchange, MethodEntry entry, Map<String, String> headers,
      boolean json, int timeoutMillis, ByteBuf body, CallEnvironment calls) {
    this.exchanges = exchanges;
    this.exchange = exchange;
    this.connection = exchanges.connection();
    this.entry = entry;
    this.headers = headers;
    this.json = json;
    this.timeoutMillis = timeoutMillis;
    this.body = body;
    this.calls = calls;
    this.arrivalNanos = connection.ticker().nanoTime();
  }

  /** Hands the call to {@code executor} and starts its deadline (IO thread). */
  void start(Executor executor) {
    deadline = calls.timer().newTimeout(this, timeoutMillis, TimeUnit.MILLISECONDS);
    try {
      executor.execute(this);
    } catch (RuntimeException e) { // RejectedExecutionException, or a broken executor
      releaseBody();
      answerError(ConnectErrors.UNAVAILABLE, ResponseStatus.SERVER_THREADPOOL_BUSY,
          "the server's executor for " + entry.method().toString() + " is full");
    }
  }

  /**
   * The client reset the stream or closed the connection before the answer (IO thread): the call is
   * cancelled, unless it was answered first.
   */
  void cancel() {
    if (!claim()) {
      return;
    }
    connection.endpoint().callCancelled();
    log.debug("{} for HTTP request id {} from {} was cancelled: the client went away", entry.method().toString(),
        exchange.requestId, connection.remoteText());
    told(ResponseStatus.CONNECTION_CLOSED, new CancellationException("the client went away before the answer"));
    cancellation.cancel();
  }

  /** The deadline passed before the handler answered (timer thread). */
  @Override
  public void run(Timeout timeout) {
    answerError(ConnectErrors.DEADLINE_EXCEEDED, ResponseStatus.TIMEOUT,
        entry.method().httpPath() + " did not answer within " + timeoutMillis + " ms");
  }

  @Override
  public void run() {
    ByteBuf b = body;
    body = null;
    Object request;
    try {
      if (!connection.isActive() || answered != 0) {
        return; // its caller is gone, or the deadline passed while it waited
      }
      request = decode(b);
    } catch (RuntimeException | StackOverflowError e) {
      answerError(ConnectErrors.INVALID_ARGUMENT, ResponseStatus.SERVER_DESERIAL_EXCEPTION,
          "could not decode the request of " + entry.method().httpPath() + ": " + e.getMessage());
      return;
    } finally {
      if (b != null) {
        b.release();
      }
    }
    serve(request);
  }

  private Object decode(ByteBuf b) {
    MethodDescriptor<?, ?> method = entry.method();
    if (json) {
      try (ByteBufInputStream in = new ByteBufInputStream(b)) {
        return ProtoJson.read(method.requestJson(), in, false);
      } catch (IOException e) {
        throw new IllegalStateException(e); // reading a buffer does not fail
      }
    }
    return method.requestMarshaller().read(b);
  }

  private void serve(Object request) {
    CurrentCall.set(this);
    HandlerMdc.put(entry.method().toString(), connection.remoteText(), exchange.requestId);
    ServerInterceptor.Listener[] handlerListeners = null;
    long start = System.nanoTime();
    try {
      ServerInterceptor[] interceptors = calls.serverInterceptors();
      if (interceptors.length > 0) {
        try {
          handlerListeners = Interception.serve(interceptors, this);
          listen(handlerListeners);
        } catch (Interception.Refusal r) {
          handlerListeners = r.listeners;
          listen(r.listeners);
          BoltException refusal = r.refusal();
          String code = refusal instanceof PeerNotAuthorizedException ? ConnectErrors.PERMISSION_DENIED
              : ConnectErrors.code(refusal.status());
          answerError(code, refusal.status(), refusal.getMessage());
          return;
        }
      }
      entry.invoker().invoke(entry.method().methodCode(), request, this);
      if (entry.method().type() == MethodType.ONEWAY) {
        respond(null); // HTTP always answers: a oneway method answers once its handler returned
      }
    } catch (Throwable e) {
      fail(e);
      if (e instanceof VirtualMachineError vmError && !(e instanceof StackOverflowError)) {
        throw vmError;
      }
    } finally {
      if (handlerListeners != null) {
        Interception.handlerReturned(handlerListeners, entry.method().toString());
      }
      CurrentCall.clear();
      HandlerMdc.clear();
      entry.recordHandlerTime(System.nanoTime() - start);
    }
  }

  private void listen(ServerInterceptor.Listener[] listeners) {
    this.listeners = listeners.length == 0 ? null : listeners;
  }

  private void told(ResponseStatus status, Throwable error) {
    if (listeners == null) {
      return;
    }
    ServerInterceptor.Listener[] toTell = LISTENERS.getAndSet(this, null);
    if (toTell != null) {
      Interception.answered(toTell, status, error, connection.ticker().nanoTime() - arrivalNanos,
          entry.method().toString());
    }
  }

  private boolean claim() {
    if (!ANSWERED.compareAndSet(this, 0, 1)) {
      return false;
    }
    Timeout t = deadline;
    if (t != null) {
      t.cancel();
    }
    return true;
  }

  @Override
  public void respond(Object result) {
    if (!claim()) {
      return;
    }
    FullHttpResponse response;
    try {
      response = encode(result);
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      String why = "could not encode the response of " + entry.method().httpPath() + ": " + e;
      encodeFailures.warn("answered HTTP request id {} from {} with internal: {}", exchange.requestId,
          connection.remoteText(), LogText.shorten(why));
      told(ResponseStatus.SERVER_SERIAL_EXCEPTION, e);
      exchanges.answer(exchange, ConnectErrors.response(exchanges.alloc(), ConnectErrors.INTERNAL, why));
      return;
    }
    told(ResponseStatus.SUCCESS, null);
    exchanges.answer(exchange, response);
  }

  private FullHttpResponse encode(Object result) {
    MethodDescriptor<?, ?> method = entry.method();
    ByteBuf out;
    if (json) {
      @SuppressWarnings("unchecked") // the invoker answers with its method's response type
      JsonMarshaller<Object> marshaller = (JsonMarshaller<Object>) method.responseJson();
      out = exchanges.alloc().buffer(256);
      try (ByteBufOutputStream stream = new ByteBufOutputStream(out)) {
        ProtoJson.write(marshaller, result, stream);
      } catch (IOException e) {
        out.release();
        throw new IllegalStateException(e); // writing to a buffer does not fail
      } catch (RuntimeException | Error e) {
        out.release();
        throw e;
      }
    } else {
      @SuppressWarnings("unchecked") // the invoker answers with its method's response type
      Marshaller<Object> marshaller = (Marshaller<Object>) method.responseMarshaller();
      int size = marshaller.encodedSize(result);
      out = exchanges.alloc().buffer(size);
      try {
        marshaller.write(result, out);
      } catch (RuntimeException | Error e) {
        out.release();
        throw e;
      }
    }
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, out);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, json ? ConnectErrors.JSON : ConnectService.PROTO);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, out.readableBytes());
    return response;
  }

  @Override
  public void fail(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (!claim()) {
      return;
    }
    String detail = null;
    String code;
    if (cause instanceof BoltException bolt) {
      code = bolt instanceof PeerNotAuthorizedException ? ConnectErrors.PERMISSION_DENIED
          : ConnectErrors.code(bolt.status());
    } else if (cause instanceof RuntimeException || cause instanceof Error) {
      handlerFailures.warn("{} failed for HTTP request id {} from {}: {}", entry.method().toString(),
          exchange.requestId, connection.remoteText(), LogText.shorten(cause.toString()));
      log.debug("stack trace of the failure above", cause);
      code = ConnectErrors.INTERNAL;
    } else {
      log.debug("{} answered HTTP request id {} from {} with {}", entry.method().toString(), exchange.requestId,
          connection.remoteText(), cause.toString());
      code = ConnectErrors.FAILED_PRECONDITION;
      detail = cause.getClass().getName();
    }
    told(ResponseStatus.SERVER_EXCEPTION, cause);
    exchanges.answer(exchange, ConnectErrors.response(exchanges.alloc(), ConnectErrors.httpStatus(code), code,
        cause.getMessage(), detail, cause.getMessage()));
  }

  /** Answers with an error the runtime found (not the handler's). */
  private void answerError(String code, ResponseStatus status, String message) {
    if (!claim()) {
      return;
    }
    badRequests.warn("{} for HTTP request id {} from {}: {}", code, exchange.requestId, connection.remoteText(),
        LogText.shorten(message));
    told(status, new BoltException(status, message));
    exchanges.answer(exchange, ConnectErrors.response(exchanges.alloc(), code, message));
  }

  private void releaseBody() {
    ByteBuf b = body;
    body = null;
    if (b != null) {
      b.release();
    }
  }


  @Override
  public ServerContext context() {
    return this;
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
    return exchange.requestId;
  }

  @Override
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public boolean isOneway() {
    return false;
  }

  @Override
  public int clientTimeoutMillis() {
    return timeoutMillis;
  }

  @Override
  public boolean isCancelled() {
    return cancellation.isCancelled();
  }

  @Override
  public void onCancel(Runnable listener) {
    cancellation.listen(listener);
  }

  @Override
  public long remainingMillis() {
    long left = TimeUnit.MILLISECONDS.toNanos(timeoutMillis) - (connection.ticker().nanoTime() - arrivalNanos);
    return left <= 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
  }
}
