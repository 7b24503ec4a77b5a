package io.boltgen.annotation;

/**
 * Receives the outcome of a callback-style call: {@code void get(SkuId id, BoltCallback<Stock> callback)}.
 *
 * <p>Exactly one of the two methods is called, exactly once, on the client's callback executor (or the
 * executor named in the call's options), never on a Netty IO thread unless the caller asked for a direct
 * executor. On the server side, an implementation of such a method receives a callback that sends the
 * response; calling it more than once has no further effect.
 *
 * @param <T> the result type
 */
public interface BoltCallback<T> {

  /** The call succeeded with {@code result} (which may be {@code null}). */
  void onResponse(T result);

  /**
   * The call failed: a {@code BoltException} carrying the response status (timeout, server exception,
   * connection closed…), or a declared exception of the method rethrown as its own type.
   */
  void onError(Throwable error);
}
