package io.boltgen.gateway;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A forwarded stream's messages as the gateway answers them: the instance's stream, over Bolt, handed on as the
 * gateway's caller reads (its demand goes to the instance, its cancellation too), counted in the gateway's calls
 * in flight until it ends, fails or is cancelled, whichever comes first.
 *
 * <p>Subscribed once, by the gateway's own call; thread-safe.
 */
final class ForwardedStream implements Flow.Publisher<byte[]> {

  private final Flow.Publisher<byte[]> instance;
  private final Forwarder.InFlight inFlight;
  private final AtomicBoolean ended = new AtomicBoolean();

  /** {@code instance}'s stream, counted in {@code inFlight} (already entered) until it ends. */
  ForwardedStream(Flow.Publisher<byte[]> instance, Forwarder.InFlight inFlight) {
    this.instance = instance;
    this.inFlight = inFlight;
  }

  private void end() {
    if (ended.compareAndSet(false, true)) {
      inFlight.exit();
    }
  }

  @Override
  public void subscribe(Flow.Subscriber<? super byte[]> caller) {
    Objects.requireNonNull(caller, "subscriber");
    instance.subscribe(new Flow.Subscriber<byte[]>() {
      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        caller.onSubscribe(new Flow.Subscription() {
          @Override
          public void request(long n) {
            subscription.request(n);
          }

          @Override
          public void cancel() {
            end();
            subscription.cancel();
          }
        });
      }

      @Override
      public void onNext(byte[] message) {
        caller.onNext(message);
      }

      @Override
      public void onError(Throwable error) {
        end();
        caller.onError(error);
      }

      @Override
      public void onComplete() {
        end();
        caller.onComplete();
      }
    });
  }
}
