package io.boltgen.bench.service;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/** The server side of {@link EchoService}: returns what it was given, doing nothing else. */
public final class EchoServiceImpl implements EchoService {

  /** The messages of one {@link #stream}, on every system that streams. */
  public static final int STREAM_MESSAGES = 100;

  @Override
  public byte[] echo(byte[] payload) {
    return payload;
  }

  @Override
  public CompletableFuture<byte[]> echoAsync(byte[] payload) {
    return CompletableFuture.completedFuture(payload);
  }

  @Override
  public Flow.Publisher<byte[]> stream(byte[] payload) {
    return subscriber -> subscriber.onSubscribe(new Repeat(payload, subscriber));
  }

  /**
   * {@code payload}, {@link #STREAM_MESSAGES} times, sent as asked for on the asking thread; a request made while
   * sending adds to the demand the sending thread serves.
   */
  private static final class Repeat implements Flow.Subscription {
    private final byte[] payload;
    private final Flow.Subscriber<? super byte[]> subscriber;
    private final AtomicLong demand = new AtomicLong();
    private int sent; // the sending thread's
    private volatile boolean done;

    Repeat(byte[] payload, Flow.Subscriber<? super byte[]> subscriber) {
      this.payload = payload;
      this.subscriber = subscriber;
    }

    @Override
    public void request(long n) {
      if (demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b) != 0) {
        return; // another thread is sending, and takes this demand too
      }
      long asked = n;
      while (true) {
        long now = 0;
        while (now < asked && sent < STREAM_MESSAGES && !done) {
          subscriber.onNext(payload);
          sent++;
          now++;
        }
        if (done) {
          return;
        }
        if (sent == STREAM_MESSAGES) {
          done = true;
          subscriber.onComplete();
          return;
        }
        asked = demand.addAndGet(-now);
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
