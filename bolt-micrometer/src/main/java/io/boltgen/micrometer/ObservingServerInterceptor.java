package io.boltgen.micrometer;

import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Starts an observation per call served and opens its scope on the handler's thread, so that what the
 * handler observes or logs there (calls it sends included) is the call's child. The listener stops the
 * observation when the call is answered, and closes the scope if it runs on the thread that opened it with
 * that scope still the innermost one: the usual case, a handler that answers (or throws) on its own thread.
 *
 * <p>A handler that answers from another thread ({@code respondWith}, {@code asCallback}, a later
 * {@code respond}) leaves its scope open on its thread after it returns: the runtime tells interceptors of
 * the answer, not of the handler's return, and a scope can only be closed on its own thread. Such a scope is
 * closed when that thread next starts a call through this interceptor; until then the thread still has the
 * (stopped) observation as its current one.
 */
final class ObservingServerInterceptor implements ServerInterceptor {

  private final ObservationRegistry registry;
  private final BoltServerObservationConvention convention;
  // the scope this interceptor left open on a thread whose handler returned before its call was answered
  private final ThreadLocal<Observation.Scope> leftOpen = new ThreadLocal<>();

  ObservingServerInterceptor(ObservationRegistry registry, BoltServerObservationConvention convention) {
    this.registry = registry;
    this.convention = convention;
  }

  @Override
  public Listener interceptCall(ServerContext call) {
    if (registry.isNoop()) {
      return null;
    }
    closeLeftOpen();
    BoltServerObservationContext context = new BoltServerObservationContext(call);
    Observation observation = Observation.createNotStarted(convention,
        DefaultBoltServerObservationConvention.INSTANCE, () -> context, registry).start();
    Observation.Scope scope = observation.openScope();
    leftOpen.set(scope);
    return (status, error, elapsedNanos) -> {
      context.setStatus(status);
      if (error != null) {
        observation.error(error);
      }
      if (registry.getCurrentObservationScope() == scope) {
        // on the handler's thread, innermost: close it where it was opened
        leftOpen.remove();
        scope.close();
      }
      observation.stop();
    };
  }

  private void closeLeftOpen() {
    Observation.Scope stale = leftOpen.get();
    if (stale != null) {
      leftOpen.remove();
      if (registry.getCurrentObservationScope() == stale) {
        stale.close();
      }
    }
  }
}
