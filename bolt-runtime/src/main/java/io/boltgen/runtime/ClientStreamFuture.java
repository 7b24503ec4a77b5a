package io.boltgen.runtime;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The answer of a client-streaming call ({@link BoltChannel#invokeClientStream}): one call, made at once, sent the
 * caller's requests as it can take them ({@link RequestPump}); the future completes with the call's one answer, or
 * exceptionally with its failure (the same failures the other call styles throw). Cancelling the future cancels the
 * call and the requests' subscription.
 *
 * <p>Thread-safe. The call's listener runs on its callback executor, one method at a time.
 */
final class ClientStreamFuture<Q, R> extends CompletableFuture<R> implements ClientCall.Listener<R> {

  private final MethodDescriptor<Q, R> method;
  private final ClientCall<Q, R> call;
  private final RequestPump<Q> pump;
  // the answer, once told (the listener's methods run one at a time)
  private R answer;
  private boolean answered;

  private ClientStreamFuture(MethodDescriptor<Q, R> method, ClientCall<Q, R> call) {
    this.method = method;
    this.call = call;
    this.pump = new RequestPump<>(call);
  }

  /** Calls {@code method} over {@code channel} with the requests {@code requests} publishes. */
  static <Q, R> CompletableFuture<R> call(BoltChannel channel, MethodDescriptor<Q, R> method,
      Flow.Publisher<? extends Q> requests, CallOptions options) {
    Objects.requireNonNull(requests, "requests");
    ClientCall<Q, R> call;
    try {
      call = channel.newCall(method, options);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e); // a channel that cannot carry the method, a closed client
    }
    ClientStreamFuture<Q, R> future = new ClientStreamFuture<>(method, call);
    call.start(future);
    call.request(1);
    future.pump.pump(requests);
    return future;
  }

  @Override
  public void onMessage(R message) {
    answer = message;
    answered = true;
  }

  @Override
  public void onReady() {
    pump.onReady();
  }

  @Override
  public void onClose(Throwable error, Map<String, String> trailers) {
    pump.stop();
    if (error != null) {
      completeExceptionally(error);
    } else if (answered) {
      complete(answer);
    } else {
      completeExceptionally(new BoltException(ResponseStatus.ERROR, "the server of " + method
          + " ended the call without its answer"));
    }
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      call.cancel("the caller cancelled the call's future", null);
    }
    return cancelled;
  }
}
