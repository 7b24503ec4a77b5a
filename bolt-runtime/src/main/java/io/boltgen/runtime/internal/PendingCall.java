package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.internal.wire.RemoteErrors;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call in flight, from the moment it is made until it completes: the {@link ClientCall} that each of
 * {@link CallChannel}'s styles drives and {@code newCall} hands out, of a unary method (one answer, read by
 * {@link Answers#complete}) or a streaming one (each message handed to its {@link StreamedMessages} as it comes,
 * the end completing it; a stream of requests sent through its {@link OutgoingRequests}). It owns its completion,
 * its deadline and the mapping of its errors, nothing of the wire ({@link BoltConnection#send}). It completes once,
 * with the answer, its timeout, a send failure, a closed connection, an error status or its cancellation; the first
 * wins, cancels its timer entry, forgets the call in its connection's table and tells its {@link CallListener}.
 *
 * <p>A sync caller waits with the call's deadline ({@link SyncWait}); other calls time out on the sweep of the
 * table they wait in, or on the endpoint's timer ({@link #run}) elsewhere. A call to a cluster goes out as one or
 * more <em>attempts</em> ({@link #newAttempt}), each sent to one instance without a timer (its parent's deadline
 * cancels it) and failing with the raw {@link BoltException} so that the cluster can decide to send another.
 *
 * <p>Thread-safe: completion is decided by the future's single compare-and-set; the fields a connection sets
 * when it sends the call are volatile.
 *
 * @param <R> the response type
 */
public final class PendingCall<R> extends CompletableFuture<R> implements ClientCall<Object, R>, TimerTask {

  private static final VarHandle LISTENER;

  static {
    try {
      LISTENER = MethodHandles.lookup().findVarHandle(PendingCall.class, "listener", CallListener.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("rawtypes") // a field updater cannot name a parameterized type
  private static final AtomicReferenceFieldUpdater<PendingCall, Departure> DEPARTURE =
      AtomicReferenceFieldUpdater.newUpdater(PendingCall.class, Departure.class, "departure");

  /** The longest an attempt abandoned after its request was written keeps its place on the instance. */
  static final long ABANDONED_PLACE_MILLIS = 30_000;

  private static final int NOT_STARTED = 0;
  private static final int STARTED = 1;
  private static final int SENT = 2;
  private static final int HALF_CLOSED = 3;
  // what the caller did wrong, by the state it called a method in
  private static final String[] MISUSE = {"was not started", "was half-closed without its request message",
      "carries one request message", "was half-closed already"};

  private static final Logger log = LoggerFactory.getLogger(PendingCall.class);
  private static final RateLimitedLog timeouts = RateLimitedLog.of(log);

  private final MethodDescriptor<Object, R> method;
  private final CallOptions options;
  private final CallEnvironment env;
  private final CallBudget budget; // its deadline, shared by its attempts
  private final CallTarget target; // where halfClose sends it (an attempt is sent by its cluster)
  // set by the style as the call is made, or published by start (LISTENER); read by finish with a volatile read
  private CallListener<R> listener;
  private final PendingCall<R> parent;
  private int sending; // how far its caller got (its thread's): NOT_STARTED, STARTED, SENT (its message), HALF_CLOSED
  private boolean retainsRequest;
  // times out on its connection's sweep once it waits in a call table (see CallTable), on its own timer before
  private boolean sweptDeadline;
  private Object request;
  private final OutgoingRequests outgoing; // a stream of requests' (its attempts send through their parent's)
  private volatile PendingCall<R> attempt;
  private volatile Timeout timeout;
  private volatile CallTable table;
  private volatile int requestId;
  private volatile SocketAddress remoteAddress;
  private volatile boolean written;
  private volatile Departure departure; // an attempt's, until it has run (once)

  /** A call to {@code target}, told to {@code listener} (null: {@link SyncWait}), or to {@link #start}'s. */
  @SuppressWarnings("unchecked") // the request is only ever encoded with its own method's marshaller
  PendingCall(MethodDescriptor<?, R> method, CallOptions options, CallEnvironment env, CallTarget target,
      CallListener<R> listener, boolean awaitingStart) {
    this.method = (MethodDescriptor<Object, R>) method;
    this.listener = listener;
    this.target = target;
    this.sending = awaitingStart ? NOT_STARTED : STARTED;
    this.parent = null;
    this.options = options;
    this.env = env;
    this.budget = CallBudget.of(method, options, env.ticker());
    this.outgoing = method.type().streamsRequests() ? new OutgoingRequests(this, this.method) : null;
  }

  /** One attempt of {@code parent}, with its parent's deadline. */
  private PendingCall(PendingCall<R> parent, CallListener<R> listener, Departure departure) {
    this.method = parent.method;
    this.listener = listener;
    this.target = null;
    this.departure = departure;
    this.parent = parent;
    this.request = parent.request;
    this.options = parent.options;
    this.env = parent.env;
    this.budget = parent.budget;
    this.outgoing = null;
  }

  // the ClientCall: one request message (or a stream), then one answer (a oneway call's none) or a stream, the close

  @Override
  public void start(ClientCall.Listener<? super R> caller) {
    Objects.requireNonNull(caller, "listener");
    if (sending != NOT_STARTED) {
      throw new IllegalStateException("the call of " + method.toString() + " was started already");
    }
    sending = STARTED;
    Executor executor = options.callbackExecutor() != null ? options.callbackExecutor() : env.callbackExecutor();
    StartedListener<R> told = streams() ? new StreamedMessages<>(caller, executor, method)
        : new StreamListener<>(caller, executor, method);
    LISTENER.setVolatile(this, told); // then isDone: finish (completion, then its listener) or this tells
    if (isDone()) { // refused, expired or cancelled before it started (finish may have seen it too: told once)
      try {
        told.onComplete(getNow(null), null);
      } catch (CompletionException | CancellationException e) {
        told.onComplete(null, e);
      }
    } else if (outgoing != null) {
      expectTimeout(); // a stream of requests goes out now: its messages follow as its server grants them
      target.send(this);
    }
  }

  @Override
  public void request(int count) {
    if (count <= 0) {
      throw new IllegalArgumentException("a call asks for a positive number of messages, not " + count);
    }
    if (!(listener instanceof StartedListener<R> told)) {
      throw misuse();
    }
    told.request(count);
  }

  @Override
  public void sendMessage(Object message) {
    if (sending != STARTED) {
      throw misuse();
    } else if (outgoing != null) {
      outgoing.send(message); // a stream of requests: each goes out as its server grants it
    } else {
      sending = SENT;
      request = message;
    }
  }

  @Override
  public void halfClose() {
    halfClose(true);
  }

  /** Sends the call, {@code timed} by its deadline wherever it waits, else only while it connects (sync, oneway). */
  void halfClose(boolean timed) {
    if (outgoing != null && sending == STARTED) {
      sending = HALF_CLOSED;
      outgoing.end();
      return;
    }
    if (sending != SENT) {
      throw misuse();
    }
    sending = HALF_CLOSED;
    if (!isDone()) {
      if (timed) {
        expectTimeout();
      }
      target.send(this);
    }
  }

  @Override
  public void cancel(String reason, Throwable cause) {
    CancellationException cancelled = new CancellationException(reason != null ? reason : "cancelled by its caller");
    if (cause != null) {
      cancelled.initCause(cause);
    }
    finish(null, cancelled);
  }

  @Override
  public boolean isReady() {
    return sending < HALF_CLOSED && !isDone() && (outgoing == null || outgoing.isReady());
  }

  /** The call's stream of requests (its parent's, for an attempt), or null for a call of one request. */
  OutgoingRequests outgoing() {
    return parent != null ? parent.outgoing : outgoing;
  }

  /** Whether another instance could still take the call: not a stream of requests whose messages began to leave. */
  public boolean resendable() {
    return outgoing() == null || !outgoing().sentAny();
  }

  private IllegalStateException misuse() {
    return new IllegalStateException("the call of " + method.toString() + " " + MISUSE[sending]);
  }

  /** Makes this call keep its request until it completes, for its attempts (before the first one). */
  public void retainRequest() {
    retainsRequest = true;
  }

  /**
   * A new attempt of this call, told to {@code listener} when it completes and to {@code departure} once it left its
   * instance, which this call cancels when it completes first; {@code null} if this call completed (departed then).
   */
  public PendingCall<R> newAttempt(CallListener<R> listener, Departure departure) {
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

  /** The time the call has, from when it was made: its deadline. */
  CallBudget budget() {
    return budget;
  }

  /** Whether the call is a stream over Bolt: its answer a stream of messages ({@link StreamedMessages}). */
  boolean streams() {
    return method.type().streamsAnswers() || method.type().streamsRequests();
  }

  /** Whether the call expects no response. */
  public boolean isOneway() {
    return method.type() == MethodType.ONEWAY;
  }

  /** Milliseconds left, at least 1 while time remains, 0 once it has passed. */
  public int remainingMillis() {
    return budget.remainingMillis();
  }

  /** Times the call out at its deadline, on its table's sweep or its own timer ({@link #timeWhileWaiting()}). */
  void expectTimeout() {
    sweptDeadline = true;
  }

  /** The call waits elsewhere than in a call table (for a connection): if it expects a timeout, it gets a timer. */
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

  public void scheduleTimeout() {
    timeout = env.timer().newTimeout(this, Math.max(0, budget.nanosLeft()), TimeUnit.NANOSECONDS);
  }

  /** The options the call was made with. */
  public CallOptions options() {
    return options;
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
   * Records that the call goes out on a connection as {@code requestId} and registers it in that connection's
   * {@code table} (a oneway call is not); false if it cannot wait there (the table closed, or the call completed).
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
    return rejoin();
  }

  /** Waits in its table (again, for a stream taken out with a message); false if the table closed or it completed. */
  boolean rejoin() {
    if (!table.register(requestId, this)) {
      return false;
    }
    if (isDone()) {
      table.forget(requestId, this); // completed (timed out) while we registered it
      return false;
    }
    if (sweptDeadline) {
      table.watchDeadline(budget.deadlineNanos()); // a sweep that ran while it was out did not see it
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

  /** What the call (its parent, for an attempt) tells: {@link #start}'s listener, a style's, or null. */
  @SuppressWarnings("unchecked") // set only as a CallListener<R>
  CallListener<R> told() {
    return (CallListener<R>) LISTENER.getVolatile(parent != null ? parent : this);
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
    BoltException error = budget.timedOut(method.toString(), options, remoteAddress, requestId, written);
    if (fail(error)) {
      timeouts.warn("{}", error.getMessage());
    }
  }

  private boolean finish(R value, Throwable error) {
    boolean won = error == null ? super.complete(value) : super.completeExceptionally(error);
    if (won) {
      forgetEverywhere(false);
      depart(RemoteErrors.isAnswer(error));
      @SuppressWarnings("unchecked") // set only as a CallListener<R>
      CallListener<R> told = (CallListener<R>) LISTENER.getVolatile(this);
      if (told != null) {
        told.onComplete(value, error);
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

  /** An abandoned attempt leaves its table after {@value #ABANDONED_PLACE_MILLIS} ms without a late answer anyway. */
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

  /** The call completed: it leaves its timer and its table, unless {@code stayInTable} (see {@link #cancel}). */
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
   * Abandons the call: it leaves its timer now and, unless it is an attempt whose unary request was written, its
   * table (a late answer is dropped). An attempt tells its listener, and its {@link Departure} once it has left.
   */
  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      // an attempt whose request was written may still run on its instance: it keeps its place there (in its
      // call table) until the late answer comes or the connection closes; a stream's is cancelled there at once
      boolean staysInTable = departure != null && written && table != null && !streams();
      forgetEverywhere(staysInTable);
      if (!staysInTable) {
        depart(false);
      } else {
        keepPlaceAtMost();
      }
      if (parent != null && listener != null) {
        listener.onComplete(null, new CancellationException("the call completed first"));
      }
    }
    return cancelled;
  }

  @Override
  public String toString() {
    return "PendingCall{" + method.toString() + ", id=" + requestId + ", done=" + isDone() + '}';
  }
}
