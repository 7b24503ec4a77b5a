package io.boltgen.runtime;

/**
 * Sees every call a server or client serves (a client serves the calls its servers send back): before its
 * handler runs, and once when it is answered. The one extension point for authorization, metrics, tracing
 * and logging context on the serving side; added with {@code BoltServer.Builder.serverInterceptor} or
 * {@code BoltClient.Builder.serverInterceptor}.
 *
 * <p>Interceptors run in the order they were added, on the thread about to run the handler, after the
 * request was decoded; {@link ServerContext#current()} is already set. One may refuse the call by throwing a
 * {@link BoltException}: the caller is answered with that exception's status and message (unless the call
 * is oneway), the handler does not run, and the interceptors after it are not called. Each may return a
 * {@link Listener}, told once when the call is answered (or, for a oneway call, when its handler returned or
 * threw). Requests refused before they reach this point (a full executor, a caller's timeout already
 * passed, content that does not decode) are never seen. With no interceptor added a call costs nothing
 * more.
 *
 * <p>Implementations must be thread-safe: one instance sees every call of its server or client.
 */
@FunctionalInterface
public interface ServerInterceptor {

  /**
   * Called before the handler of {@code call} runs; returns whom to tell of its outcome, or {@code null}.
   *
   * @throws BoltException to refuse the call with its status
   */
  Listener interceptCall(ServerContext call);

  /** Told once when a call is answered, on the thread that answered it: keep it short, never block. */
  @FunctionalInterface
  interface Listener {

    /**
     * The handler returned (or threw, or a later interceptor refused the call so that it never ran), told on
     * the handler's thread, before or after {@link #onComplete} (a handler may answer from another thread
     * later): the place to undo what {@link #interceptCall} set up on that thread, such as a scope or a
     * logging context. Does nothing unless overridden.
     */
    default void onHandlerReturned() {}

    /**
     * One of the caller's messages of a stream of requests reaches the handler, told just before, on the thread that
     * hands it over (the call's executor). A call of one request is not told: its request came before the call was
     * intercepted. Does nothing unless overridden.
     */
    default void onMessageReceived() {}

    /**
     * One message of a streamed answer was handed to the transport, told on the thread that published it. A unary
     * answer is not told: {@link #onComplete} is. Does nothing unless overridden.
     */
    default void onMessageSent() {}

    /**
     * The call was answered.
     *
     * @param status {@link ResponseStatus#SUCCESS}, or the status answered ({@link ResponseStatus#SERVER_EXCEPTION}
     *     when the handler failed), or {@link ResponseStatus#CONNECTION_CLOSED} when the call was cancelled (its
     *     caller went away first, see {@link ServerContext#isCancelled()}) and nothing was answered
     * @param error {@code null} on success, else the handler's failure or the refusal, or a
     *     {@link java.util.concurrent.CancellationException} for a cancelled call
     * @param elapsedNanos from the request's arrival on this side to its answer
     */
    void onComplete(ResponseStatus status, Throwable error, long elapsedNanos);
  }
}
