package io.boltgen.runtime.call;

import io.boltgen.runtime.MethodType;
import io.boltgen.runtime.support.MessageText;
import io.boltgen.runtime.support.RateLimitedLog;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subscriber of a streamed answer ({@link io.boltgen.runtime.ServerCall#respondStream}): it asks its publisher
 * for messages while the transport can send them, at most {@value #AHEAD} ahead of what was written, hands each to
 * the call to write, and tells the call how the publisher ended. When the transport stops taking messages (its
 * caller reads slowly) no more are asked for until it is ready again: demand travels from the caller's reading
 * to the publisher, and what the server holds for one stream is bounded by that window and the transport's own.
 *
 * <p>Threads: the publisher signals it one at a time from threads of its choosing (Reactive Streams, rule 1.3);
 * the transport reports readiness on its IO thread, and the demand that follows is asked for on the call's
 * executor, so that a publisher that emits from {@code request} does not run on the IO thread; {@link #cancel}
 * comes from whichever thread ends the call.
 */
final class StreamedAnswer implements Flow.Subscriber<Object> {

  /** The most messages asked for and not yet received. */
  static final int AHEAD = 16;

  private static final Logger log = LoggerFactory.getLogger(StreamedAnswer.class);
  private static final RateLimitedLog publisherFailures = RateLimitedLog.of(log);

  private final ServedCall call;
  private final Executor executor;
  // messages asked for and not yet received
  private final AtomicInteger asked = new AtomicInteger();
  private volatile Flow.Subscription subscription;
  // the call ended: nothing more is asked for, and the subscription is (or will be, once it arrives) cancelled
  private volatile boolean cancelled;
  // the publisher ended: its subscription needs no cancelling
  private volatile boolean done;

  StreamedAnswer(ServedCall call, Executor executor) {
    this.call = call;
    this.executor = executor;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    if (s == null) {
      call.fail(new NullPointerException("the publisher of " + call.servedMethod()
          + " subscribed with no subscription"));
      return;
    }
    if (subscription != null) {
      cancelQuietly(s); // rule 2.5: a second subscription is cancelled
      return;
    }
    subscription = s;
    if (cancelled) {
      cancelQuietly(s);
      return;
    }
    topUp();
  }

  /** Subscribes to {@code messages}, the handler's answer (its thread); fails the call if it cannot stream. */
  void subscribeTo(Flow.Publisher<?> messages) {
    MethodType type = call.servedMethod().descriptor().type();
    if (!type.streamsAnswers() || messages == null) {
      call.fail(new IllegalStateException(messages == null ? call.servedMethod() + " was answered with no publisher"
          : call.servedMethod() + " does not stream its answer: it is " + type));
      return;
    }
    if (call.isClosed()) {
      cancelled = true; // ended meanwhile (deadline, cancellation): the publisher is told at its subscription
    }
    messages.subscribe(this);
  }

  @Override
  public void onNext(Object message) {
    asked.decrementAndGet();
    if (!cancelled && !call.isClosed() && call.writeStreamed(message)) {
      topUp();
    }
  }

  @Override
  public void onError(Throwable error) {
    done = true;
    call.fail(error != null ? error : new NullPointerException("the publisher of " + call.servedMethod()
        + " failed with no exception"));
  }

  @Override
  public void onComplete() {
    done = true;
    call.completeStream();
  }

  /** The transport can take messages again (IO thread): more are asked for, on the call's executor. */
  void onReady() {
    if (cancelled || subscription == null) {
      return;
    }
    try {
      executor.execute(this::topUp);
    } catch (RejectedExecutionException e) {
      topUp(); // a full executor must not stall the stream: asked for here, once
    }
  }

  /** The call ended (any thread): nothing more is asked for, and the publisher is told to stop. */
  void cancel() {
    cancelled = true;
    Flow.Subscription s = subscription;
    if (s != null && !done) {
      cancelQuietly(s);
    }
  }

  /** Asks for messages up to {@link #AHEAD} in flight, when the transport can take them and half the window is used. */
  private void topUp() {
    Flow.Subscription s = subscription;
    if (s == null || cancelled || !call.stream.isReady()) {
      return;
    }
    int inFlight = asked.get();
    if (inFlight > AHEAD / 2 || !asked.compareAndSet(inFlight, AHEAD)) {
      return; // enough asked for, or another thread asked just now
    }
    try {
      s.request(AHEAD - Math.max(0, inFlight));
    } catch (Throwable e) {
      call.fail(e); // rule 3.16 forbids it; the call ends all the same
    }
  }

  private void cancelQuietly(Flow.Subscription s) {
    try {
      s.cancel();
    } catch (Throwable e) {
      // rule 3.15 forbids it; called from IO and timer threads too, which must go on
      publisherFailures.warn("the publisher of {} threw when cancelled: {}", call.servedMethod(),
          MessageText.shorten(e.toString()));
    }
  }
}
