package io.boltgen.runtime;

import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Publishers for the answers of streaming methods ({@code Flow.Publisher<T> m(…)}) whose messages are at hand,
 * for a service that uses no reactive library: {@link #of} streams what an {@link Iterable} yields, and
 * {@link #map} changes each item of another publisher.
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

  /**
   * The items of {@code source}, each changed by {@code mapper}: a subscriber's demand and cancellation go to
   * {@code source} as they are, and each item it publishes reaches the subscriber as {@code mapper} made it. A
   * mapper that throws (or returns null) cancels the source and fails the subscriber with that failure. Generated
   * skeletons and stubs use it to carry a stream's messages in and out of their request records.
   */
  public static <T, R> Flow.Publisher<R> map(Flow.Publisher<T> source, Function<? super T, ? extends R> mapper) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(mapper, "mapper");
    return subscriber -> source.subscribe(new Mapping<>(Objects.requireNonNull(subscriber, "subscriber"), mapper));
  }

  /** One subscriber of a mapped publisher, between it and the source. */
  private static final class Mapping<T, R> implements Flow.Subscriber<T> {
    private final Flow.Subscriber<? super R> subscriber;
    private final Function<? super T, ? extends R> mapper;
    private Flow.Subscription subscription;
    private boolean done; // the source's signals come one at a time (rule 1.3)

    Mapping(Flow.Subscriber<? super R> subscriber, Function<? super T, ? extends R> mapper) {
      this.subscriber = subscriber;
      this.mapper = mapper;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      subscriber.onSubscribe(s);
    }

    @Override
    public void onNext(T item) {
      if (done) {
        return;
      }
      R mapped;
      try {
        mapped = Objects.requireNonNull(mapper.apply(item), "the mapper returned null");
      } catch (RuntimeException e) {
        done = true;
        subscription.cancel();
        subscriber.onError(e);
        return;
      }
      subscriber.onNext(mapped);
    }

    @Override
    public void onError(Throwable error) {
      if (!done) {
        done = true;
        subscriber.onError(error);
      }
    }

    @Override
    public void onComplete() {
      if (!done) {
        done = true;
        subscriber.onComplete();
      }
    }
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
