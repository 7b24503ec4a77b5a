package io.boltgen.runtime.call;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.Deadline;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServerContext;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * What a handler sees of the one server call ({@link ServerContext}): its transport's stream, its method, the
 * caller's timeout and the deadline it makes, measured from the request's arrival on this server's clock, and its
 * cancellation as the handler listens for it. The part of {@link ServedCall} a handler reads.
 *
 * <p>Thread-safe.
 */
abstract class ServedContext implements ServerContext {

  /** Claims a call's close: the first outcome sets {@link #closed} from 0 to 1. */
  static final AtomicIntegerFieldUpdater<ServedContext> CLOSED =
      AtomicIntegerFieldUpdater.newUpdater(ServedContext.class, "closed");
  private static final AtomicReferenceFieldUpdater<ServedContext, Cancellation> CANCELLATION =
      AtomicReferenceFieldUpdater.newUpdater(ServedContext.class, Cancellation.class, "cancellation");

  final ServerCalls calls;
  final ServerCalls.Method method;
  final ServerStream stream;
  final long arrivalNanos;
  final int timeoutMillis; // the caller's, as sent; -1 for a oneway call, 0 or less for none
  final long deadlineNanos; // arrivalNanos + the caller's timeout; meaningless without one
  final boolean oneway;
  // 1 once the stream was closed (or is being closed): the first outcome claims it
  volatile int closed;
  // the call was closed because its caller went away: cancelled, never answered
  volatile boolean cancelled;
  // made when the handler first listens for cancellation (most calls never do)
  private volatile Cancellation cancellation;

  ServedContext(ServerCalls calls, ServerCalls.Method method, ServerStream stream, long arrivalNanos,
      int timeoutMillis, boolean oneway) {
    this.calls = calls;
    this.method = method;
    this.stream = stream;
    this.arrivalNanos = arrivalNanos;
    this.timeoutMillis = oneway ? -1 : timeoutMillis;
    this.oneway = oneway;
    this.deadlineNanos = arrivalNanos + TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeoutMillis));
  }

  @Override
  public Connection connection() {
    return stream.connection();
  }

  @Override
  public SocketAddress remoteAddress() {
    return stream.connection().remoteAddress();
  }

  @Override
  public MethodDescriptor<?, ?> method() {
    return method.descriptor;
  }

  @Override
  public int requestId() {
    return stream.streamId();
  }

  @Override
  public Map<String, String> headers() {
    return stream.headers();
  }

  @Override
  public boolean isOneway() {
    return oneway;
  }

  @Override
  public int clientTimeoutMillis() {
    return timeoutMillis;
  }

  @Override
  public long remainingMillis() {
    if (timeoutMillis <= 0) {
      return Long.MAX_VALUE;
    }
    long left = deadlineNanos - calls.ticker().nanoTime();
    return left <= 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
  }

  @Override
  public Deadline deadline() {
    if (timeoutMillis <= 0) {
      return null;
    }
    return Deadline.after(deadlineNanos - calls.ticker().nanoTime(), TimeUnit.NANOSECONDS, calls.deadlineTicker());
  }

  /** Whether the call has closed (answered, refused, timed out or cancelled). */
  final boolean isClosed() {
    return closed != 0;
  }

  @Override
  public boolean isCancelled() {
    return cancelled || (closed == 0 && !stream.isOpen());
  }

  @Override
  public void onCancel(Runnable listener) {
    Cancellation c = cancellation;
    if (c == null) {
      Cancellation made = new Cancellation();
      if (CANCELLATION.compareAndSet(this, null, made)) {
        c = made;
        stream.watchCancellation();
      } else {
        c = cancellation;
      }
    }
    c.listen(listener);
    if (isCancelled()) {
      c.cancel(); // the caller went away before the transport could tell this call
    }
  }

  /** Runs the handler's cancellation listeners, if it registered any (the call was cancelled). */
  void runCancellationListeners() {
    Cancellation c = cancellation;
    if (c != null) {
      c.cancel();
    }
  }

  /** The deadline on this server's clock, or {@link Long#MAX_VALUE} without one (what calls made here inherit). */
  long deadlineNanos() {
    return timeoutMillis <= 0 ? Long.MAX_VALUE : deadlineNanos;
  }
}
