package io.boltgen.runtime;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The answers of one method as a {@link Flow.Publisher} ({@link BoltChannel#invokeStream},
 * {@link BoltChannel#invokeBidiStream}): each subscription makes one call of its own ({@link BoltChannel#newCall})
 * once the subscriber's {@code onSubscribe} has returned, sends the request (or the caller's stream of them, as the
 * call can take them: {@link RequestPump}), and hands the answers on as the subscriber asks for them (its demand
 * is the call's {@link ClientCall#request}); the call's close is the subscriber's {@code onComplete} or
 * {@code onError}, and cancelling the subscription cancels the call. A call that cannot be made (a channel that
 * carries no streams, a closed client) fails the subscriber at once, after an {@code onSubscribe} whose
 * subscription does nothing.
 *
 * <p>Immutable; each subscription is thread-safe.
 */
final class CallPublisher<Q, R> implements Flow.Publisher<R> {

  private final BoltChannel channel;
  private final MethodDescriptor<Q, R> method;
  private final Q request;
  private final Flow.Publisher<? extends Q> requests; // null: the one request above
  private final CallOptions options;

  /** The answers to {@code request}. */
  CallPublisher(BoltChannel channel, MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    this(channel, method, request, null, options);
  }

  /** The answers to the requests {@code requests} publishes (a bidirectional call). */
  CallPublisher(BoltChannel channel, MethodDescriptor<Q, R> method, Flow.Publisher<? extends Q> requests,
      CallOptions options) {
    this(channel, method, null, Objects.requireNonNull(requests, "requests"), options);
  }

  private CallPublisher(BoltChannel channel, MethodDescriptor<Q, R> method, Q request,
      Flow.Publisher<? extends Q> requests, CallOptions options) {
    this.channel = Objects.requireNonNull(channel, "channel");
    this.method = Objects.requireNonNull(method, "method");
    this.request = request;
    this.requests = requests;
    this.options = Objects.requireNonNull(options, "options");
  }

  @Override
  public void subscribe(Flow.Subscriber<? super R> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber");
    ClientCall<Q, R> call;
    try {
      call = channel.newCall(method, options);
    } catch (RuntimeException e) {
      subscriber.onSubscribe(new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
      });
      subscriber.onError(e);
      return;
    }
    Relay<Q, R> relay = new Relay<>(call, subscriber);
    subscriber.onSubscribe(relay);
    relay.open(request, requests);
  }

  /** One subscription: the subscriber's demand and cancellation to the call, the call's messages and end back. */
  private static final class Relay<Q, R> implements Flow.Subscription, ClientCall.Listener<R> {
    private final ClientCall<Q, R> call;
    private final Flow.Subscriber<? super R> subscriber;
    private final ReentrantLock lock = new ReentrantLock();
    private final RequestPump<Q> pump;
    // demand asked for before the call was open, and whether it is
    @GuardedBy("lock")
    private long early;
    @GuardedBy("lock")
    private boolean open;
    private volatile boolean cancelled;
    private volatile boolean ended;

    Relay(ClientCall<Q, R> call, Flow.Subscriber<? super R> subscriber) {
      this.call = call;
      this.subscriber = subscriber;
      this.pump = new RequestPump<>(call);
    }

    /**
     * Starts the call, after {@code onSubscribe} returned: nothing reaches the subscriber before. It sends
     * {@code request}, or the requests {@code requests} publishes, if not null, as the call can take them.
     */
    void open(Q request, Flow.Publisher<? extends Q> requests) {
      if (cancelled) {
        return;
      }
      call.start(this);
      if (requests != null) {
        pump.pump(requests);
      } else {
        try {
          call.sendMessage(request);
          call.halfClose();
        } catch (RuntimeException e) {
          call.cancel("the request could not be sent", e);
          return;
        }
      }
      long demand;
      lock.lock();
      try {
        open = true;
        demand = early;
      } finally {
        lock.unlock();
      }
      if (demand > 0) {
        call.request(clamp(demand));
      }
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        cancel();
        fail(new IllegalArgumentException("demand must be positive, not " + n + " (Reactive Streams, rule 3.9)"));
        return;
      }
      lock.lock();
      try {
        if (!open) {
          early = early + n < 0 ? Long.MAX_VALUE : early + n;
          return;
        }
      } finally {
        lock.unlock();
      }
      call.request(clamp(n));
    }

    @Override
    public void cancel() {
      if (!cancelled) {
        cancelled = true;
        call.cancel("the subscriber cancelled", null);
      }
    }

    @Override
    public void onMessage(R message) {
      if (!cancelled && !ended) {
        subscriber.onNext(message);
      }
    }

    @Override
    public void onReady() {
      pump.onReady();
    }

    @Override
    public void onClose(Throwable error, Map<String, String> trailers) {
      pump.stop();
      if (cancelled) {
        return;
      }
      if (error != null) {
        fail(error);
      } else if (!ended) {
        ended = true;
        subscriber.onComplete();
      }
    }

    private void fail(Throwable error) {
      if (!ended) {
        ended = true;
        subscriber.onError(error);
      }
    }

    private static int clamp(long n) {
      return (int) Math.min(n, Integer.MAX_VALUE);
    }
  }
}
