package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call in flight, from the moment a stub starts it until it completes. It is its own future: it
 * completes exactly once, with the decoded response, or with its timeout, a send failure, a connection
 * that closed, or an error status; whichever comes first wins and the others find it done.
 *
 * <p>Calls started with a future or callback time out on the process's {@code HashedWheelTimer}
 * ({@link #run}); sync calls wait with their own deadline in {@link #await()}, which saves a timer entry
 * per call. Completion cancels the timer entry and forgets the call in its connection's table.
 *
 * @param <R> the response type
 */
final class PendingCall<R> extends CompletableFuture<R> implements TimerTask, ChannelFutureListener {

  private static final Logger log = LoggerFactory.getLogger(PendingCall.class);
  private static final RateLimitedLog timeouts = RateLimitedLog.of(log);
  private static final RateLimitedLog onewayFailures = RateLimitedLog.of(log);

  private final MethodDescriptor<Object, R> method;
  private final CallOptions options;
  private final CallEnvironment env;
  private final long startNanos;
  private final long timeoutNanos;
  private final long timeoutMillis;
  private Object request;
  private volatile Timeout timeout;
  private volatile CallTable table;
  private volatile int requestId;
  private volatile SocketAddress remoteAddress;
  private volatile boolean written;
  private ByteBuf outbound;

  @SuppressWarnings("unchecked") // the request is only ever encoded with its own method's marshaller
  PendingCall(MethodDescriptor<?, R> method, Object request, CallOptions options, CallEnvironment env) {
    this.method = (MethodDescriptor<Object, R>) method;
    this.request = request;
    this.options = options;
    this.env = env;
    this.startNanos = env.ticker().nanoTime();
    this.timeoutMillis = options.timeoutMillis() > 0 ? options.timeoutMillis() : method.timeoutMillis();
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
  }

  /** The method called. */
  public MethodDescriptor<?, R> method() {
    return method;
  }

  /** Whether the call expects no response. */
  public boolean isOneway() {
    return method.type() == MethodType.ONEWAY;
  }

  /** Milliseconds left before the timeout, at least 1 while time remains, 0 once it has passed. */
  public int remainingMillis() {
    long left = timeoutNanos - (env.ticker().nanoTime() - startNanos);
    if (left <= 0) {
      return 0;
    }
    return (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
  }

  void scheduleTimeout() {
    timeout = env.timer().newTimeout(this, timeoutNanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Encodes the request frame of this call with id {@code requestId}; the request object is dropped
   * afterwards. On failure the call fails with {@code CODEC_EXCEPTION} and {@code null} is returned: a value
   * that cannot be encoded (nested too deeply or in a cycle, a failing codec) or a frame larger than
   * {@code maxFrameLength}, the most the peer accepts (checked before the frame is allocated).
   */
  public ByteBuf encode(ByteBufAllocator alloc, byte protocolCode, byte version, byte switchFlags, int requestId,
      int maxFrameLength) {
    try {
      ByteBuf frame = FrameEncoder.request(alloc, protocolCode, version, switchFlags,
          isOneway() ? Bolt.TYPE_ONEWAY : Bolt.TYPE_REQUEST, requestId,
          isOneway() ? Bolt.NO_TIMEOUT : Math.max(1, remainingMillis()),
          WireNames.wireName(method), options.headers(), method.requestMarshaller(), request,
          maxFrameLength);
      request = null;
      return frame;
    } catch (FrameTooLargeException e) {
      fail(new BoltException(ResponseStatus.CODEC_EXCEPTION, "the request of " + method.wireName() + " is a frame of "
          + e.frameLength() + " bytes, over the " + e.limit() + "-byte limit of frames the peer accepts"
          + " (peerMaxFrameLength); it was not sent", null, null, null, 0, e));
      return null;
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      fail(new BoltException(ResponseStatus.CODEC_EXCEPTION,
          "could not encode the request of " + method.wireName() + ": " + e, null, null, null, 0, e));
      return null;
    }
  }

  /**
   * Records that the call goes out on a connection as {@code requestId} and registers it in that
   * connection's {@code table} (oneway calls are not registered). Returns false if the call cannot wait
   * there (the table is closed, or the call already completed).
   */
  public boolean attach(CallTable table, int requestId, SocketAddress remoteAddress) {
    this.requestId = requestId;
    this.remoteAddress = remoteAddress;
    if (isOneway()) {
      return !isDone();
    }
    this.table = table;
    if (!table.register(requestId, this)) {
      return false;
    }
    if (isDone()) {
      table.forget(requestId, this); // completed (timed out) while we registered it
      return false;
    }
    return true;
  }

  /** Parks the encoded frame while it waits in a write queue. */
  public void setOutbound(ByteBuf frame) {
    this.outbound = frame;
  }

  /** The write queue hands the frame to the channel now (its timeout then says it was sent). */
  public void markWritten() {
    written = true;
  }

  /** Takes the encoded frame out of the call (the write queue writes or releases it). */
  public ByteBuf takeOutbound() {
    ByteBuf frame = outbound;
    outbound = null;
    return frame;
  }

  /** The request id on the wire (0 until the call is sent). */
  public int requestId() {
    return requestId;
  }

  /**
   * Completes the call with the response {@code frame} (taken from the call table on the IO thread).
   * Decodes the content on this thread; the caller keeps ownership of the frame.
   */
  public void onResponse(BoltFrame frame) {
    ResponseStatus status = ResponseStatus.fromCode(frame.status());
    if (status != ResponseStatus.SUCCESS) {
      fail(RemoteErrors.toException(frame, status, method.wireName(), remoteAddress));
      return;
    }
    R value;
    try {
      value = method.responseMarshaller().read(frame.content());
    } catch (RuntimeException e) {
      fail(new BoltException(ResponseStatus.CODEC_EXCEPTION, "could not decode the response of "
          + method.wireName() + " from " + remoteAddress + " (request id " + frame.requestId() + "): " + e,
          null, null, remoteAddress, frame.requestId(), e));
      return;
    }
    finish(value, null);
  }

  /** Fails the call with {@code error} (mapped by the method's error mapper), unless it already completed. */
  public boolean fail(BoltException error) {
    if (isOneway()) {
      boolean won = finish(null, error);
      if (won) {
        onewayFailures.warn("oneway {} not sent: {}", method.wireName(), error.getMessage());
      }
      return won;
    }
    return finish(null, method.errorMapper().map(error));
  }

  /** The timer fired: the call timed out, unless it completed first. */
  @Override
  public void run(Timeout ignored) {
    timeoutNow();
  }

  private void timeoutNow() {
    String where = remoteAddress == null ? " before it was sent"
        : written ? " (" + remoteAddress + ", request id " + requestId + ")"
        : " (" + remoteAddress + ", request id " + requestId + ") before it was written: it waited for the"
            + " connection, whose peer reads slower than calls arrive";
    BoltException error = new BoltException(ResponseStatus.TIMEOUT,
        "call to " + method.wireName() + " timed out after " + timeoutMillis + " ms" + where,
        null, null, remoteAddress, requestId, null);
    if (fail(error)) {
      timeouts.warn("{}", error.getMessage());
    }
  }

  /** A write finished: a failed write fails the call with {@code CLIENT_SEND_ERROR}. */
  @Override
  public void operationComplete(ChannelFuture future) {
    if (!future.isSuccess()) {
      fail(new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "could not send " + method.wireName() + " to "
          + remoteAddress + " (request id " + requestId + "): " + future.cause(),
          null, null, remoteAddress, requestId, future.cause()));
    }
  }

  /**
   * Blocks until the call completes or its deadline passes (sync calls).
   *
   * @throws BoltException or a mapped unchecked exception
   */
  R await() {
    try {
      long left = timeoutNanos - (env.ticker().nanoTime() - startNanos);
      if (left > 0) {
        return get(left, TimeUnit.NANOSECONDS);
      }
    } catch (TimeoutException e) {
      // fall through: time out the call unless a response raced us
    } catch (InterruptedException e) {
      fail(new BoltException(ResponseStatus.ERROR, "interrupted while waiting for " + method.wireName(),
          null, null, remoteAddress, requestId, e));
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    }
    timeoutNow();
    try {
      return getNow(null);
    } catch (java.util.concurrent.CompletionException e) {
      throw rethrow(e.getCause());
    }
  }

  private RuntimeException rethrow(Throwable cause) {
    if (cause instanceof RuntimeException) {
      return (RuntimeException) cause;
    }
    if (cause instanceof Error) {
      throw (Error) cause;
    }
    // a declared checked exception: the generated stub unwraps it from the cause
    return new BoltException(ResponseStatus.SERVER_EXCEPTION, String.valueOf(cause.getMessage()),
        cause.getClass().getName(), cause.getMessage(), remoteAddress, requestId, cause);
  }

  private boolean finish(R value, Throwable error) {
    boolean won = error == null ? super.complete(value) : super.completeExceptionally(error);
    if (won) {
      forgetEverywhere();
    }
    return won;
  }

  /** The call completed: its timer entry and its place in the call table are no longer needed. */
  private void forgetEverywhere() {
    Timeout t = timeout;
    if (t != null) {
      t.cancel();
    }
    CallTable waitingIn = table;
    if (waitingIn != null) {
      waitingIn.forget(requestId, this);
    }
  }

  @Override
  public boolean complete(R value) {
    return finish(value, null);
  }

  @Override
  public boolean completeExceptionally(Throwable ex) {
    return finish(null, ex);
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      forgetEverywhere();
    }
    return cancelled;
  }

  @Override
  public Executor defaultExecutor() {
    return env.callbackExecutor();
  }

  @Override
  public String toString() {
    return "PendingCall{" + method.wireName() + ", id=" + requestId + ", done=" + isDone() + '}';
  }
}
