package io.boltgen.runtime;

import java.net.SocketAddress;

/**
 * Sees every call a client or server sends (a server sends calls back to its clients over their
 * connections): before its request is encoded, and once when it completes. The one extension point for
 * headers, metrics, tracing and refusals on the calling side; added with
 * {@code BoltClient.Builder.clientInterceptor} or {@code BoltServer.Builder.clientInterceptor}.
 *
 * <p>Interceptors run in the order they were added, on the calling thread, before anything is sent. One
 * may add headers ({@link Call#header}), and may refuse the call by throwing a {@link BoltException}: the
 * caller gets that exception as the failure of its call (thrown by a sync call, completing a future,
 * passed to a callback), no byte is sent, and the interceptors after it are not called. Each may return a
 * {@link Listener}, told once when the call completes: with its response, its error status, its timeout,
 * or the refusal. With no interceptor added a call costs nothing more.
 *
 * <p>Implementations must be thread-safe: one instance sees every call of its client or server.
 */
@FunctionalInterface
public interface ClientInterceptor {

  /**
   * Called before {@code call} is sent; returns whom to tell of its outcome, or {@code null}.
   *
   * @throws BoltException to refuse the call with its status
   */
  Listener interceptCall(Call call);

  /** One outgoing call as interceptors see it before it is sent. Valid only during {@link #interceptCall}. */
  interface Call {

    /** The method called. */
    MethodDescriptor<?, ?> method();

    /** The call's options, with the headers interceptors added so far. */
    CallOptions options();

    /** Adds (or replaces) a request header; it travels in the Bolt frame's header map. */
    void header(String key, String value);

    /**
     * Where the call goes: the address the channel was made for (the connection's peer for a call back
     * over a server's connection).
     */
    SocketAddress remoteAddress();
  }

  /**
   * Told once when a call completes, on the thread that completed it, and of each message of a streaming call: keep it
   * short, never block.
   */
  @FunctionalInterface
  interface Listener {

    /**
     * A message of a call that streams its requests was handed to the call ({@code ClientCall.sendMessage}), on the
     * caller's thread. A call of one request is not told.
     */
    default void onMessageSent() {}

    /**
     * A message of a call that streams its answer reached its caller, on the caller's callback executor, before the
     * caller is told it. A call of one answer is not told.
     */
    default void onMessageReceived() {}

    /**
     * The call completed.
     *
     * @param status {@link ResponseStatus#SUCCESS}, or the status of its failure (a declared exception
     *     rebuilt from the server's answer is {@link ResponseStatus#SERVER_EXCEPTION})
     * @param error {@code null} on success, else what the caller gets
     * @param elapsedNanos from {@link #interceptCall} to completion
     */
    void onComplete(ResponseStatus status, Throwable error, long elapsedNanos);
  }
}
