package io.boltgen.micrometer;

import io.boltgen.runtime.ClientInterceptor;
import io.boltgen.runtime.ServerInterceptor;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;

/**
 * Micrometer Observations of boltgen calls: one interceptor per side, added to a {@code BoltClient} or
 * {@code BoltServer} builder ({@code clientInterceptor(...)} for calls it sends, {@code serverInterceptor(...)}
 * for calls it serves). What the observations become depends on the registry's handlers: timers
 * ({@code DefaultMeterObservationHandler}), spans with W3C trace context in the Bolt request headers
 * (Micrometer Tracing's propagating handlers), log correlation. See docs/observability.md.
 *
 * <p>The interceptors are thread-safe and may be shared by several clients and servers. On a no-op registry
 * they do nothing and allocate nothing.
 */
public final class BoltObservations {

  private BoltObservations() {}

  /** Observes every call sent, named and tagged by {@link DefaultBoltClientObservationConvention}. */
  public static ClientInterceptor clientInterceptor(ObservationRegistry registry) {
    return clientInterceptor(registry, null);
  }

  /**
   * Observes every call sent, named and tagged by {@code convention} ({@code null}: the default, unless the
   * registry's configuration sets a global convention).
   */
  public static ClientInterceptor clientInterceptor(ObservationRegistry registry,
      BoltClientObservationConvention convention) {
    return new ObservingClientInterceptor(Objects.requireNonNull(registry, "registry"), convention);
  }

  /** Observes every call served, named and tagged by {@link DefaultBoltServerObservationConvention}. */
  public static ServerInterceptor serverInterceptor(ObservationRegistry registry) {
    return serverInterceptor(registry, null);
  }

  /**
   * Observes every call served, named and tagged by {@code convention} ({@code null}: the default, unless the
   * registry's configuration sets a global convention).
   */
  public static ServerInterceptor serverInterceptor(ObservationRegistry registry,
      BoltServerObservationConvention convention) {
    return new ObservingServerInterceptor(Objects.requireNonNull(registry, "registry"), convention);
  }
}
