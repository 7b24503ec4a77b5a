package io.boltgen.example;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The items of a list as a {@link Flow.Publisher}: each subscriber gets every item in order, no more at a time than
 * it asked for, then {@code onComplete}. The items are sent on the thread that asks for them, by one thread at a
 * time (a request made while items are being sent adds to the demand that thread serves), so a subscriber that asks
 * for more from {@code onNext} recurses no deeper than one call.
 *
 * <p>What a handler of a streaming method may return when its answer is at hand: {@link InventoryService#browse}.
 *
 * @param <T> the item type
 */
final class ListPublisher<T> implements Flow.Publisher<T> {

  private final List<T> items;

  ListPublisher(List<T> items) {
    this.items = List.copyOf(items);
  }

  @Override
  public void subscribe(Flow.Subscriber<? super T> subscriber) {
    subscriber.onSubscribe(new Cursor<>(items, Objects.requireNonNull(subscriber, "subscriber")));
  }

  /** One subscriber's place in the list. */
  private static final class Cursor<T> implements Flow.Subscription {
    private final List<T> items;
    private final Flow.Subscriber<? super T> subscriber;
    // items asked for and not yet sent; the thread that raises it from 0 sends until it is 0 again
    private final AtomicLong demand = new AtomicLong();
    private int next; // only the sending thread touches it
    private volatile boolean done;

    Cursor(List<T> items, Flow.Subscriber<? super T> subscriber) {
      this.items = items;
      this.subscriber = subscriber;
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        done = true;
        subscriber.onError(new IllegalArgumentException("demand must be positive, not " + n));
        return;
      }
      if (demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b) == 0) {
        send();
      }
    }

    private void send() {
      long asked = demand.get();
      while (true) {
        long sent = 0;
        while (sent < asked && next < items.size() && !done) {
          subscriber.onNext(items.get(next++));
          sent++;
        }
        if (done) {
          return;
        }
        if (next == items.size()) {
          done = true;
          subscriber.onComplete();
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
