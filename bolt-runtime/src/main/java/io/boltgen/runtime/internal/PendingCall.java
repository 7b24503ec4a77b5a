package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.HeadersCodec;
import io.boltgen.runtime.internal.wire.RemoteErrors;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call in flight, from the moment a stub starts it until it completes: it owns its completion, its
 * timeout and the mapping of its errors, nothing of the wire (the connection encodes and writes it, see
 * {@link BoltConnection#send}). It completes exactly once, with the decoded response, or with its timeout,
 * a send failure, a connection that closed, or an error status; whichever comes first wins and the others
 * find it done. Completion cancels the timer entry, forgets the call in its connection's table and tells its
 * {@link Listener} (the caller's future or callback).
 *
 * <p>Calls started with a future or callback time out on the endpoint's timer ({@link #run}); sync calls
 * wait with their own deadline in {@link #await()}, which saves a timer entry per call. The caller never
 * holds this object: a sync caller gets the value, a future caller a {@link CallFuture}.
 *
 * <p>A call to a cluster ({@code cluster.ClusterTarget}) goes out as one or more <em>attempts</em>: each is a
 * {@code PendingCall} of its own ({@link #newAttempt}), sent to one instance, without a timer (its parent's
 * deadline cancels it) and failing with the raw {@link BoltException} so that the cluster can decide to send
 * another. The parent keeps its request until it completes, and completes with the first attempt that
 * succeeds or the failure no further attempt may follow.
 *
 * <p>Thread-safe: completion is decided by the underlying future's single compare-and-set; the fields a
 * connection sets when it sends the call are volatile.
 *
 * @param <R> the response type
 */
public final class PendingCall<R> extends CompletableFuture<R> implements TimerTask {

  /** Told once when the call completes, on the thread that completed it. */
  public interface Listener<R> {
    void onComplete(R value, Throwable error);
  }

  /**
   * Told once when an attempt has left its instance: with its own outcome, or, for an attempt abandoned after
   * its request was written (its call completed first, say timed out), once the late answer arrives
   * ({@code answered}) or its connection closes. Until then the instance may still be running it.
   */
  public interface Departure {
    void left(boolean answered);
  }

  @SuppressWarnings("rawtypes") // a field updater cannot name a parameterized type
  private static final AtomicReferenceFieldUpdater<PendingCall, Departure> DEPARTURE =
      AtomicReferenceFieldUpdater.newUpdater(PendingCall.class, Departure.class, "departure");

  /** The longest an attempt abandoned after its request was written keeps its place on the instance. */
  static final long ABANDONED_PLACE_MILLIS = 30_000;

  private static final Logger log = LoggerFactory.getLogger(PendingCall.class);
  private static final RateLimitedLog timeouts = RateLimitedLog.of(log);

  private final MethodDescriptor<Object, R> method;
  private final CallOptions options;
  private final CallEnvironment env;
  private final long startNanos;
  private final long timeoutNanos;
  private final long timeoutMillis;
  private final boolean inheritedDeadline; // what was left of the served call's ended it, not its own
  private final Listener<R> listener;
  private final PendingCall<R> parent;
  private boolean retainsRequest;
  // times out on its connection's sweep once it waits in a call table (see CallTable), on its own timer before
  private boolean sweptDeadline;
  private Object request;
  private volatile PendingCall<R> attempt;
  private volatile Timeout timeout;
  private volatile CallTable table;
  private volatile int requestId;
  private volatile SocketAddress remoteAddress;
  private volatile boolean written;
  private volatile Departure departure; // an attempt's, until it has run (once)

  @SuppressWarnings("unchecked") // the request is only ever encoded with its own method's marshaller
  PendingCall(MethodDescriptor<?, R> method, Object request, CallOptions options, CallEnvironment env,
      Listener<R> listener) {
    this.method = (MethodDescriptor<Object, R>) method;
    this.listener = listener;
    this.parent = null;
    this.request = request;
    this.options = options;
    this.env = env;
    this.startNanos = env.ticker().nanoTime();
    this.timeoutMillis = options.timeoutMillis() > 0 ? options.timeoutMillis() : method.timeoutMillis();
    long own = CallBudget.ownNanos(options, timeoutMillis);
    long inherited = ServerCalls.inheritedNanos(); // the served call's, when its handler makes this call
    this.inheritedDeadline = inherited < own;
    this.timeoutNanos = Math.max(0, Math.min(own, inherited));
  }

  /** One attempt of {@code parent}, with the time its parent has left. */
  private PendingCall(PendingCall<R> parent, Listener<R> listener, Departure departure) {
    this.method = parent.method;
    this.listener = listener;
    this.departure = departure;
    this.parent = parent;
    this.request = parent.request;
    this.options = parent.options;
    this.env = parent.env;
    this.startNanos = env.ticker().nanoTime();
    this.timeoutMillis = parent.timeoutMillis;
    this.inheritedDeadline = parent.inheritedDeadline;
    this.timeoutNanos = Math.max(0, parent.timeoutNanos - (startNanos - parent.startNanos));
  }

  /**
   * Makes this call keep its request until it completes, for its attempts. Called by the thread that
   * started the call, before the first attempt.
   */
  public void retainRequest() {
    retainsRequest = true;
  }

  /**
   * A new attempt of this call, told to {@code listener} when it completes, and to {@code departure} when it
   * has left its instance; it becomes the attempt this call cancels when it completes first. Returns
   * {@code null} if this call already completed (its departure has run then).
   */
  public PendingCall<R> newAttempt(Listener<R> listener, Departure departure) {
    PendingCall<R> next = new PendingCall<>(this, listener, departure);
    attempt = next;
    if (isDone()) {
      next.cancel(false); // completed (timed out) meanwhile: forgetEverywhere may have missed it
      return null;
    }
    return next;
  }

  /** Whether the request of this attempt was handed to a socket (it may have reached the peer). */
  public boolean wasWritten() {
    return written;
  }

  /** Completes this call with {@code value}, an attempt's response. */
  public boolean succeed(R value) {
    return finish(value, null);
  }

  /** The method called. */
  public MethodDescriptor<Object, R> method() {
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

  /**
   * Makes the call time out at its deadline: on the sweep of the call table it waits in once it is sent
   * (no timer entry of its own), or on its own timer entry where it waits anywhere else (see
   * {@link #timeWhileWaiting()}). Called by the thread that started the call, before sending it.
   */
  void expectTimeout() {
    sweptDeadline = true;
  }

  /**
   * The call waits somewhere other than a call table (for a connection, say): if it expects a timeout, it
   * gets its own timer entry now.
   */
  public void timeWhileWaiting() {
    if (sweptDeadline && timeout == null) {
      sweptDeadline = false;
      scheduleTimeout();
    }
  }

  /** Whether the sweep of the table the call waits in times it out (see {@link #expectTimeout()}). */
  boolean hasSweptDeadline() {
    return sweptDeadline;
  }

  /** The deadline on the endpoint's ticker. */
  long deadlineNanos() {
    return startNanos + timeoutNanos;
  }

  public void scheduleTimeout() {
    timeout = env.timer().newTimeout(this, Math.max(0, deadlineNanos() - env.ticker().nanoTime()), TimeUnit.NANOSECONDS);
  }

  /** The options the call was made with. */
  public CallOptions options() {
    return options;
  }

  /** The request headers: the method's, then the call's. */
  Map<String, String> headers() {
    return HeadersCodec.merge(method.requestHeaders(), options.headers());
  }

  /** The request value, handed over once to be encoded (the call does not keep it). */
  Object takeRequest() {
    Object r = request;
    if (!retainsRequest) {
      request = null;
    }
    return r;
  }

  /**
   * Records that the call goes out on a connection as {@code requestId} and registers it in that
   * connection's {@code table} (oneway calls are not registered). Returns false if the call cannot wait
   * there (the table is closed, or the call already completed).
   */
  boolean attach(CallTable table, int requestId, SocketAddress remoteAddress) {
    this.requestId = requestId;
    this.remoteAddress = remoteAddress;
    PendingCall<R> p = parent;
    if (p != null) {
      p.requestId = requestId; // what the parent's timeout says
      p.remoteAddress = remoteAddress;
    }
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
    if (sweptDeadline) {
      table.watchDeadline(deadlineNanos());
    }
    return true;
  }

  /** The write queue hands the frame to the channel now (its timeout then says it was sent). */
  void markWritten() {
    written = true;
    PendingCall<R> p = parent;
    if (p != null) {
      p.written = true;
    }
  }

  /** The request id on the wire (0 until the call is sent). */
  int requestId() {
    return requestId;
  }

  /** The peer the call went to ({@code null} until it is sent). */
  SocketAddress remoteAddress() {
    return remoteAddress;
  }

  /**
   * Completes the call with the response {@code frame} (taken from the call table on the IO thread).
   * Decodes the content on this thread; the caller keeps ownership of the frame.
   */
  void onResponse(BoltFrame frame) {
    ResponseStatus status = ResponseStatus.fromCode(frame.status());
    if (status != ResponseStatus.SUCCESS) {
      fail(RemoteErrors.toException(frame, status, method.toString(), remoteAddress));
      return;
    }
    R value;
    try {
      value = Answers.read(method.responseMarshaller(), frame);
    } catch (BoltException e) {
      fail(Answers.from(e, remoteAddress, frame.requestId())); // the failure the answer carries
      return;
    } catch (RuntimeException e) {
      fail(new BoltException(ResponseStatus.CODEC_EXCEPTION, "could not decode the response of "
          + method.toString() + " from " + remoteAddress + " (request id " + frame.requestId() + "): " + e,
          null, null, remoteAddress, frame.requestId(), e));
      return;
    }
    finish(value, null);
  }

  /** Fails the call with {@code error} (mapped by the method's error mapper), unless it already completed. */
  public boolean fail(BoltException error) {
    if (parent != null || isOneway()) {
      return finish(null, error); // an attempt: the cluster decides and its parent maps; a oneway: its listener
    }
    return finish(null, method.errorMapper().map(error));
  }

  /** The timer fired: the call timed out, unless it completed first. */
  @Override
  public void run(Timeout ignored) {
    timeoutNow();
  }

  /** The deadline passed: fails the call with TIMEOUT, unless it completed first. */
  void timeoutNow() {
    BoltException error = CallBudget.timedOut(method.toString(), timeoutNanos, timeoutMillis, inheritedDeadline,
        options, remoteAddress, requestId, written);
    if (fail(error)) {
      timeouts.warn("{}", error.getMessage());
    }
  }

  /** Whether the call's deadline had passed before it started: it fails at once, sending nothing. */
  boolean expiredAtStart() {
    return timeoutNanos == 0;
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
      fail(new BoltException(ResponseStatus.ERROR, "interrupted while waiting for " + method.toString(),
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

  /**
   * The failure of a sync call, thrown as itself: a {@code BoltException}, or the declared exception its
   * method's error mapper made of one. A checked one is thrown although {@link #await()} does not declare
   * it: the stub's method does, and it is the exception the caller catches.
   */
  private static RuntimeException rethrow(Throwable cause) {
    return PendingCall.<RuntimeException>sneaky(cause);
  }

  // the cast is erased: any Throwable leaves as itself; T is inferred at the call to let a checked one through
  @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"})
  private static <T extends Throwable> T sneaky(Throwable cause) throws T {
    throw (T) cause;
  }

  private boolean finish(R value, Throwable error) {
    boolean won = error == null ? super.complete(value) : super.completeExceptionally(error);
    if (won) {
      forgetEverywhere(false);
      depart(RemoteErrors.isAnswer(error));
      if (listener != null) {
        listener.onComplete(value, error);
      }
    } else if (departure != null && isCancelled()) {
      // an abandoned attempt that stayed in its table: its late answer (or its connection's close) came
      Timeout bound = timeout;
      if (bound != null) {
        bound.cancel();
      }
      depart(RemoteErrors.isAnswer(error));
    }
    return won;
  }

  /**
   * Bounds how long an abandoned attempt keeps its place: after {@value #ABANDONED_PLACE_MILLIS} ms without a
   * late answer (a server that never answers some requests, its connection alive) it leaves its table anyway.
   */
  private void keepPlaceAtMost() {
    try {
      timeout = env.timer().newTimeout(ignored -> {
        CallTable waitingIn = table;
        if (waitingIn != null) {
          waitingIn.forget(requestId, this);
        }
        depart(false);
      }, ABANDONED_PLACE_MILLIS, TimeUnit.MILLISECONDS);
    } catch (IllegalStateException e) {
      depart(false); // the timer stopped: the client is closing
    }
  }

  private void depart(boolean answered) {
    Departure d = DEPARTURE.getAndSet(this, null);
    if (d != null) {
      d.left(answered);
    }
  }

  /** A oneway call is done once its frame is queued. */
  public void sent() {
    finish(null, null);
  }

  /**
   * The call completed: its timer entry and its place in the call table are no longer needed, unless
   * {@code stayInTable} (an abandoned attempt whose request was written waits there for its late answer).
   */
  private void forgetEverywhere(boolean stayInTable) {
    Timeout t = timeout;
    if (t != null) {
      t.cancel();
    }
    CallTable waitingIn = table;
    if (waitingIn != null && !stayInTable) {
      waitingIn.forget(requestId, this);
    }
    PendingCall<R> current = attempt;
    if (current != null) {
      current.cancel(false); // a no-op for the attempt that completed this call
    }
    request = null; // kept by a cluster call for its attempts, or never taken by one that failed first
  }

  @Override
  public boolean complete(R value) {
    throw new UnsupportedOperationException("a call completes only with its own outcome");
  }

  @Override
  public boolean completeExceptionally(Throwable ex) {
    throw new UnsupportedOperationException("a call completes only with its own outcome");
  }

  /**
   * Abandons the call: it leaves its timer now and, unless it is an attempt whose request was written, its
   * table (a late answer is dropped). An attempt tells its listener (with a
   * {@link java.util.concurrent.CancellationException}), and its {@link Departure} once it has left.
   */
  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      // an attempt whose request was written may still run on its instance: it keeps its place there (it stays
      // in its call table) until the late answer comes or the connection closes
      boolean staysInTable = departure != null && written && table != null;
      forgetEverywhere(staysInTable);
      if (!staysInTable) {
        depart(false);
      } else {
        keepPlaceAtMost();
      }
      if (parent != null && listener != null) {
        listener.onComplete(null, new java.util.concurrent.CancellationException("the call completed first"));
      }
    }
    return cancelled;
  }

  @Override
  public String toString() {
    return "PendingCall{" + method.toString() + ", id=" + requestId + ", done=" + isDone() + '}';
  }
}
