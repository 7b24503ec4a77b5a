package io.boltgen.runtime;

import io.boltgen.annotation.BoltCallback;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * The server side of one call: where a handler puts its result, or the stream of its results
 * ({@link #respondStream}). The first outcome wins; later ones are ignored. For oneway calls every outcome is
 * ignored (a failure is logged). Thread-safe: a handler may answer from any thread, long after
 * {@link ServiceInvoker#invoke} returned.
 */
public interface ServerCall {

  /** Answers with {@code result}, encoded by the method's response marshaller. */
  void respond(Object result);

  /**
   * Answers with {@code SERVER_EXCEPTION}, carrying the class name and message of {@code error} (a
   * declared exception of the method is rebuilt as its own type on a boltgen client).
   */
  void fail(Throwable error);

  /**
   * Answers with the outcome of {@code stage} once it completes: {@link #respond} with its value, or
   * {@link #fail} with its failure.
   */
  default void respondWith(CompletionStage<?> stage) {
    stage.whenComplete((value, error) -> {
      if (error != null) {
        fail(error);
      } else {
        respond(value);
      }
    });
  }

  /**
   * A callback that answers this call, {@link #respond} on a response and {@link #fail} on an error: for
   * implementations of callback-style methods.
   */
  default <T> BoltCallback<T> asCallback() {
    return new BoltCallback<>() {
      @Override
      public void onResponse(T result) {
        respond(result);
      }

      @Override
      public void onError(Throwable error) {
        fail(error);
      }
    };
  }

  /**
   * Answers a {@link MethodType#SERVER_STREAMING} or {@link MethodType#BIDI_STREAMING} method with the messages
   * {@code messages} publishes. The call
   * subscribes at once, asks for messages as its caller takes them (a caller that reads slowly slows the
   * publisher down: at most 16 messages are asked for ahead of what the transport can send), writes each, and
   * closes once the publisher completes, or fails with its error as {@link #fail} does. The caller's deadline
   * covers the whole stream. When the call ends first (the deadline passed, the caller cancelled, a message could
   * not be encoded) the subscription is cancelled. For a method of any other type the call fails with an
   * {@link IllegalStateException}; {@link #respond} on a streaming method answers a stream of that one message.
   */
  default void respondStream(Flow.Publisher<?> messages) {
    fail(new IllegalStateException(context().method() + " does not stream its answer"));
  }

  /** Who called, over which connection, with which headers and deadline. */
  ServerContext context();
}
