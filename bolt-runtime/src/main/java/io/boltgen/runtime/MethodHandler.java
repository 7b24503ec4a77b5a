package io.boltgen.runtime;

/**
 * Serves one method of a hand-built {@link ServiceDefinition} (generated services use a
 * {@link ServiceInvoker} instead).
 *
 * @param <Q> the request type
 */
@FunctionalInterface
public interface MethodHandler<Q> {

  /** Handles {@code request}, reporting the outcome through {@code call}; a throw fails the call. */
  void handle(Q request, ServerCall call) throws Exception;
}
