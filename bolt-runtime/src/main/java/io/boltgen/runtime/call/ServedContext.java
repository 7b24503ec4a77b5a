package io.boltgen.runtime.call;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.Deadline;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ServerContext;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a handler sees of the one server call ({@link ServerContext}): its transport's stream, its method, the
 * caller's timeout and the deadline it makes, measured from the request's arrival on this server's clock. The
 * part of {@link ServedCall} that never changes once the call is made.
 *
 * <p>Immutable but for what the stream reports; thread-safe.
 */
abstract class ServedContext implements ServerContext {

  final ServerCalls calls;
  final ServerCalls.Method method;
  final ServerStream stream;
  final long arrivalNanos;
  final int timeoutMillis; // the caller's, as sent; -1 for a oneway call, 0 or less for none
  final long deadlineNanos; // arrivalNanos + the caller's timeout; meaningless without one
  final boolean oneway;

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

  /** The deadline on this server's clock, or {@link Long#MAX_VALUE} without one (what calls made here inherit). */
  long deadlineNanos() {
    return timeoutMillis <= 0 ? Long.MAX_VALUE : deadlineNanos;
  }
}
