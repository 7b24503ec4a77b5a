package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThat;


import io.boltgen.annotation.BoltCallback;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A caller's stream of requests sent on a call that the test drives ({@link BoltChannel#invokeClientStream},
 * {@link BoltChannel#invokeBidiStream}): the caller's publisher is asked for requests only while the call is ready,
 * never more than {@value RequestPump#AHEAD} ahead of what was sent; its completion half-closes the call, its
 * failure cancels the call; the call's end cancels the publisher; a channel that cannot make the call fails at once.
 */
class RequestPumpTest {

  private static final MethodDescriptor<byte[], byte[]> SUM =
      EchoService.method("test.Sum", "sum", 1, MethodType.CLIENT_STREAMING, 1_000);
  private static final MethodDescriptor<byte[], byte[]> ECHO =
      EchoService.method("test.Sum", "echo", 2, MethodType.BIDI_STREAMING, 1_000);

  private final TestCall call = new TestCall();
  private final DrivenPublisher source = new DrivenPublisher();
  private final BoltChannel channel = new OneCallChannel(() -> call);

  @Test
  void requestsAreAskedForWhileTheCallIsReadyAndNeverMoreThanSixteenAhead() throws Exception {
    CompletableFuture<byte[]> answer = channel.invokeClientStream(SUM, source, CallOptions.DEFAULT);
    assertThat(call.asked).as("the answer").isEqualTo(1);
    assertThat(source.requested).isEqualTo(16);
    source.emit(7);
    assertThat(source.requested).as("more than half are still asked for").isEqualTo(16);
    source.emit(1);
    assertThat(source.requested).as("topped up to 16 ahead").isEqualTo(24);
    call.ready = false;
    source.emit(16);
    assertThat(source.requested).as("nothing more while the call cannot send").isEqualTo(24);
    assertThat(call.sent).hasSize(24);
    call.ready = true;
    call.listener.onReady();
    assertThat(source.requested).isEqualTo(40);
    source.subscriber.onComplete();
    assertThat(call.halfClosed).isTrue();
    call.listener.onMessage(EchoService.bytes("24"));
    call.listener.onClose(null, Map.of());
    assertThat(EchoService.string(answer.get())).isEqualTo("24");
  }

  @Test
  void thePublishersFailureCancelsTheCallWithItAsTheCause() {
    CompletableFuture<byte[]> answer = channel.invokeClientStream(SUM, source, CallOptions.DEFAULT);
    source.emit(2);
    IllegalStateException dry = new IllegalStateException("dry");
    source.subscriber.onError(dry);
    assertThat(call.cancelled).isEqualTo("the publisher of the requests failed");
    assertThat(call.cancelCause).isSameAs(dry);
    assertThat(call.halfClosed).isFalse();
    assertThat(answer).isCompletedExceptionally();
  }

  @Test
  void theCallsEndCancelsThePublisher() {
    CompletableFuture<byte[]> answer = channel.invokeClientStream(SUM, source, CallOptions.DEFAULT);
    source.emit(1);
    BoltException refused = new BoltException(ResponseStatus.SERVER_EXCEPTION, "no");
    call.listener.onClose(refused, Map.of());
    assertThat(source.cancelled).isTrue();
    source.emit(1); // asked for before the end: dropped
    assertThat(call.sent).hasSize(1);
    assertThat(answer).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
        .withCause(refused);
  }

  @Test
  void cancellingTheFutureCancelsTheCall() {
    CompletableFuture<byte[]> answer = channel.invokeClientStream(SUM, source, CallOptions.DEFAULT);
    answer.cancel(false);
    assertThat(call.cancelled).isEqualTo("the caller cancelled the call's future");
  }

  @Test
  void anAnswerlessEndIsAnError() {
    CompletableFuture<byte[]> answer = channel.invokeClientStream(SUM, source, CallOptions.DEFAULT);
    source.subscriber.onComplete();
    call.listener.onClose(null, Map.of());
    assertThat(answer).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
        .havingCause().isInstanceOf(BoltException.class)
        .withMessage("the server of test.Sum:1.0/sum ended the call without its answer");
  }

  @Test
  void aBidirectionalCallSendsAsItIsReadyAndPublishesItsAnswers() {
    List<String> got = new ArrayList<>();
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    channel.invokeBidiStream(ECHO, source, CallOptions.DEFAULT).subscribe(new Flow.Subscriber<byte[]>() {
      @Override
      public void onSubscribe(Flow.Subscription s) {
        s.request(5);
      }

      @Override
      public void onNext(byte[] item) {
        got.add(EchoService.string(item));
      }

      @Override
      public void onError(Throwable error) {
        ended.complete(error);
      }

      @Override
      public void onComplete() {
        ended.complete(null);
      }
    });
    assertThat(call.asked).isEqualTo(5);
    assertThat(source.requested).isEqualTo(16);
    source.emit(3);
    call.listener.onMessage(EchoService.bytes("a"));
    source.subscriber.onComplete();
    assertThat(call.halfClosed).isTrue();
    call.listener.onClose(null, Map.of());
    assertThat(got).containsExactly("a");
    assertThat(ended).isCompletedWithValue(null);
  }

  @Test
  void aChannelThatCannotMakeTheCallFailsAtOnce() {
    BoltChannel refusing = new OneCallChannel(() -> {
      throw new IllegalArgumentException("not carried");
    });
    assertThat(refusing.invokeClientStream(SUM, source, CallOptions.DEFAULT))
        .failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(IllegalArgumentException.class);
    assertThat(source.subscriber).as("never subscribed").isNull();
  }

  /** A channel whose every call is the one {@code calls} gives (or throws); its other styles are not used. */
  private static final class OneCallChannel implements BoltChannel {
    private final Supplier<ClientCall<byte[], byte[]>> calls;

    OneCallChannel(Supplier<ClientCall<byte[], byte[]>> calls) {
      this.calls = calls;
    }

    @Override
    @SuppressWarnings("unchecked") // the tests' methods are all byte[] to byte[]
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      return (ClientCall<Q, R>) (ClientCall<?, ?>) calls.get();
    }

    @Override
    public <Q, R> R invokeSync(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <Q, R> CompletableFuture<R> invokeFuture(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <Q, R> void invokeCallback(MethodDescriptor<Q, R> method, Q request, CallOptions options,
        BoltCallback<? super R> callback) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <Q> void invokeOneway(MethodDescriptor<Q, ?> method, Q request, CallOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public SocketAddress remoteAddress() {
      return null;
    }
  }

  /** A call that records what it is sent and told, ready when the test says. */
  private static final class TestCall implements ClientCall<byte[], byte[]> {
    final List<byte[]> sent = new ArrayList<>();
    Listener<? super byte[]> listener;
    boolean ready = true;
    boolean halfClosed;
    int asked;
    String cancelled;
    Throwable cancelCause;

    @Override
    public void start(Listener<? super byte[]> listener) {
      this.listener = listener;
    }

    @Override
    public void request(int count) {
      asked += count;
    }

    @Override
    public void sendMessage(byte[] message) {
      sent.add(message);
    }

    @Override
    public void halfClose() {
      halfClosed = true;
    }

    @Override
    public void cancel(String reason, Throwable cause) {
      cancelled = reason;
      cancelCause = cause;
      listener.onClose(new CancellationException(reason), Map.of());
    }

    @Override
    public boolean isReady() {
      return ready && !halfClosed;
    }
  }
}
