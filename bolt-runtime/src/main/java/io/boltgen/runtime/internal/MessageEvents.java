package io.boltgen.runtime.internal;

import io.boltgen.runtime.ClientCall;
import io.boltgen.runtime.MethodType;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A streaming call as its caller drives it, with its client interceptors' listeners told of each message: one the
 * caller sends ({@link io.boltgen.runtime.ClientInterceptor.Listener#onMessageSent}, as it is handed to a call still
 * going) and one it is told ({@link io.boltgen.runtime.ClientInterceptor.Listener#onMessageReceived}, before its
 * listener hears it). Once the caller started listening, the listeners hear the call's end as the caller does, after
 * the messages the call still held for it: never a message after the end. Made only for a call that streams and has
 * such listeners; everything else passes through.
 *
 * <p>Thread-safe as the call it wraps.
 */
final class MessageEvents<Q, R> implements ClientCall<Q, R> {

  private final PendingCall<R> call;
  private final Interception.Outgoing intercepted;
  private final boolean streamsRequests;
  private final boolean streamsAnswers;
  private final LongSupplier clock;

  /**
   * {@code call} of a method of {@code type}: only the side that streams is told (a unary request is not); the end's
   * time is read from {@code clock}.
   */
  MessageEvents(PendingCall<R> call, Interception.Outgoing intercepted, MethodType type, LongSupplier clock) {
    this.call = call;
    this.intercepted = intercepted;
    this.streamsRequests = type.streamsRequests();
    this.streamsAnswers = type.streamsAnswers();
    this.clock = clock;
  }

  @Override
  public void start(Listener<? super R> listener) {
    intercepted.deferCompletion();
    call.start(new Listener<R>() {
      @Override
      public void onMessage(R message) {
        if (streamsAnswers) {
          intercepted.messageReceived();
        }
        listener.onMessage(message);
      }

      @Override
      public void onClose(Throwable error, Map<String, String> trailers) {
        intercepted.complete(error, clock.getAsLong());
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
    boolean going = !call.isDone(); // a message for a call that ended is dropped: not told as sent
    call.sendMessage(message);
    if (streamsRequests && going) {
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
