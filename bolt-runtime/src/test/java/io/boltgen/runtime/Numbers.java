package io.boltgen.runtime;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A hand-built service whose methods stream their answers, each from a {@link Source} that records the demand
 * it was asked for. A request is two ints: how many messages ({@code -1}: until cancelled) and how many bytes
 * each (at least 4: the message's index comes first).
 */
public final class Numbers {

  public static final String SERVICE = "test.Numbers";

  /** Streams the messages, then completes. */
  public static final MethodDescriptor<byte[], byte[]> COUNT = method("count");
  /** Streams the messages, then fails with an {@link IllegalStateException}. */
  public static final MethodDescriptor<byte[], byte[]> COUNT_THEN_FAIL = method("countThenFail");
  /** Streams the messages, then fails with a checked exception: a declared one. */
  public static final MethodDescriptor<byte[], byte[]> COUNT_THEN_REFUSE = method("countThenRefuse");
  /** Streams the messages, then neither completes nor fails: the deadline or the caller ends the call. */
  public static final MethodDescriptor<byte[], byte[]> COUNT_THEN_STALL = method("countThenStall");
  /** Answers with {@code respond}: a stream of one message. */
  public static final MethodDescriptor<byte[], byte[]> ONE = method("one");

  // the end of a source that never ends
  private final Throwable stall = new Error("never thrown");

  private final ExecutorService emitter = Executors.newSingleThreadExecutor(r -> new Thread(r, "numbers-source"));
  /** The source of the last call. */
  public volatile Source last;

  public static MethodDescriptor<byte[], byte[]> method(String name) {
    return EchoService.method(SERVICE, name, 0, MethodType.SERVER_STREAMING, 60_000);
  }

  public static byte[] request(int count, int size) {
    return ByteBuffer.allocate(8).putInt(count).putInt(size).array();
  }

  public static int index(byte[] message) {
    return ByteBuffer.wrap(message).getInt();
  }

  public ServiceDefinition definition() {
    return ServiceDefinition.builder(SERVICE, "1.0")
        .method(COUNT, (request, call) -> call.respondStream(source(request, null)))
        .method(COUNT_THEN_FAIL, (request, call) -> call.respondStream(source(request,
            new IllegalStateException("the source ran dry"))))
        .method(COUNT_THEN_REFUSE, (request, call) -> call.respondStream(source(request,
            new java.io.IOException("the source is closed for the night"))))
        .method(COUNT_THEN_STALL, (request, call) -> call.respondStream(source(request, stall)))
        .method(ONE, (request, call) -> call.respond(request))
        .build();
  }

  private Source source(byte[] request, Throwable end) {
    ByteBuffer b = ByteBuffer.wrap(request);
    Source s = new Source(b.getInt(), b.getInt(), end);
    last = s;
    return s;
  }

  /** Stops the sources' thread. */
  public void close() throws InterruptedException {
    emitter.shutdownNow();
    emitter.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** A publisher that emits only what it was asked for, on one thread, and records the demand. */
  public final class Source implements Flow.Publisher<byte[]> {
    public final int count;
    public final int size;
    public final Throwable end;
    public final AtomicLong requested = new AtomicLong();
    public final AtomicLong emitted = new AtomicLong();
    /** The most messages ever asked for and not yet emitted. */
    public final AtomicLong mostOutstanding = new AtomicLong();
    public final CountDownLatch cancelled = new CountDownLatch(1);
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private boolean ended;

    Source(int count, int size, Throwable end) {
      this.count = count;
      this.size = size;
      this.end = end;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super byte[]> subscriber) {
      if (!subscribed.compareAndSet(false, true)) {
        throw new IllegalStateException("subscribed twice");
      }
      subscriber.onSubscribe(new Flow.Subscription() {
        @Override
        public void request(long n) {
          long r = requested.addAndGet(n);
          mostOutstanding.accumulateAndGet(r - emitted.get(), Math::max);
          emitter.execute(() -> drain(subscriber));
        }

        @Override
        public void cancel() {
          cancelled.countDown();
        }
      });
      emitter.execute(() -> drain(subscriber));
    }

    private void drain(Flow.Subscriber<? super byte[]> subscriber) {
      while (!ended && cancelled.getCount() > 0 && emitted.get() < requested.get()
          && (count < 0 || emitted.get() < count)) {
        byte[] message = new byte[size];
        ByteBuffer.wrap(message).putInt((int) emitted.getAndIncrement());
        subscriber.onNext(message);
      }
      if (!ended && count >= 0 && emitted.get() == count && cancelled.getCount() > 0) {
        ended = true;
        if (end == stall) {
          return;
        } else if (end != null) {
          subscriber.onError(end);
        } else {
          subscriber.onComplete();
        }
      }
    }
  }
}
