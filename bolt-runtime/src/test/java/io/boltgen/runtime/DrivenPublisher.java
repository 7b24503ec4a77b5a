package io.boltgen.runtime;

import java.util.concurrent.Flow;

/**
 * A publisher a test drives, for one subscriber: it emits only when told ({@link #emit}, messages {@code "0"},
 * {@code "1"}, … as bytes), and records the demand it was asked for and whether it was cancelled. Not thread-safe:
 * one test thread drives it.
 */
public final class DrivenPublisher implements Flow.Publisher<byte[]> {

  /** The subscriber, once it subscribed. */
  public Flow.Subscriber<? super byte[]> subscriber;
  /** Every demand it was asked for, added up. */
  public long requested;
  /** Whether the subscription was cancelled. */
  public boolean cancelled;
  private int next;

  @Override
  public void subscribe(Flow.Subscriber<? super byte[]> s) {
    subscriber = s;
    s.onSubscribe(new Flow.Subscription() {
      @Override
      public void request(long n) {
        requested += n;
      }

      @Override
      public void cancel() {
        cancelled = true;
      }
    });
  }

  /** Emits {@code count} messages, whatever the demand (a test may check that what is not asked for is dropped). */
  public void emit(int count) {
    for (int i = 0; i < count; i++) {
      subscriber.onNext(EchoService.bytes(Integer.toString(next++)));
    }
  }

  /** Completes. */
  public void complete() {
    subscriber.onComplete();
  }
}
