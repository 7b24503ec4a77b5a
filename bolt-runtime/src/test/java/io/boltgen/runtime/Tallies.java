package io.boltgen.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A hand-built service whose callers stream their requests: each client-streaming method reads the caller's
 * messages with a {@link Tally} that records what it was told; {@code echo} is bidirectional and answers with the
 * caller's own messages, demand passing straight from its caller's reading to its caller's sending. A tally's
 * answer is two ints: how many messages it read and how many bytes they held.
 */
public final class Tallies {

  public static final String SERVICE = "test.Tally";

  /** Reads every message, one at a time, and answers the tally once the caller sent its last. */
  public static final MethodDescriptor<byte[], byte[]> SUM = method("sum", MethodType.CLIENT_STREAMING);
  /** Reads two messages, then fails with an {@link IllegalStateException} while the caller may still send. */
  public static final MethodDescriptor<byte[], byte[]> SUM_THEN_FAIL = method("sumThenFail",
      MethodType.CLIENT_STREAMING);
  /** Reads two messages, then fails with a checked exception: a declared one. */
  public static final MethodDescriptor<byte[], byte[]> SUM_THEN_REFUSE = method("sumThenRefuse",
      MethodType.CLIENT_STREAMING);
  /** Reads one message, then asks for no more until {@link Tally#resume}: a handler that reads slowly. */
  public static final MethodDescriptor<byte[], byte[]> HOLD = method("hold", MethodType.CLIENT_STREAMING);
  /** Answers with the first message as soon as it arrives, whatever the caller sends after it. */
  public static final MethodDescriptor<byte[], byte[]> FIRST = method("first", MethodType.CLIENT_STREAMING);
  /** Answers each message with itself, as the caller reads. */
  public static final MethodDescriptor<byte[], byte[]> ECHO = method("echo", MethodType.BIDI_STREAMING);

  /** The tally of the last call. */
  public volatile Tally last;

  public static MethodDescriptor<byte[], byte[]> method(String name, MethodType type) {
    return EchoService.method(SERVICE, name, 0, type, 60_000);
  }

  /** A message of {@code size} bytes (at least 4) whose first int is {@code index}. */
  public static byte[] message(int index, int size) {
    return ByteBuffer.allocate(size).putInt(index).array();
  }

  /** The tally an answer tells: {messages, bytes}. */
  public static long[] counts(byte[] answer) {
    ByteBuffer b = ByteBuffer.wrap(answer);
    return new long[] {b.getInt(), b.getInt()};
  }

  public ServiceDefinition definition() {
    return ServiceDefinition.builder(SERVICE, "1.0")
        .streamingMethod(SUM, (messages, call) -> read(messages, call, Mode.SUM))
        .streamingMethod(SUM_THEN_FAIL, (messages, call) -> read(messages, call, Mode.FAIL))
        .streamingMethod(SUM_THEN_REFUSE, (messages, call) -> read(messages, call, Mode.REFUSE))
        .streamingMethod(HOLD, (messages, call) -> read(messages, call, Mode.HOLD))
        .streamingMethod(FIRST, (messages, call) -> read(messages, call, Mode.FIRST))
        .streamingMethod(ECHO, (messages, call) -> call.respondStream(messages))
        .build();
  }

  private void read(Flow.Publisher<byte[]> messages, ServerCall call, Mode mode) {
    Tally tally = new Tally(call, mode);
    last = tally;
    call.context().onCancel(tally.cancelled::countDown);
    messages.subscribe(tally);
  }

  private enum Mode { SUM, FAIL, REFUSE, HOLD, FIRST }

  /** The handler's subscriber: what it read, how its reading ended. */
  public static final class Tally implements Flow.Subscriber<byte[]> {
    private final ServerCall call;
    private final Mode mode;
    public final AtomicInteger received = new AtomicInteger();
    public final AtomicLong bytes = new AtomicLong();
    public final AtomicReference<Throwable> error = new AtomicReference<>();
    /** Counted down once its reading ended: completed or failed. */
    public final CountDownLatch ended = new CountDownLatch(1);
    /** Counted down when the call's handler is told the caller went away. */
    public final CountDownLatch cancelled = new CountDownLatch(1);
    private volatile Flow.Subscription subscription;

    Tally(ServerCall call, Mode mode) {
      this.call = call;
      this.mode = mode;
    }

    /** A held tally reads on: every message left, one at a time. */
    public void resume() {
      subscription.request(1);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(1);
    }

    @Override
    public void onNext(byte[] message) {
      int count = received.incrementAndGet();
      bytes.addAndGet(message.length);
      if (mode == Mode.FIRST) {
        call.respond(message);
      } else if (count == 2 && (mode == Mode.FAIL || mode == Mode.REFUSE)) {
        subscription.cancel();
        call.fail(mode == Mode.FAIL ? new IllegalStateException("the tally broke")
            : new IOException("the tally is closed for the night"));
      } else if (mode != Mode.HOLD || count > 1) {
        subscription.request(1);
      }
    }

    @Override
    public void onError(Throwable e) {
      error.set(e);
      ended.countDown();
    }

    @Override
    public void onComplete() {
      call.respond(ByteBuffer.allocate(8).putInt(received.get()).putInt((int) bytes.get()).array());
      ended.countDown();
    }
  }
}
