package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.MethodDescriptor;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.ServerInterceptor;
import io.boltgen.runtime.codec.FailureMarshaller;
import io.boltgen.runtime.codec.Marshaller;
import io.boltgen.runtime.support.RateLimitedLog;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The second role of an {@link InboundCall}: its answer. The first outcome wins ({@link #respond},
 * {@link #fail}, or an error found while decoding); it is queued on the connection as a {@link DeferredFrame}
 * and encoded on the IO thread when the write queue drains, so that buffers are allocated and freed on the
 * thread that owns them. A result that cannot be encoded is answered {@code SERVER_SERIAL_EXCEPTION}.
 *
 * <p>Thread-safe: the answer is claimed by one compare-and-set; its fields are written before the claim's
 * winner queues it, and read by the IO thread after the queue hands it over.
 */
abstract class InboundAnswer extends InboundRequest implements DeferredFrame {

  private static final Logger log = LoggerFactory.getLogger(InboundCall.class);
  private static final RateLimitedLog handlerFailures = RateLimitedLog.of(log);
  private static final RateLimitedLog badRequests = RateLimitedLog.of(log);
  private static final RateLimitedLog encodeFailures = RateLimitedLog.of(log);
  private static final AtomicIntegerFieldUpdater<InboundAnswer> ANSWERED =
      AtomicIntegerFieldUpdater.newUpdater(InboundAnswer.class, "answered");

  private static final AtomicReferenceFieldUpdater<InboundAnswer, ServerInterceptor.Listener[]> LISTENERS =
      AtomicReferenceFieldUpdater.newUpdater(InboundAnswer.class, ServerInterceptor.Listener[].class, "listeners");

  private static final AtomicReferenceFieldUpdater<InboundAnswer, Cancellation> CANCELLATION =
      AtomicReferenceFieldUpdater.newUpdater(InboundAnswer.class, Cancellation.class, "cancellation");

  volatile int answered;
  // made when the handler first listens for cancellation (most calls never do), with the hook the connection
  // runs if it closes before the answer
  private volatile Cancellation cancellation;
  private volatile Runnable cancelHook;
  // the answer came after the connection closed, and was dropped as cancelled
  private volatile boolean answeredCancelled;
  // the interceptors' listeners, told once of the outcome (null without interceptors, and once told)
  private volatile ServerInterceptor.Listener[] listeners;
  // the answer, encoded later on the IO thread: a result, or an error (status, class, message, context)
  private Object result;
  private ResponseStatus errorStatus;
  private String errorClass;
  private String errorMessage;
  private String errorContext;
  // a handler's failure answered inside a successful frame (FailureMarshaller), or null
  private Throwable failureAnswer;

  InboundAnswer(BoltConnection connection, BoltFrame frame, MethodEntry entry, Map<String, String> headers) {
    super(connection, frame, entry, headers);
  }

  /** Sets whom to tell of the outcome: the listeners the interceptors returned. */
  final void listen(ServerInterceptor.Listener[] listeners) {
    this.listeners = listeners.length == 0 ? null : listeners;
  }

  /** Tells the listeners the outcome, once. */
  final void told(ResponseStatus status, Throwable error) {
    if (listeners == null) {
      return;
    }
    ServerInterceptor.Listener[] toTell = LISTENERS.getAndSet(this, null);
    if (toTell != null) {
      Interception.answered(toTell, status, error, connection.ticker().nanoTime() - arrivalNanos,
          entry.method().toString());
    }
  }

  /** Queues the claimed answer on the connection. */
  abstract void send();

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
      Throwable failure = failureAnswer;
      if (failure != null) {
        FailureMarshaller<?> answers = (FailureMarshaller<?>) marshaller;
        return FrameEncoder.response(connection.alloc(), connection.format().withSwitchFlags(switchFlags), requestId,
            marshaller.codecId(), ResponseStatus.SUCCESS, entry.responseClassName(), answers.failureHeaders(failure),
            Answers.failureBody(answers), failure, connection.peerMaxFrameLength());
      }
      return FrameEncoder.response(connection.alloc(), connection.format().withSwitchFlags(switchFlags), requestId,
          marshaller.codecId(), ResponseStatus.SUCCESS, entry.responseClassName(), Map.of(), marshaller,
          result, connection.peerMaxFrameLength());
    } catch (Throwable e) {
      if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError) && !(e instanceof OutOfMemoryError)) {
        throw e;
      }
      String why = e instanceof FrameTooLargeException tooLarge
          ? "the response of " + method.toString() + " is a frame of " + tooLarge.frameLength() + " bytes, over the "
              + tooLarge.limit() + "-byte limit of the client (peerMaxFrameLength)"
          : "could not encode the response of " + method.toString() + ": " + e;
      encodeFailures.warn("answered request id {} from {} with SERVER_SERIAL_EXCEPTION: {}", requestId,
          connection.remoteAddress(), LogText.shorten(why));
      return ErrorFrames.error(connection.alloc(), connection.format(), requestId,
          ResponseStatus.SERVER_SERIAL_EXCEPTION, e.getClass().getName(), why, "response of " + method.toString());
    } finally {
      result = null;
      failureAnswer = null;
    }
  }

  /** The connection closed before the answer could be written. */
  @Override
  public void discard() {
    result = null;
    failureAnswer = null;
    closeRequest();
  }

  /**
   * Whether this claimed answer must be dropped because the connection closed before it (the caller went
   * away): then it is counted and reported as cancelled, and the call no longer counts as open.
   */
  private boolean droppedAsCancelled() {
    Runnable hook = cancelHook;
    if (hook != null) {
      connection.closeHooks.remove(hook);
    }
    if (connection.isActive()) {
      return false;
    }
    answeredCancelled = true;
    connection.endpoint().callCancelled();
    told(ResponseStatus.CONNECTION_CLOSED, new CancellationException("the caller's connection closed before the answer"));
    closeRequest();
    return true;
  }

  /** The connection closed (IO thread): runs the handler's cancellation listeners unless it answered first. */
  private void cancelIfUnanswered() {
    Cancellation c = cancellation;
    if (c != null && answered == 0) {
      c.cancel();
    }
  }

  @Override
  public boolean isCancelled() {
    return answered == 0 ? !connection.isActive() : answeredCancelled;
  }

  @Override
  public void onCancel(Runnable listener) {
    Cancellation c = cancellation;
    if (c == null) {
      Cancellation made = new Cancellation();
      if (CANCELLATION.compareAndSet(this, null, made)) {
        c = made;
        Runnable hook = this::cancelIfUnanswered;
        cancelHook = hook;
        connection.closeHooks.add(hook);
      } else {
        c = cancellation;
      }
    }
    c.listen(listener);
    if (!connection.isActive()) {
      cancelIfUnanswered(); // closed before the connection could see this call: cancel here
    }
  }

  /** Answers with {@code result} (see {@link io.boltgen.runtime.ServerCall#respond}). */
  public void respond(Object result) {
    if (oneway || !ANSWERED.compareAndSet(this, 0, 1)) {
      return;
    }
    if (droppedAsCancelled()) {
      return;
    }
    this.result = result;
    told(ResponseStatus.SUCCESS, null);
    send();
  }

  /** Answers with the failure {@code error} (see {@link io.boltgen.runtime.ServerCall#fail}). */
  public void fail(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (oneway) {
      handlerFailures.warn("oneway {} from {} failed: {}", entry.method().toString(), connection.remoteAddress(),
          LogText.shorten(cause.toString()));
      told(ResponseStatus.SERVER_EXCEPTION, cause);
      return;
    }
    if (!ANSWERED.compareAndSet(this, 0, 1)) {
      return;
    }
    if (droppedAsCancelled()) {
      return;
    }
    if (cause instanceof RuntimeException || cause instanceof Error) {
      // an unchecked exception is a bug in the handler: say so
      handlerFailures.warn("{} failed for {} (request id {}): {}", entry.method().toString(),
          connection.remoteAddress(), requestId, LogText.shorten(cause.toString()));
      log.debug("stack trace of the failure above", cause);
    } else {
      // a checked exception is one the method declares: an answer, not a server problem
      log.debug("{} answered {} (request id {}) with {}", entry.method().toString(), connection.remoteAddress(),
          requestId, cause.toString(), cause);
    }
    if (entry.method().responseMarshaller() instanceof FailureMarshaller) {
      failureAnswer = cause; // the protocol answers it inside a successful frame
    } else {
      setError(ResponseStatus.SERVER_EXCEPTION, cause.getClass().getName(), cause.getMessage(),
          "handler of " + entry.method().toString() + " threw");
    }
    told(ResponseStatus.SERVER_EXCEPTION, cause);
    send();
  }

  @Override
  final void answerError(ResponseStatus status, String errorClass, String message) {
    badRequests.warn("{} for request id {} from {}: {}", status, requestId, connection.remoteAddress(),
        LogText.shorten(message));
    if (oneway || !ANSWERED.compareAndSet(this, 0, 1)) {
      told(status, new BoltException(status, message));
      return;
    }
    setError(status, errorClass, message, "request of " + entry.method().toString());
    told(status, new BoltException(status, message));
    send();
  }

  private void setError(ResponseStatus status, String errorClass, String message, String context) {
    this.errorClass = errorClass;
    this.errorMessage = message;
    this.errorContext = context;
    this.errorStatus = status;
  }

}
