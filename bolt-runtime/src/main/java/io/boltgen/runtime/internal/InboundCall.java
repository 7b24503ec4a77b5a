package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerCall;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request being served, and the task that serves it on the method's executor (its third role, after
 * {@link InboundRequest} and {@link InboundAnswer}): it drops the request if its connection closed
 * meanwhile or it waited longer than the caller's timeout (fail-fast), runs the service invoker with the
 * {@link ServerCall} a handler answers through, and queues whichever answer comes first. The handler's
 * thread only runs the handler.
 *
 * <p>Threads: built and (for small requests) decoded on the IO thread, run once on the executor (or refused
 * there with {@link #rejectBusy()}), answered from any thread, encoded on the IO thread.
 */
final class InboundCall extends InboundAnswer implements Runnable, ServerCall {

  private static final Logger log = LoggerFactory.getLogger(InboundCall.class);
  private static final RateLimitedLog dropped = RateLimitedLog.of(log);
  private static final RateLimitedLog refusedBusy = RateLimitedLog.of(log);

  // true while a shared task runs this call's handler: an answer the handler gives on that thread then
  // waits for the task's one flush (read and written only by the runner thread)
  private boolean inBatch;
  // the thread running the handler (an answer from any other thread is written at once), and when the
  // handler answered if it did so before returning (see run())
  private Thread runner;
  private long answeredNanos;
  // the interceptors' listeners, to be told on this thread when the handler returned (handler thread only)
  private ServerInterceptor.Listener[] handlerListeners;

  InboundCall(BoltConnection connection, BoltFrame frame, MethodEntry entry, Map<String, String> headers) {
    super(connection, frame, entry, headers);
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
        // its caller is gone with the connection: nobody would read the answer; cancelled before it started
        connection.endpoint().callCancelled();
        log.debug("dropped request id {} from {} for {}: its connection closed before it started", requestId,
            connection.remoteAddress(), entry.method().toString());
        return;
      }
      if (!oneway && clientTimeout > 0 && remainingMillis() == 0) {
        dropped.warn("dropped request id {} from {} for {}: it waited {} ms on this server, past the caller's timeout"
            + " of {} ms", requestId, connection.remoteAddress(), entry.method().toString(),
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
    HandlerMdc.put(this);
    long start = System.nanoTime();
    try {
      ServerInterceptor[] interceptors = connection.endpoint().calls().serverInterceptors();
      if (interceptors.length > 0 && !intercept(interceptors)) {
        return;
      }
      entry.invoker().invoke(entry.method().methodCode(), decoded, this);
      if (!oneway && entry.method().type() == MethodType.ONEWAY) {
        respond(null); // a peer sent a oneway method as a request: it still waits for an answer
      } else if (oneway) {
        told(ResponseStatus.SUCCESS, null); // no answer to wait for: the handler returned
      }
    } catch (Throwable e) {
      fail(e);
      if (e instanceof VirtualMachineError vmError && !(e instanceof StackOverflowError)) {
        throw vmError; // the JVM is in trouble; a deep recursion in one handler is not
      }
    } finally {
      ServerInterceptor.Listener[] listeners = handlerListeners;
      if (listeners != null) {
        handlerListeners = null;
        Interception.handlerReturned(listeners, entry.method().toString());
      }
      CurrentCall.clear();
      HandlerMdc.clear();
      runner = null;
      // the handler's own time: up to its answer when it answered itself, so that handing the answer to
      // the IO thread (which may wake it and yield this CPU to it) does not count as the handler's
      long end = answeredNanos != 0 ? answeredNanos : System.nanoTime();
      entry.recordHandlerTime(end - start);
    }
  }

  /**
   * Runs the endpoint's interceptors; false when one refused the call (it is answered with the refusal's
   * status, and the handler must not run).
   */
  private boolean intercept(ServerInterceptor[] interceptors) {
    try {
      ServerInterceptor.Listener[] listeners = Interception.serve(interceptors, this);
      handlerListeners = listeners;
      listen(listeners);
      return true;
    } catch (Interception.Refusal r) {
      handlerListeners = r.listeners;
      listen(r.listeners);
      BoltException refusal = r.refusal();
      answerError(refusal.status(), refusal.getClass().getName(), refusal.getMessage());
      return false;
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
  @Override
  void send() {
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
        connection.remoteAddress(), entry.method().toString());
    if (!oneway) {
      connection.writeFrame(ErrorFrames.busy(connection.alloc(), connection.format(),
          requestId, "the server's executor for " + entry.method().toString() + " is full"));
    }
  }


  @Override
  public ServerContext context() {
    return this;
  }

}
