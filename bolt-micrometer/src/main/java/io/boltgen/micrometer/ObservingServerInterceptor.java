package io.boltgen.micrometer;

import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.ServerInterceptor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Starts an observation per call served and opens its scope on the handler's thread, so that what the
 * handler observes or logs there (calls it sends included) is the call's child. The scope is closed on that
 * thread when the handler returns ({@link Listener#onHandlerReturned}); the observation stops when the call
 * is answered, on whichever thread answered it (a handler may answer later, from another thread). Each message of
 * a stream is an event of the observation: {@link #MESSAGE_RECEIVED}, {@link #MESSAGE_SENT}.
 */
final class ObservingServerInterceptor implements ServerInterceptor {

  /** One message of a stream reached its reader: the handler (server), the caller (client). */
  static final Observation.Event MESSAGE_RECEIVED =
      Observation.Event.of("message.received", "a message of the other side's stream reached its reader");
  /** One message of a stream was handed to the transport (server) or to the call (client). */
  static final Observation.Event MESSAGE_SENT =
      Observation.Event.of("message.sent", "a message of this side's stream was sent");

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
      public void onMessageReceived() {
        observation.event(MESSAGE_RECEIVED);
      }

      @Override
      public void onMessageSent() {
        observation.event(MESSAGE_SENT);
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
