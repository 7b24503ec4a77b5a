package io.boltgen.micrometer;

import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Starts an observation per call served and opens its scope on the handler's thread, so that what the
 * handler observes or logs there (calls it sends included) is the call's child. The scope is closed on that
 * thread when the handler returns ({@link Listener#onHandlerReturned}); the observation stops when the call
 * is answered, on whichever thread answered it (a handler may answer later, from another thread).
 */
final class ObservingServerInterceptor implements ServerInterceptor {

  private final ObservationRegistry registry;
  private final BoltServerObservationConvention convention;

  ObservingServerInterceptor(ObservationRegistry registry, BoltServerObservationConvention convention) {
    this.registry = registry;
    this.convention = convention;
  }

  @Override
  public Listener interceptCall(ServerContext call) {
    if (registry.isNoop()) {
      return null;
    }
    BoltServerObservationContext context = new BoltServerObservationContext(call);
    Observation observation = Observation.createNotStarted(convention,
        DefaultBoltServerObservationConvention.INSTANCE, () -> context, registry).start();
    Observation.Scope scope = observation.openScope();
    return new Listener() {
      @Override
      public void onHandlerReturned() {
        scope.close();
      }

      @Override
      public void onComplete(io.boltgen.runtime.ResponseStatus status, Throwable error, long elapsedNanos) {
        context.setStatus(status);
        if (error != null) {
          observation.error(error);
        }
        observation.stop();
      }
    };
  }
}
