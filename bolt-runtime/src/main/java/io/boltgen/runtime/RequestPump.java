package io.boltgen.runtime;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A caller's stream of requests, sent on one call ({@link BoltChannel#invokeClientStream},
 * {@link BoltChannel#invokeBidiStream}): it subscribes to the caller's publisher once the call started, asks it for
 * messages only while the call is ready to send them, at most {@value #AHEAD} ahead of what it sent, sends each as
 * it comes, and half-closes the call when the publisher completes. The publisher's failure cancels the call with
 * that failure as the cause; the call's end (its answer, a failure, a cancellation) cancels the subscription.
 *
 * <p>Threads: the publisher signals one at a time (Reactive Streams, rule 1.3), so the call is sent to from one
 * thread at a time; readiness comes on the call's listener, the end from whichever thread ends the call.
 */
final class RequestPump<Q> implements Flow.Subscriber<Q> {

  /** The most requests asked of the publisher and not yet sent. */
  static final int AHEAD = 16;

  private final ClientCall<Q, ?> call;
  // requests asked of the publisher and not yet received
  private final AtomicInteger asked = new AtomicInteger();
  private volatile Flow.Subscription subscription;
  // the call or the publisher ended: nothing more is asked for or sent
  private volatile boolean stopped;

  RequestPump(ClientCall<Q, ?> call) {
    this.call = call;
  }

  /** Subscribes to {@code requests}, once the call started. */
  void pump(Flow.Publisher<? extends Q> requests) {
    try {
      requests.subscribe(this);
    } catch (RuntimeException e) {
      stopped = true;
      call.cancel("the publisher of the requests could not be subscribed to", e);
    }
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    Objects.requireNonNull(s, "subscription");
    if (subscription != null) {
      s.cancel(); // rule 2.5: a second subscription is cancelled
      return;
    }
    subscription = s;
    if (stopped) {
      s.cancel();
      return;
    }
    topUp();
  }

  @Override
  public void onNext(Q request) {
    asked.decrementAndGet();
    if (request == null) { // rule 2.13: the publisher is told, and the call ends
      NullPointerException broken = new NullPointerException("the publisher of the requests sent null");
      stop();
      call.cancel(broken.getMessage(), broken);
      throw broken;
    }
    if (stopped) {
      return;
    }
    try {
      call.sendMessage(request);
    } catch (RuntimeException e) {
      stop();
      call.cancel("a request could not be sent", e);
      return;
    }
    topUp();
  }

  @Override
  public void onError(Throwable error) {
    if (!stopped) {
      stopped = true;
      call.cancel("the publisher of the requests failed", error);
    }
  }

  @Override
  public void onComplete() {
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      call.halfClose();
    } catch (RuntimeException e) {
      call.cancel("the requests could not be ended", e);
    }
  }

  /** The call can send again: more requests are asked for. */
  void onReady() {
    topUp();
  }

  /** The call ended: the publisher is told to stop. */
  void stop() {
    stopped = true;
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel(); // a no-op once the publisher ended (rule 3.7)
    }
  }

  /** Asks for requests up to {@link #AHEAD} in flight, while the call is ready and half of them were sent. */
  private void topUp() {
    Flow.Subscription s = subscription;
    if (s == null || stopped || !call.isReady()) {
      return;
    }
    int inFlight = asked.get();
    if (inFlight > AHEAD / 2 || !asked.compareAndSet(inFlight, AHEAD)) {
      return;
    }
    s.request(AHEAD - Math.max(0, inFlight));
  }
}
