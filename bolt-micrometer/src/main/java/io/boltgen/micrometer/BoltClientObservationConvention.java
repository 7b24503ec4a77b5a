package io.boltgen.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and key values of the observations of calls sent. Implement it (or extend
 * {@link DefaultBoltClientObservationConvention}) and pass it to
 * {@link BoltObservations#clientInterceptor(io.micrometer.observation.ObservationRegistry, BoltClientObservationConvention)}
 * to change them; an {@code ObservationFilter} on the registry can add key values too.
 */
public interface BoltClientObservationConvention extends ObservationConvention<BoltClientObservationContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof BoltClientObservationContext;
  }
}
