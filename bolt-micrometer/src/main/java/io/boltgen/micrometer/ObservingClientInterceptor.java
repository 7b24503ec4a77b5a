package io.boltgen.micrometer;

import io.boltgen.runtime.ClientInterceptor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Starts an observation per call sent, on the caller's thread, and stops it when the call completes, on the
 * completing thread (an IO thread, the timer, the caller's). No scope is opened: nothing runs on the
 * caller's thread between the two on the call's behalf. The observation's parent is whatever observation is
 * current on the caller's thread (a handler's, for a call back over a server's connection). Each message of a
 * stream is an event of the observation, as on the server: {@code message.sent} for each request the caller
 * streams, {@code message.received} for each message of a streamed answer.
 */
final class ObservingClientInterceptor implements ClientInterceptor {

  private final ObservationRegistry registry;
  private final BoltClientObservationConvention convention;

  ObservingClientInterceptor(ObservationRegistry registry, BoltClientObservationConvention convention) {
    this.registry = registry;
    this.convention = convention;
  }

  @Override
  public Listener interceptCall(Call call) {
    if (registry.isNoop()) {
      return null;
    }
    BoltClientObservationContext context = new BoltClientObservationContext(call);
    Observation observation = Observation.createNotStarted(convention,
        DefaultBoltClientObservationConvention.INSTANCE, () -> context, registry).start();
    context.setCarrier(null); // the call is sent after this returns: no header can be added any more
    return new Listener() {
      @Override
      public void onMessageSent() {
        observation.event(ObservingServerInterceptor.MESSAGE_SENT);
      }

      @Override
      public void onMessageReceived() {
        observation.event(ObservingServerInterceptor.MESSAGE_RECEIVED);
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
