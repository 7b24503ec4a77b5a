package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link Publishers#of}: every item in order and no more than asked for, a subscriber that asks from {@code onNext}
 * served without deep recursion, cancellation, an iterator that throws, and demand that is not positive.
 */
class PublishersTest {

  /** Records what it is told; asks for {@code first} at its subscription, and {@code again} after each item. */
  private static final class Recorder implements Flow.Subscriber<Integer> {
    final List<Integer> items = new ArrayList<>();
    final long first;
    final long again;
    Flow.Subscription subscription;
    Throwable error;
    boolean completed;
    int depth;
    int deepest;

    Recorder(long first, long again) {
      this.first = first;
      this.again = again;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      if (first > 0) {
        s.request(first);
      }
    }

    @Override
    public void onNext(Integer item) {
      items.add(item);
      depth++;
      deepest = Math.max(deepest, depth);
      if (again > 0) {
        subscription.request(again);
      }
      depth--;
    }

    @Override
    public void onError(Throwable throwable) {
      error = throwable;
    }

    @Override
    public void onComplete() {
      completed = true;
    }
  }

  private static List<Integer> upTo(int n) {
    return IntStream.range(0, n).boxed().toList();
  }

  @Test
  void noMoreThanAskedForThenTheRestAndTheEnd() {
    Recorder r = new Recorder(3, 0);
    Publishers.of(upTo(10)).subscribe(r);
    assertThat(r.items).containsExactly(0, 1, 2);
    assertThat(r.completed).isFalse();
    r.subscription.request(Long.MAX_VALUE);
    r.subscription.request(Long.MAX_VALUE); // demand saturates, it does not overflow
    assertThat(r.items).isEqualTo(upTo(10));
    assertThat(r.completed).isTrue();
    assertThat(r.error).isNull();
  }

  @Test
  void aSubscriberThatAsksFromOnNextIsServedWithoutRecursion() {
    Recorder r = new Recorder(1, 1);
    Publishers.of(upTo(100_000)).subscribe(r);
    assertThat(r.items).hasSize(100_000);
    assertThat(r.completed).isTrue();
    assertThat(r.deepest).as("onNext never runs inside another onNext").isEqualTo(1);
  }

  @Test
  void eachSubscriberIteratesAfreshAndCancellingStops() {
    var publisher = Publishers.of(upTo(5));
    Recorder a = new Recorder(2, 0);
    Recorder b = new Recorder(5, 0);
    publisher.subscribe(a);
    publisher.subscribe(b);
    a.subscription.cancel();
    a.subscription.request(10);
    assertThat(a.items).containsExactly(0, 1);
    assertThat(a.completed).isFalse();
    assertThat(b.items).isEqualTo(upTo(5));
    assertThat(b.completed).isTrue();
    Recorder empty = new Recorder(1, 0);
    Publishers.of(List.<Integer>of()).subscribe(empty);
    assertThat(empty.completed).isTrue();
  }

  @Test
  void anIteratorThatThrowsAndDemandThatIsNotPositiveFailTheSubscriber() {
    Iterable<Integer> breaking = () -> new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public Integer next() {
        if (next == 2) {
          throw new IllegalStateException("the source broke");
        }
        return next++;
      }
    };
    Recorder r = new Recorder(10, 0);
    Publishers.of(breaking).subscribe(r);
    assertThat(r.items).containsExactly(0, 1);
    assertThat(r.error).hasMessage("the source broke");
    Recorder zero = new Recorder(0, 0);
    Publishers.of(upTo(3)).subscribe(zero);
    zero.subscription.request(0);
    assertThat(zero.error).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("demand must be positive, not 0 (Reactive Streams, rule 3.9)");
    assertThat(zero.items).isEmpty();
    Iterable<Integer> noIterator = () -> {
      throw new IllegalStateException("no iterator");
    };
    Recorder none = new Recorder(1, 0);
    Publishers.of(noIterator).subscribe(none);
    assertThat(none.error).hasMessage("no iterator");
  }

  @Test
  void mapChangesEachItemAndPassesDemandAndCancellationThrough() {
    Recorder r = new Recorder(2, 0);
    Publishers.map(Publishers.of(upTo(5)), i -> i * 10).subscribe(r);
    assertThat(r.items).as("no more than asked for").containsExactly(0, 10);
    r.subscription.request(10);
    assertThat(r.items).containsExactly(0, 10, 20, 30, 40);
    assertThat(r.completed).isTrue();

    Recorder cancelled = new Recorder(1, 0);
    Publishers.map(Publishers.of(upTo(5)), i -> i).subscribe(cancelled);
    cancelled.subscription.cancel();
    cancelled.subscription.request(5);
    assertThat(cancelled.items).containsExactly(0);
    assertThat(cancelled.completed).isFalse();
  }

  @Test
  void aMapperThatThrowsOrReturnsNullCancelsTheSourceAndFailsTheSubscriber() {
    Recorder r = new Recorder(10, 0);
    Publishers.map(Publishers.of(upTo(5)), i -> {
      if (i == 2) {
        throw new IllegalStateException("no 2");
      }
      return i;
    }).subscribe(r);
    assertThat(r.items).containsExactly(0, 1);
    assertThat(r.error).hasMessage("no 2");
    assertThat(r.completed).as("the source was cancelled: no end after the error").isFalse();

    Recorder nothing = new Recorder(10, 0);
    Publishers.map(Publishers.of(upTo(3)), i -> (Integer) null).subscribe(nothing);
    assertThat(nothing.items).isEmpty();
    assertThat(nothing.error).isInstanceOf(NullPointerException.class).hasMessage("the mapper returned null");
  }
}
