package io.boltgen.runtime;

import io.boltgen.annotation.BoltCallback;
import java.util.concurrent.CompletionStage;

/**
 * The server side of one call: where a handler puts its result. The first outcome wins; later ones are
 * ignored. For oneway calls every outcome is ignored (a failure is logged). Thread-safe: a handler may
 * answer from any thread, long after {@link ServiceInvoker#invoke} returned.
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

  /** Who called, over which connection, with which headers and deadline. */
  ServerContext context();
}
