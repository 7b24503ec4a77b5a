package io.boltgen.runtime.internal;

import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.MethodType;
import java.util.Map;

/**
 * A streaming call as its caller drives it, with its client interceptors' listeners told of each message: one the
 * caller sends ({@link io.boltgen.runtime.ClientInterceptor.Listener#onMessageSent}, as it is handed to the call) and
 * one it is told ({@link io.boltgen.runtime.ClientInterceptor.Listener#onMessageReceived}, before its listener hears
 * it). Made only for a call that streams and has such listeners; everything else passes through.
 *
 * <p>Thread-safe as the call it wraps.
 */
final class MessageEvents<Q, R> implements ClientCall<Q, R> {

  private final ClientCall<Q, R> call;
  private final Interception.Outgoing intercepted;
  private final boolean streamsRequests;
  private final boolean streamsAnswers;

  /** {@code call} of a method of {@code type}: only the side that streams is told (a unary request is not). */
  MessageEvents(ClientCall<Q, R> call, Interception.Outgoing intercepted, MethodType type) {
    this.call = call;
    this.intercepted = intercepted;
    this.streamsRequests = type.streamsRequests();
    this.streamsAnswers = type.streamsAnswers();
  }

  @Override
  public void start(Listener<? super R> listener) {
    if (!streamsAnswers) {
      call.start(listener);
      return;
    }
    call.start(new Listener<R>() {
      @Override
      public void onMessage(R message) {
        intercepted.messageReceived();
        listener.onMessage(message);
      }

      @Override
      public void onClose(Throwable error, Map<String, String> trailers) {
        listener.onClose(error, trailers);
      }

      @Override
      public void onReady() {
        listener.onReady();
      }
    });
  }

  @Override
  public void request(int count) {
    call.request(count);
  }

  @Override
  public void sendMessage(Q message) {
    call.sendMessage(message);
    if (streamsRequests) {
      intercepted.messageSent();
    }
  }

  @Override
  public void halfClose() {
    call.halfClose();
  }

  @Override
  public void cancel(String reason, Throwable cause) {
    call.cancel(reason, cause);
  }

  @Override
  public boolean isReady() {
    return call.isReady();
  }
}
