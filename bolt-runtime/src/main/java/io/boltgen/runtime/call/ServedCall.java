package io.boltgen.runtime.call;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerCall;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one server call: every protocol's handler runs here, over the transport's {@link ServerStream}. It takes
 * the caller's message, runs on the executor chosen for it ({@link #run}), drops a call whose caller went away
 * or whose deadline passed while it waited, decodes the request, sets the current context
 * ({@link ServerContext#current()}) and the handler's logging context, runs the interceptors and the handler,
 * times it, and closes the stream exactly once with what came first: the handler's result or failure, a
 * refusal, a full executor, the deadline (by its one timer, for a protocol that answers deadlines) or the
 * caller's cancellation. A unary call is one message each way; a server-streaming call takes one and answers
 * with the messages of a publisher ({@link StreamedAnswer}); a client-streaming or bidirectional call starts
 * before any message and gives its handler the caller's messages as a publisher ({@link StreamedRequests}).
 *
 * <p>Threads: made and told its message on the IO thread; run once on its executor; answered from any thread;
 * cancelled from the IO thread; timed out on the timer thread. The close is claimed by one compare-and-set.
 */
final class ServedCall extends ServedContext implements ServerStream.Listener, Runnable, ServerCall, TimerTask {

  private static final Logger log = LoggerFactory.getLogger(ServedCall.class);
  private static final RateLimitedLog dropped = RateLimitedLog.of(log);
  private static final RateLimitedLog refusedBusy = RateLimitedLog.of(log);
  private static final RateLimitedLog handlerFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog badRequests = RateLimitedLog.of(log);
  private static final RateLimitedLog protocolErrors = RateLimitedLog.of(log);

  private static final AtomicReferenceFieldUpdater<ServedCall, ServerInterceptor.Listener[]> LISTENERS =
      AtomicReferenceFieldUpdater.newUpdater(ServedCall.class, ServerInterceptor.Listener[].class, "listeners");
  private static final AtomicReferenceFieldUpdater<ServedCall, StreamedAnswer> STREAMED =
      AtomicReferenceFieldUpdater.newUpdater(ServedCall.class, StreamedAnswer.class, "streamed");

  private final Executor executor;
  // the caller's messages of a method that streams them, the handler's request (null for one request)
  private final StreamedRequests requests;

  // the caller's message: held from the IO thread until the executor runs the call, decoded on arrival or there
  private ServerStream.Message message;
  private Object request;
  private boolean decoded;
  // the interceptors' listeners, told once of the outcome (null without interceptors, and once told)
  private volatile ServerInterceptor.Listener[] listeners;
  // the deadline's timer, for a protocol that answers deadlines
  private volatile Timeout deadline;
  // the subscriber of a streamed answer, once the handler gave one
  private volatile StreamedAnswer streamed;
  // the thread running the handler, whether it runs in a shared task (an answer the handler gives on that thread
  // then waits for the task's one flush), and when it answered if it did so before returning (handler thread only)
  private Thread runner;
  private boolean shared;
  private long answeredNanos;
  // the interceptors' listeners, told on the handler's thread when it returned (handler thread only)
  private ServerInterceptor.Listener[] handlerListeners;

  ServedCall(ServerCalls calls, ServerCalls.Method method, ServerStream stream, long arrivalNanos, int timeoutMillis,
      boolean oneway, Executor executor) {
    super(calls, method, stream, arrivalNanos, timeoutMillis, oneway);
    this.executor = executor;
    this.requests = method.descriptor.type().streamsRequests() ? new StreamedRequests(this, executor) : null;
  }

  /** Times the call out at its deadline, on {@code timer}: the protocol answers its caller then (IO thread). */
  void armDeadline(Timer timer) {
    deadline = timer.newTimeout(this, Math.max(0, deadlineNanos - calls.ticker().nanoTime()), TimeUnit.NANOSECONDS);
  }

  ServerCalls.Method servedMethod() {
    return method;
  }

  Executor executor() {
    return executor;
  }

  /** Releases the caller's message of a call that will not run (IO or timer thread, never while it runs). */
  void discardMessage() {
    ServerStream.Message m = message;
    message = null;
    if (m != null) {
      m.release();
    }
  }

  // ------------------------------------------------------------------ what the transport tells (IO thread)

  @Override
  public void onMessage(ServerStream.Message message) {
    if (requests != null) {
      requests.onMessage(message);
    } else if (this.message != null || decoded) {
      message.release();
      protocolErrors.warn("{} from {} sent a second request on request id {}; refused", method, stream.remoteText(),
          stream.streamId());
      refuse(ResponseStatus.SERVER_DESERIAL_EXCEPTION, method + " takes one request message, not more", null);
    } else if (message.decodeOnArrival()) {
      // decoded on the IO thread that read it, so that its buffer is freed on the thread that allocated it
      decode(message);
    } else {
      this.message = message;
    }
  }

  @Override
  public void onHalfClose() {
    if (requests != null) { // a unary call runs once it has its message: the transport starts it (Dispatch.start)
      requests.onHalfClose();
    }
  }

  /** The caller went away before the call closed (IO thread): it is cancelled, unless it was answered first. */
  @Override
  public void onCancel() {
    if (claim()) {
      cancelNow("the caller went away before the answer");
    }
  }

  @Override
  public void onReady() {
    StreamedAnswer s = streamed;
    if (s != null) {
      s.onReady(); // a unary answer is written whole: only a stream waits for readiness
    }
  }

  private void decode(ServerStream.Message m) {
    try {
      request = m.decode();
      decoded = true;
    } catch (BoltException e) {
      refuse(e.status(), e.getMessage(), e.getCause());
    } catch (RuntimeException | StackOverflowError e) {
      refuse(ResponseStatus.SERVER_DESERIAL_EXCEPTION, "could not decode the request of " + method + ": "
          + e.getMessage(), e);
    }
  }

  // ------------------------------------------------------------------ serving (the executor's thread)

  @Override
  public void run() {
    try {
      serve();
    } finally {
      if (closed == 0) {
        stream.handlerReturned(); // it answers later, from elsewhere
      }
    }
  }

  /** Runs the call in a shared task, whose answers leave in one flush at its end. */
  void runShared() {
    shared = true;
    try {
      run();
    } finally {
      shared = false;
    }
  }

  /** Writes what the answers of a shared task kept back. */
  void flush() {
    stream.flush();
  }

  private void serve() {
    ServerStream.Message m = message;
    message = null;
    try {
      if (closed != 0) {
        return; // refused, cancelled or timed out while it waited
      }
      if (!stream.isOpen()) {
        // its caller is gone: nobody would read the answer; cancelled before it started
        if (claim()) {
          calls.callCancelled();
          log.debug("dropped request id {} from {} for {}: its caller went away before it started", stream.streamId(),
              stream.remoteText(), method);
          stream.close(CallStatus.cancelled("the caller went away before the call started"), true);
        }
        return;
      }
      if (timeoutMillis > 0 && deadlineNanos - calls.ticker().nanoTime() <= 0) {
        if (claim()) {
          dropped.warn("dropped request id {} from {} for {}: it waited {} ms on this server, past the caller's timeout"
              + " of {} ms", stream.streamId(), stream.remoteText(), method,
              TimeUnit.NANOSECONDS.toMillis(calls.ticker().nanoTime() - arrivalNanos), timeoutMillis);
          stream.close(CallStatus.deadlineExceeded(method + " did not start within " + timeoutMillis + " ms"), true);
        }
        return;
      }
      if (m != null) {
        decode(m);
        m = null;
        if (closed != 0) {
          return;
        }
      }
    } finally {
      if (m != null) {
        m.release();
      }
    }
    Object decodedRequest = requests != null ? requests : request;
    request = null;
    CurrentCall.set(this);
    runner = Thread.currentThread();
    HandlerMdc.put(method.toString(), stream.remoteText(), stream.streamId());
    long start = System.nanoTime();
    try {
      ServerInterceptor[] interceptors = calls.interceptors();
      if (interceptors.length > 0 && !intercept(interceptors)) {
        return;
      }
      method.invoker.invoke(method.descriptor.methodCode(), decodedRequest, this);
      if (!oneway && method.descriptor.type() == MethodType.ONEWAY) {
        respond(null); // a caller that waits for an answer to a oneway method gets one once its handler returned
      } else if (oneway) {
        told(ResponseStatus.SUCCESS, null); // no answer to wait for: the handler returned
        closeOneway();
      }
    } catch (Throwable e) {
      fail(e);
      if (oneway) {
        closeOneway();
      }
      if (e instanceof VirtualMachineError vmError && !(e instanceof StackOverflowError)) {
        throw vmError; // the JVM is in trouble; a deep recursion in one handler is not
      }
    } finally {
      ServerInterceptor.Listener[] returned = handlerListeners;
      if (returned != null) {
        handlerListeners = null;
        Interception.handlerReturned(returned, method.toString());
      }
      CurrentCall.clear();
      HandlerMdc.clear();
      runner = null;
      // the handler's own time: up to its answer when it answered itself, so that handing the answer to the IO
      // thread (which may wake it and yield this CPU to it) does not count as the handler's
      long end = answeredNanos != 0 ? answeredNanos : System.nanoTime();
      method.recordHandlerTime(end - start);
    }
  }

  /** Runs the interceptors; false when one refused the call (it is answered with the refusal's status). */
  private boolean intercept(ServerInterceptor[] interceptors) {
    try {
      ServerInterceptor.Listener[] made = Interception.serve(interceptors, this);
      handlerListeners = made;
      listen(made);
      return true;
    } catch (Interception.Refusal r) {
      handlerListeners = r.listeners;
      listen(r.listeners);
      BoltException refusal = r.refusal();
      refuse(refusal.status(), refusal.getMessage(), refusal);
      return false;
    }
  }

  /** The executor could not take the call (IO or timer thread): refused busy at once, never run. */
  void rejectBusy() {
    discardMessage();
    request = null;
    if (!claim()) {
      return;
    }
    refusedBusy.warn("server executor busy: refused request id {} from {} for {}", stream.streamId(),
        stream.remoteText(), method);
    stream.close(CallStatus.busy("the server's executor for " + method + " is full"), true);
  }

  /** The deadline passed before the call closed (timer thread). */
  @Override
  public void run(Timeout timeout) {
    if (!claim()) {
      return;
    }
    String why = method + " did not answer within " + timeoutMillis + " ms";
    badRequests.warn("{} for request id {} from {}: {}", ResponseStatus.TIMEOUT, stream.streamId(),
        stream.remoteText(), why);
    told(ResponseStatus.TIMEOUT, new BoltException(ResponseStatus.TIMEOUT, why));
    stream.close(CallStatus.deadlineExceeded(why), true);
  }

  // ------------------------------------------------------------------ answers (any thread)

  @Override
  public void respond(Object result) {
    if (oneway || !claim() || droppedAsCancelled()) {
      return;
    }
    try {
      stream.writeMessage(result);
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      unencodable(e);
      return;
    }
    answered();
  }

  @Override
  public void respondStream(Flow.Publisher<?> messages) {
    StreamedAnswer answer = new StreamedAnswer(this, executor);
    if (closed == 0 && STREAMED.compareAndSet(this, null, answer)) { // else answered already: the first outcome wins
      answer.subscribeTo(messages);
    }
  }

  /** Writes one message of a streamed answer (the publisher's thread); false once the call has ended. */
  boolean writeStreamed(Object message) {
    try {
      if (stream.isOpen()) {
        stream.writeMessage(message);
        message(false);
        return true;
      }
      if (claim()) {
        cancelNow("the caller went away during the stream");
      }
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      if (claim()) {
        unencodable(e);
      }
    }
    return false;
  }

  /** One of a stream's messages went to the handler ({@code received}) or the transport: the listeners are told. */
  void message(boolean received) {
    ServerInterceptor.Listener[] toTell = listeners;
    if (toTell != null) {
      Interception.message(toTell, received, method.toString());
    }
  }

  /** The publisher of a streamed answer completed: the call ends answered. */
  void completeStream() {
    if (claim() && !droppedAsCancelled()) {
      answered();
    }
  }

  private void answered() {
    told(ResponseStatus.SUCCESS, null);
    stream.close(CallStatus.OK, flushNow());
  }

  /** A message of the claimed call could not be encoded: it ends {@code SERVER_SERIAL_EXCEPTION}. */
  private void unencodable(Throwable e) {
    String why = "could not encode the response of " + method + ": " + e;
    badRequests.warn("answered request id {} from {} with {}: {}", stream.streamId(), stream.remoteText(),
        ResponseStatus.SERVER_SERIAL_EXCEPTION, MessageText.shorten(why));
    told(ResponseStatus.SERVER_SERIAL_EXCEPTION, e);
    stream.close(CallStatus.refused(ResponseStatus.SERVER_SERIAL_EXCEPTION, why, e), flushNow());
  }

  @Override
  public void fail(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (oneway) {
      handlerFailures.warn("oneway {} from {} failed: {}", method, stream.remoteText(), MessageText.shorten(cause.toString()));
      told(ResponseStatus.SERVER_EXCEPTION, cause);
      return;
    }
    if (!claim() || droppedAsCancelled()) {
      return;
    }
    if (cause instanceof RuntimeException || cause instanceof Error) {
      // an unchecked exception is a bug in the handler: say so
      handlerFailures.warn("{} failed for {} (request id {}): {}", method, stream.remoteText(), stream.streamId(),
          MessageText.shorten(cause.toString()));
      log.debug("stack trace of the failure above", cause);
    } else {
      // a checked exception is one the method declares: an answer, not a server problem
      log.debug("{} answered {} (request id {}) with {}", method, stream.remoteText(), stream.streamId(),
          cause.toString(), cause);
    }
    told(ResponseStatus.SERVER_EXCEPTION, cause);
    stream.close(CallStatus.failed(cause), flushNow());
  }

  /**
   * Refuses the call with {@code status}: a request that does not decode, an interceptor's refusal, a stream its
   * protocol cannot carry ({@link ServerCalls#newCall}). A oneway call's caller is told nothing, but the stream
   * closes all the same.
   */
  void refuse(ResponseStatus status, String why, Throwable cause) {
    if (!claim()) {
      return; // it ended first: its own outcome was told
    }
    badRequests.warn("{} for request id {} from {}: {}", status, stream.streamId(), stream.remoteText(),
        MessageText.shorten(why));
    told(status, cause instanceof BoltException ? cause : new BoltException(status, why));
    stream.close(CallStatus.refused(status, why, cause), true);
  }

  /** A oneway call whose handler returned: its stream closes, nothing answered. */
  private void closeOneway() {
    if (claim()) {
      stream.close(CallStatus.OK, flushNow());
    }
  }

  /** Whether an answer made now leaves at once, or waits for the shared task's one flush. */
  private boolean flushNow() {
    boolean fromHandler = Thread.currentThread() == runner;
    if (fromHandler && answeredNanos == 0) {
      answeredNanos = System.nanoTime();
    }
    return !(fromHandler && shared);
  }

  /** Claims the close (the first outcome wins) and stops the deadline's timer. */
  private boolean claim() {
    if (!CLOSED.compareAndSet(this, 0, 1)) {
      return false;
    }
    Timeout t = deadline;
    if (t != null) {
      t.cancel();
    }
    StreamedAnswer s = streamed;
    if (s != null) {
      s.cancel(); // the publisher stops, whatever ended the call
    }
    if (requests != null) {
      requests.close(); // so does the handler's reading of the caller's messages
    }
    return true;
  }

  /**
   * Whether a claimed answer must be dropped because the caller went away first: then the call is cancelled
   * (counted, told to the listeners) and its stream closes with nothing written.
   */
  private boolean droppedAsCancelled() {
    if (stream.isOpen()) {
      return false;
    }
    cancelNow("the caller went away before the answer");
    return true;
  }

  /** Cancels the claimed call: counted, its listeners told, its handler's cancellation listeners run. */
  private void cancelNow(String why) {
    cancelled = true;
    calls.callCancelled();
    log.debug("{} for request id {} from {} was cancelled: {}", method, stream.streamId(), stream.remoteText(), why);
    told(ResponseStatus.CONNECTION_CLOSED, new CancellationException(why));
    runCancellationListeners();
    stream.close(CallStatus.cancelled(why), true);
  }

  private void listen(ServerInterceptor.Listener[] made) {
    this.listeners = made.length == 0 ? null : made;
  }

  /** Tells the listeners the outcome, once. */
  private void told(ResponseStatus status, Throwable error) {
    if (listeners == null) {
      return;
    }
    ServerInterceptor.Listener[] toTell = LISTENERS.getAndSet(this, null);
    if (toTell != null) {
      Interception.answered(toTell, status, error, calls.ticker().nanoTime() - arrivalNanos, method.toString());
    }
  }

  // ------------------------------------------------------------------ ServerCall, ServerContext

  @Override
  public ServerContext context() {
    return this;
  }

  @Override
  public String toString() {
    return "ServedCall{" + method + ", id=" + stream.streamId() + ", closed=" + (closed != 0) + '}';
  }
}
