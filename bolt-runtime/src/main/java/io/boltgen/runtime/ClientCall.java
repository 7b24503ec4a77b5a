package io.boltgen.runtime;

import java.util.Map;

/**
 * One outgoing call as its caller drives it: a stream of request messages out, a stream of response messages
 * in, then one close with the call's outcome. Every call a client sends is one of these, whichever the target
 * (one connection, a pool, a cluster); {@link BoltChannel}'s four styles are ready-made ways of driving one
 * ({@link BoltChannel#newCall}).
 *
 * <p>The order: {@link #start} once, then {@link #sendMessage} for each request message and {@link #halfClose}
 * after the last; {@link #request} asks for response messages whenever the caller is ready for more. The
 * listener is told at most as many messages as were asked for, then {@link Listener#onClose} exactly once: with
 * no error once the peer's answer was complete, else with the call's failure, which is told whatever the
 * demand. {@link #cancel} may come at any time, from any thread, and closes the call at once unless it closed
 * first.
 *
 * <p>A unary call (a {@link MethodType#REQUEST_RESPONSE} or {@link MethodType#ONEWAY} method) carries one
 * message each way (a oneway one none back): a second {@code sendMessage}, or a {@code halfClose} without one,
 * is an {@link IllegalStateException}. Its request leaves at {@code halfClose}; its deadline (see {@link
 * CallOptions}) starts when the call is made. Over Bolt a cancelled unary call's peer is not told (the protocol
 * has no way to): its answer, if it comes, is dropped; a cancelled streaming call's server is told, and stops.
 *
 * <p>Threads: the listener runs on {@link CallOptions#callbackExecutor()}, else the client's callback executor,
 * one method at a time; the call's own methods may be called from any thread, but {@code start},
 * {@code sendMessage} and {@code halfClose} from one at a time.
 *
 * @param <Q> the request message type
 * @param <R> the response message type
 */
public interface ClientCall<Q, R> {

  /**
   * Starts listening: from here on the call tells {@code listener} what happens to it.
   *
   * @throws IllegalStateException if the call was started already
   */
  void start(Listener<? super R> listener);

  /**
   * Asks for up to {@code count} more response messages, each told to {@link Listener#onMessage} now or as they
   * arrive.
   *
   * @throws IllegalArgumentException if {@code count} is not positive
   * @throws IllegalStateException if the call was not started
   */
  void request(int count);

  /**
   * Sends one request message.
   *
   * @throws IllegalStateException if the call was not started, was half-closed, or carries no more messages
   */
  void sendMessage(Q message);

  /**
   * The caller sends no more messages.
   *
   * @throws IllegalStateException if the call was not started, was half-closed already, or is unary and was sent
   *     no message
   */
  void halfClose();

  /**
   * Ends the call now: its listener is closed with a {@link java.util.concurrent.CancellationException} saying
   * {@code reason} (with {@code cause}, which may be null), unless the call closed first; a later answer is
   * dropped.
   */
  void cancel(String reason, Throwable cause);

  /**
   * Whether a message sent now leaves without waiting on the transport. A unary call is ready until it is
   * half-closed; its one request is bounded by the client's outbound memory (see {@link BoltClient.Builder}). A
   * call that streams its requests is ready while its server has granted it more messages: one sent when it is not
   * waits, in order, and {@link Listener#onReady} says when to send again.
   */
  boolean isReady();

  /**
   * What a caller is told about its call, one method at a time, on the call's callback executor.
   *
   * @param <R> the response message type
   */
  interface Listener<R> {

    /** One response message, of those {@link #request asked for}. */
    void onMessage(R message);

    /**
     * The call ended, exactly once and last: {@code error} is null when the peer's answer was complete, else
     * the call's failure (a {@link BoltException}, the declared exception the method's {@link MethodDescriptor.ErrorMapper} made
     * of one, or a {@link java.util.concurrent.CancellationException} after {@link ClientCall#cancel}). {@code
     * trailers} are the header entries the peer ended the call with (empty when it sent none, or failed).
     */
    void onClose(Throwable error, Map<String, String> trailers);

    /** {@link ClientCall#isReady()} turned true. A unary call never tells it: it is ready from its start. */
    default void onReady() {}
  }
}
