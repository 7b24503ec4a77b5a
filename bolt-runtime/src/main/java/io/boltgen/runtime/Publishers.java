package io.boltgen.runtime;

import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishers for the answers of streaming methods ({@code Flow.Publisher<T> m(…)}) whose messages are at hand,
 * for a service that uses no reactive library: {@link #of} streams what an {@link Iterable} yields.
 */
public final class Publishers {

  private Publishers() {}

  /**
   * The items of {@code items} as a publisher: each subscriber iterates it afresh and gets every item in order, no
   * more at a time than it asked for, then {@code onComplete}; an iterator that throws is the subscriber's
   * {@code onError}. Items are sent on the thread that asks for them, one thread at a time: a request made while
   * items are being sent adds to the demand that thread serves, so a subscriber that asks for more from
   * {@code onNext} recurses no deeper than one call. Non-positive demand fails the subscriber (Reactive Streams,
   * rule 3.9).
   */
  public static <T> Flow.Publisher<T> of(Iterable<? extends T> items) {
    Objects.requireNonNull(items, "items");
    return subscriber -> {
      Objects.requireNonNull(subscriber, "subscriber");
      Iterator<? extends T> iterator;
      try {
        iterator = items.iterator();
      } catch (RuntimeException e) {
        subscriber.onSubscribe(new Cursor<>(null, subscriber));
        subscriber.onError(e);
        return;
      }
      subscriber.onSubscribe(new Cursor<>(iterator, subscriber));
    };
  }

  /** One subscriber's place in the items. */
  private static final class Cursor<T> implements Flow.Subscription {
    private final Iterator<? extends T> items; // null: failed before the subscription
    private final Flow.Subscriber<? super T> subscriber;
    // items asked for and not yet sent; the thread that raises it from 0 sends until it is 0 again
    private final AtomicLong demand = new AtomicLong();
    private volatile boolean done;

    Cursor(Iterator<? extends T> items, Flow.Subscriber<? super T> subscriber) {
      this.items = items;
      this.subscriber = subscriber;
      this.done = items == null;
    }

    @Override
    public void request(long n) {
      if (done) {
        return;
      }
      if (n <= 0) {
        done = true;
        subscriber.onError(new IllegalArgumentException("demand must be positive, not " + n
            + " (Reactive Streams, rule 3.9)"));
        return;
      }
      if (demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b) == 0) {
        send(n);
      }
    }

    private void send(long asked) {
      while (true) {
        long sent = 0;
        try {
          while (sent < asked && !done && items.hasNext()) {
            subscriber.onNext(items.next());
            sent++;
          }
          if (!done && !items.hasNext()) {
            done = true;
            subscriber.onComplete();
          }
        } catch (RuntimeException e) {
          if (!done) {
            done = true;
            subscriber.onError(e);
          }
        }
        if (done) {
          return;
        }
        asked = demand.addAndGet(-sent);
        if (asked == 0) {
          return;
        }
      }
    }

    @Override
    public void cancel() {
      done = true;
    }
  }
}
