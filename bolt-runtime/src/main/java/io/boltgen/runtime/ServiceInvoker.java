package io.boltgen.runtime;

/**
 * Runs a service's methods: the generated skeleton implements it with a {@code switch} on the method's
 * method code that calls the user's implementation.
 *
 * <p>Called on the service's executor (or the IO thread, when the service was registered with a direct
 * executor), one call per request. A result, or a failure, is reported through {@code call}; an exception
 * thrown from here fails the call with {@code SERVER_EXCEPTION}. Oneway methods report nothing.
 */
@FunctionalInterface
public interface ServiceInvoker {

  /**
   * Runs the method with method code {@code methodCode}.
   *
   * @param request the decoded request: an instance of that method's request type
   * @param call where the result goes
   */
  void invoke(int methodCode, Object request, ServerCall call) throws Exception;
}
