package io.boltgen.runtime;

import io.boltgen.annotation.BoltCallback;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Something calls can be sent over: a pool of connections to one address ({@link BoltClient#channel}), or
 * one connection, for example the one a request arrived on ({@link Connection#channel()}: duplex calls).
 * Generated stubs call exactly these four methods, one per call style; each drives one {@link ClientCall},
 * which {@link #newCall} hands to callers that drive it themselves.
 *
 * <p>Thread-safe. A call never waits longer than its timeout (see {@link CallOptions}); every failure is a
 * {@link BoltException} carrying a {@link ResponseStatus}, or a declared exception of the method mapped by
 * its descriptor's {@link MethodDescriptor.ErrorMapper}.
 */
public interface BoltChannel {

  /**
   * Sends {@code request} and blocks until the response, a failure or the timeout.
   *
   * @throws BoltException on any failure, or the declared exception the method's error mapper made of it,
   *     thrown as itself even when it is checked (a generated stub's method declares it; other callers
   *     catch it as {@code Exception})
   */
  <Q, R> R invokeSync(MethodDescriptor<Q, R> method, Q request, CallOptions options);

  /**
   * Sends {@code request} and returns at once. The future completes exactly once: with the response, or
   * exceptionally with a {@link BoltException} (or a mapped declared exception). It completes on the IO
   * thread that read the response (or on the timer thread): dependent stages that block must use an
   * {@code *Async} variant; {@code *Async} stages without an executor run on the client's callback
   * executor.
   */
  <Q, R> CompletableFuture<R> invokeFuture(MethodDescriptor<Q, R> method, Q request, CallOptions options);

  /**
   * Sends {@code request} and returns at once; exactly one of the callback's methods runs exactly once,
   * on {@link CallOptions#callbackExecutor()} or else the client's callback executor.
   */
  <Q, R> void invokeCallback(
      MethodDescriptor<Q, R> method, Q request, CallOptions options, BoltCallback<? super R> callback);

  /**
   * Sends {@code request} as a oneway frame and returns without waiting: if no connection is up yet the
   * frame goes out once one is. Nothing is learnt about the outcome; a frame that cannot be sent leaves
   * one log line.
   *
   * @throws BoltException if the call is refused at once (client closed, connection not writable)
   */
  <Q> void invokeOneway(MethodDescriptor<Q, ?> method, Q request, CallOptions options);

  /**
   * A new call of {@code method}, for a caller that drives it itself: the call each style above drives too
   * (see {@link ClientCall}). Its deadline starts now, and the client's interceptors see it now (a refusal of
   * theirs closes it once it is started). Nothing is sent before {@link ClientCall#halfClose}, but for a method that
   * streams its requests, whose request goes out at {@link ClientCall#start} and each message as its server grants
   * it ({@link ClientCall#isReady}). A streaming method's call is streamed over Bolt by boltgen's extension of the
   * protocol: the server sends at most 16 messages its caller has not read yet (see docs/wire-format.md); a SOFABolt
   * server fails it at once.
   */
  <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options);

  /**
   * The answers of {@code method} to {@code request}, as a publisher: each subscription makes one call
   * ({@link #newCall}) and hands its answers on as its subscriber asks for them; cancelling the subscription cancels
   * the call, and the call's end is the subscriber's {@code onComplete} or {@code onError} (the same failures the
   * other styles throw). A request-response method publishes its one answer. Generated stubs call it for methods
   * that return a {@code Flow.Publisher}. A call that cannot be made (a closed client, a channel that cannot carry
   * {@code method}) fails its subscriber at once.
   */
  default <Q, R> Flow.Publisher<R> invokeStream(MethodDescriptor<Q, R> method, Q request, CallOptions options) {
    return new CallPublisher<>(this, method, request, options);
  }

  /**
   * Calls a {@link MethodType#CLIENT_STREAMING} method with the requests {@code requests} publishes and returns at
   * once: one call, made now, to which the caller's requests are sent as it can take them (the publisher is asked
   * for more only while the call is ready, at most 16 ahead of what was sent), then half-closed when the publisher
   * completes. The future completes with the one answer, or exceptionally with the call's failure; the publisher's
   * failure cancels the call with it as the cause. Cancelling the future cancels the call. Generated stubs call it
   * for methods that take a {@code Flow.Publisher} and return a {@code CompletableFuture}. A call that cannot be
   * made (a closed client, a channel that cannot carry {@code method}) fails the future at once.
   */
  default <Q, R> CompletableFuture<R> invokeClientStream(MethodDescriptor<Q, R> method,
      Flow.Publisher<? extends Q> requests, CallOptions options) {
    return ClientStreamFuture.call(this, method, requests, options);
  }

  /**
   * Calls a {@link MethodType#BIDI_STREAMING} method: as {@link #invokeStream}, each subscription makes one call,
   * whose answers go to the subscriber as it asks, and which is sent the requests {@code requests} publishes as it
   * can take them, as {@link #invokeClientStream} sends them. Generated stubs call it for methods that take a
   * {@code Flow.Publisher} and return one.
   */
  default <Q, R> Flow.Publisher<R> invokeBidiStream(MethodDescriptor<Q, R> method,
      Flow.Publisher<? extends Q> requests, CallOptions options) {
    return new CallPublisher<>(this, method, requests, options);
  }

  /** The peer this channel sends to. */
  SocketAddress remoteAddress();
}
