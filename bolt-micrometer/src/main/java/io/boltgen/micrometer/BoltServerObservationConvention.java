package io.boltgen.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and key values of the observations of calls served. Implement it (or extend
 * {@link DefaultBoltServerObservationConvention}) and pass it to
 * {@link BoltObservations#serverInterceptor(io.micrometer.observation.ObservationRegistry, BoltServerObservationConvention)}
 * to change them; an {@code ObservationFilter} on the registry can add key values too.
 */
public interface BoltServerObservationConvention extends ObservationConvention<BoltServerObservationContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof BoltServerObservationContext;
  }
}
